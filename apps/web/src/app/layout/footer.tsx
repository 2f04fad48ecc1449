import { Anchor, Box, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { NEWSLETTER_HIDDEN_PREFIXES } from '@portico/contracts/constants';
import type { SiteLink } from '@portico/contracts/site';
import { paths } from '../../config/paths';
import { langOf } from '../../components/content/translation';
import { useBlockLayout } from '../../lib/site-content';
import classes from './layout.module.css';
import NewsletterForm from './newsletter-form';

// The banners bring DOMPurify (11 KiB): loaded only once they come near the viewport.
const BottomBanners = lazy(() => import('./bottom-banners'));

/** Whether the element given to `setElement` is within `margin` of the viewport (or has been). */
function useNearViewport(margin: string): [(element: HTMLElement | null) => void, boolean] {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, element, margin]);
  return [setElement, near];
}

function SiteAnchor({ link }: { link: SiteLink }) {
  return link.external ? (
    <Anchor href={link.url} target="_blank" rel="noopener noreferrer" size="sm">
      {link.title}
    </Anchor>
  ) : (
    <Anchor component={Link} to={link.url} size="sm">
      {link.title}
    </Anchor>
  );
}

/** Bottom banners and footer from the block layout (spec B 1, 2.14). */
export function Footer() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const layout = useBlockLayout().data;
  const showNewsletter = !NEWSLETTER_HIDDEN_PREFIXES.some((p) => pathname.startsWith(p));
  const [bannersPlace, bannersNear] = useNearViewport('800px');
  // The provider's texts in the page's language, or marked as the default language's (decision 064).
  const lang = langOf(layout?.translation);
  return (
    <>
      <div ref={bannersPlace} />
      {bannersNear && layout && layout.bottomBanners.length > 0 && (
        <Suspense fallback={null}>
          <BottomBanners banners={layout.bottomBanners} lang={lang} />
        </Suspense>
      )}
      <Box component="footer" className={classes.footer} py="xl">
        <Container size="xl">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xl">
            {layout?.footer.map((column) => (
              <Stack key={column.title} gap={6} lang={lang}>
                <Title order={2} size="h5" c="gray.2">
                  {column.title}
                </Title>
                {column.links.map((l) => (
                  <SiteAnchor key={l.url} link={l} />
                ))}
              </Stack>
            ))}
            {showNewsletter && <NewsletterForm />}
          </SimpleGrid>
          <Group justify="space-between" mt="xl" gap="md">
            <Group gap="md">
              {layout?.social.map((l) => (
                <SiteAnchor key={l.url} link={l} />
              ))}
            </Group>
            <Group gap="md">
              <Anchor component={Link} to={paths.privacy} size="sm">
                {t('footer.privacy')}
              </Anchor>
              <Anchor component={Link} to={paths.terms} size="sm">
                {t('footer.terms')}
              </Anchor>
              <Text size="sm">{t('site.copyright')}</Text>
            </Group>
          </Group>
        </Container>
      </Box>
    </>
  );
}
