import { ActionIcon, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import type { CarouselItem } from '@portico/contracts/site';
import { loginPath, paths } from '../../config/paths';
import { useIsLoggedIn } from '../../lib/store';
import { carouselStepWidth } from './carousel-step';
import classes from './home.module.css';

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const update = () => setWidth(window.innerWidth);
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
  return width;
}

/**
 * The home hero (spec B 1, 2.2): 'CONNECT ON A GLOBAL SCALE', DISCOVER APIs and, for visitors,
 * REGISTER; behind it a carousel that advances after each item's visibleFor seconds and wraps.
 * Its slides form a strip, each one step wide (spec B 9: 21.5% of (window width - 50)), moved one
 * step per slide. The strip only shows the pictures again: screen readers get the current slide's
 * text and the previous and next buttons, so it is hidden from them.
 */
export function HeroCarousel({ items, lang }: { items: CarouselItem[]; lang?: string | undefined }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [index, setIndex] = useState(0);
  const stepWidth = carouselStepWidth(useWindowWidth());
  const current = items.length ? items[index % items.length] : undefined;

  useEffect(() => {
    if (!current || items.length < 2) return;
    const timer = setTimeout(() => setIndex((i) => (i + 1) % items.length), current.visibleFor * 1000);
    return () => clearTimeout(timer);
  }, [current, items.length]);

  const step = (delta: number) => setIndex((i) => (i + delta + items.length) % items.length);

  return (
    <Box
      component="section"
      className={classes.hero}
      aria-roledescription="carousel"
      aria-label={t('home.hero')}
      style={current ? { backgroundImage: `url(${current.image_url})` } : undefined}
    >
      <Stack gap="md" className={classes.heroContent}>
        <Title order={1} className={classes.heroTitle}>
          {t('home.hero')}
        </Title>
        {current && (
          <div aria-live="polite" aria-atomic="true" lang={lang}>
            <Text fw={700} size="lg">
              {current.title}
            </Text>
            <Text>{current.text}</Text>
          </div>
        )}
        {!loggedIn && <Text>{t('home.internalLine')}</Text>}
        <Group gap="sm">
          <Button component={Link} to={paths.apiProducts} size="md">
            {t('home.discoverApis')}
          </Button>
          {!loggedIn && (
            <Button component={Link} to={loginPath('/', 'signup')} size="md" variant="white">
              {t('home.register')}
            </Button>
          )}
        </Group>
        {items.length > 1 && (
          <Group gap="xs">
            <ActionIcon variant="white" onClick={() => step(-1)} aria-label={t('home.previousSlide')}>
              <IconChevronLeft size={18} />
            </ActionIcon>
            <Text size="sm">
              {(index % items.length) + 1} / {items.length}
            </Text>
            <ActionIcon variant="white" onClick={() => step(1)} aria-label={t('home.nextSlide')}>
              <IconChevronRight size={18} />
            </ActionIcon>
          </Group>
        )}
        {items.length > 0 && (
          <div className={classes.slides} aria-hidden="true" data-testid="carousel-strip">
            <div
              className={classes.track}
              style={{ transform: `translateX(${-(index % items.length) * stepWidth}px)` }}
            >
              {items.map((item, i) => (
                <div
                  key={item.key}
                  className={classes.slide}
                  style={{ width: stepWidth }}
                  data-active={i === index % items.length || undefined}
                  data-testid="carousel-slide"
                >
                  <div style={{ backgroundImage: `url(${item.image_url})` }} />
                </div>
              ))}
            </div>
          </div>
        )}
      </Stack>
    </Box>
  );
}
