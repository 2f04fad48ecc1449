import { Badge, Card, Container, Image, SimpleGrid, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { apiRequest } from '../../lib/api-client';
import { langOf, readerLanguage, type TranslationMarker } from '../../components/content/translation';

interface ProductResource {
  id: string;
  attributes: {
    title: string;
    body: { processed: string } | null;
    path: { alias: string | null } | null;
    field_label: string | null;
    field_disable_documentation: boolean;
  };
  relationships: { field_image: { data: { id: string; meta?: { alt?: string } } | null } };
  meta?: { translation?: TranslationMarker };
}
interface FileResource {
  id: string;
  type: string;
  attributes: { url: string };
}

/** Plain text of a product's HTML body, cut for a card. */
function teaser(html: string | undefined, max = 140): string {
  const text = new DOMParser().parseFromString(html ?? '', 'text/html').body.textContent?.trim() ?? '';
  return text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
}

/** Featured APIs on the home page for signed-in users (spec B 2.2): the first products by weight. */
export function FeaturedApis() {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['featured-products'],
    queryFn: () =>
      apiRequest<{ data: ProductResource[]; included?: FileResource[] }>('/jsonapi/node/api_product', {
        query: { include: 'field_image', 'page[limit]': 3, ...readerLanguage() },
      }),
  });
  if (!query.data?.data.length) return null;
  const files = new Map((query.data.included ?? []).map((f) => [f.id, f.attributes.url]));
  return (
    <Container size="xl" py="xl" component="section" aria-labelledby="featured-apis">
      <Title order={2} id="featured-apis" mb="md">
        {t('home.featuredApis')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {query.data.data.map((p) => {
          const image = p.relationships.field_image.data;
          const to = paths.apiProduct(p.attributes.path?.alias?.replace(/^\//, '') || p.id);
          return (
            <Card key={p.id} withBorder component={Link} to={to} padding="lg">
              {image && files.get(image.id) && (
                <Card.Section>
                  <Image src={files.get(image.id)} alt={image.meta?.alt ?? ''} h={140} fit="cover" />
                </Card.Section>
              )}
              <Title order={3} size="h4" mt="md" lang={langOf(p.meta?.translation)}>
                {p.attributes.title}
              </Title>
              {p.attributes.field_label && (
                <Badge mt={4} variant="light">
                  {p.attributes.field_label}
                </Badge>
              )}
              <Text size="sm" c="dimmed" mt="xs" lang={langOf(p.meta?.translation)}>
                {teaser(p.attributes.body?.processed)}
              </Text>
            </Card>
          );
        })}
      </SimpleGrid>
    </Container>
  );
}
