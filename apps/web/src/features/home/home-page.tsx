import { Anchor, Container, Group } from '@mantine/core';
import { langOf } from '../../components/content/translation';
import { useBlockLayout } from '../../lib/site-content';
import { useIsLoggedIn } from '../../lib/store';
import { FeaturedApis } from './featured-apis';
import { HeroCarousel } from './hero-carousel';
import { FeatureMessages } from '../../lib/feature-messages-gate';
import { LatestPosts } from './latest-posts';
import { PromoBanners } from './promo-banners';
import { StartSteps } from './start-steps';

/**
 * Home (spec B 2.2): hero, awards, promo banners; for signed-in users the featured APIs, the latest
 * blog posts and the START steps.
 */
export default function HomePage() {
  const layout = useBlockLayout().data;
  const loggedIn = useIsLoggedIn();
  // The provider's texts in the page's language, or marked as the default language's (decision 064).
  const lang = langOf(layout?.translation);
  return (
    <>
      <HeroCarousel items={layout?.carousel ?? []} lang={lang} />
      {layout && layout.awards.length > 0 && (
        <Container size="xl" py="md">
          <Group gap="lg" lang={lang}>
            {layout.awards.map((a) => (
              <Anchor key={a.url} href={a.url} target="_blank" rel="noopener noreferrer" size="sm">
                {a.title}
              </Anchor>
            ))}
          </Group>
        </Container>
      )}
      <PromoBanners items={layout?.promoBanners ?? []} lang={lang} />
      {loggedIn && <FeaturedApis />}
      {loggedIn && (
        <FeatureMessages>
          <LatestPosts />
        </FeatureMessages>
      )}
      {loggedIn && <StartSteps />}
    </>
  );
}
