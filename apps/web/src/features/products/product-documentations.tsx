import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import type { Included } from './api-jsonapi';
import type { DocumentationSummaryAttributes, Product } from './api-products';

/** The product's documentation view (viewMode documentation): its API documentations. */
export function ProductDocumentations({ product, included }: { product: Product; included: Included }) {
  const { t } = useTranslation();
  const docs = included.many<DocumentationSummaryAttributes>(product, 'field_endpoints');
  return (
    <section aria-labelledby="api-documentations">
      <Title order={2} id="api-documentations" mb="md">
        {t('products.apiDocumentations')}
      </Title>
      {docs.length === 0 ? (
        <Text>{t('products.noDocumentation')}</Text>
      ) : (
        <Stack gap="sm" data-testid="product-documentations">
          {docs.map((d) => (
            <Card key={d.id} withBorder padding="md" component="article">
              <Group justify="space-between" wrap="wrap">
                <div>
                  <Title order={3} size="h5">
                    {d.attributes.title}
                  </Title>
                  <Group gap="xs" mt={4}>
                    {d.attributes.field_version && (
                      <Text size="sm" c="dimmed">
                        {t('products.version', { version: d.attributes.field_version })}
                      </Text>
                    )}
                    {d.attributes.field_deprecated && (
                      <Badge color="red" size="sm">
                        {t('products.deprecatedTag')}
                      </Badge>
                    )}
                  </Group>
                </div>
                <Button
                  component={Link}
                  to={`${paths.documentation(d.attributes.alias || d.id)}?product=${encodeURIComponent(product.id)}`}
                  variant="light"
                  aria-label={`${t('products.viewDocumentation')}: ${d.attributes.title}`}
                >
                  {t('products.viewDocumentation')}
                </Button>
              </Group>
            </Card>
          ))}
        </Stack>
      )}
    </section>
  );
}
