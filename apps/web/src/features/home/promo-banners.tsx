import { Button, Card, Container, Image, SimpleGrid, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { PromoBanner } from '@portico/contracts/site';
import { t } from '../../lib/i18n';

/** The home page's promotional banners (spec B 2.2: race and studio), from the block layout. */
export function PromoBanners({ items, lang }: { items: PromoBanner[]; lang?: string | undefined }) {
  if (!items.length) return null;
  return (
    <Container size="xl" py="md" component="section" aria-label={t('layout.promotions')}>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {items.map((b) => (
          <Card key={b.key} withBorder padding="lg" data-testid="promo-banner" lang={lang}>
            {b.image_url && (
              <Card.Section>
                <Image src={b.image_url} alt="" h={120} fit="cover" />
              </Card.Section>
            )}
            <Title order={2} size="h4" mt="md">
              {b.title}
            </Title>
            {b.text && (
              <Text size="sm" mt="xs">
                {b.text}
              </Text>
            )}
            {b.link &&
              (b.link.external ? (
                <Button
                  component="a"
                  href={b.link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  variant="light"
                  mt="md"
                >
                  {b.link.title}
                </Button>
              ) : (
                <Button component={Link} to={b.link.url} variant="light" mt="md">
                  {b.link.title}
                </Button>
              ))}
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
