import { Anchor, Container, Group } from '@mantine/core';
import { useBlockLayout } from '../../lib/site-content';
import { HeroCarousel } from './hero-carousel';

/** Home (spec B 2.2). Featured APIs and the blog teaser join when the catalog and blog land. */
export default function HomePage() {
  const layout = useBlockLayout().data;
  return (
    <>
      <HeroCarousel items={layout?.carousel ?? []} />
      {layout && layout.awards.length > 0 && (
        <Container size="xl" py="md">
          <Group gap="lg">
            {layout.awards.map((a) => (
              <Anchor key={a.url} href={a.url} target="_blank" rel="noopener noreferrer" size="sm">
                {a.title}
              </Anchor>
            ))}
          </Group>
        </Container>
      )}
    </>
  );
}
