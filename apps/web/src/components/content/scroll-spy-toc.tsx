import { Box, NavLink, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import classes from './content.module.css';
import { activeHeading, tocWindow, type TocItem } from './toc';

/**
 * The scroll-spy table of contents (spec B 2.8, 9): the heading being read is highlighted; the
 * list shows the items from active-6 to active+12; the last heading is active once the page is
 * within 60 px of its bottom.
 */
export function ScrollSpyToc({ items }: { items: TocItem[] }) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);

  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const tops = items.map((i) => document.getElementById(i.id)?.getBoundingClientRect().top ?? 0);
      setActive(
        activeHeading(tops, {
          scrollY: window.scrollY,
          innerHeight: window.innerHeight,
          scrollHeight: document.documentElement.scrollHeight,
        }),
      );
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [items]);

  const { start, items: shown } = tocWindow(items, active);
  return (
    <Box component="nav" aria-labelledby="toc-title" className={classes.toc} data-testid="toc">
      <Text id="toc-title" fw={700} size="sm" mb="xs">
        {t('content.tableOfContents')}
      </Text>
      {shown.map((item, i) => (
        <NavLink
          key={item.id}
          href={`#${item.id}`}
          label={item.text}
          active={start + i === active}
          aria-current={start + i === active ? 'location' : undefined}
          pl={(item.level - 1) * 12 + 8}
          py={4}
          onClick={(e) => {
            e.preventDefault();
            document.getElementById(item.id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
            history.replaceState(null, '', `#${item.id}`);
          }}
        />
      ))}
    </Box>
  );
}
