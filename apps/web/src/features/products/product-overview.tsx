import { Card, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { HtmlContent } from '../../components/ui/html-content';
import { paths } from '../../config/paths';
import type { Included } from './api-jsonapi';
import type {
  AdvantageAttributes,
  ComparisonTableAttributes,
  FeatureAttributes,
  Product,
  ProductAttributes,
} from './api-products';
import { useChangelog } from './api-products';
import { ChangelogList } from './changelog-list';
import classes from './products.module.css';
import { cutText, htmlToText, stripVersionSuffix } from './text';
import { ComparisonTable } from './comparison-table';

/**
 * The product overview (spec B 2.11, 3): features, advantages under their header, the comparison
 * table, related APIs (linked by alias without its version suffix) and the changelog.
 */
export function ProductOverview({ product, included }: { product: Product; included: Included }) {
  const { t } = useTranslation();
  const features = included.many<FeatureAttributes>(product, 'field_features');
  const advantages = included.many<AdvantageAttributes>(product, 'field_advantages');
  const table = included.one<ComparisonTableAttributes>(product, 'field_comparison_table');
  const related = included.many<ProductAttributes>(product, 'field_related_products');
  const changelog = useChangelog(product.id);
  const header = product.attributes.field_advantages_header;

  return (
    <Stack gap={48}>
      {features.length > 0 && (
        <section aria-labelledby="features">
          <Title order={2} id="features" mb="md">
            {t('products.features')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="features">
            {features.map((f) => (
              <Card key={f.id} withBorder padding="lg" component="article">
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  {f.attributes.field_icon?.url && (
                    <Image src={f.attributes.field_icon.url} alt="" w={40} h={40} fit="contain" />
                  )}
                  <div>
                    <Title order={3} size="h5">
                      {f.attributes.title}
                    </Title>
                    {f.attributes.field_description?.processed && (
                      <HtmlContent html={f.attributes.field_description.processed} fz="sm" mt={4} />
                    )}
                  </div>
                </Group>
              </Card>
            ))}
          </SimpleGrid>
        </section>
      )}

      {advantages.length > 0 && (
        <section aria-labelledby="advantages">
          <Title order={2} id="advantages" mb="xs">
            {header?.title || t('products.advantages')}
          </Title>
          {header?.body?.processed && <HtmlContent html={header.body.processed} mb="md" />}
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="advantages">
            {advantages.map((adv) => (
              <Stack key={adv.id} gap={4}>
                <Title order={3} size="h5">
                  {adv.attributes.title}
                </Title>
                {adv.attributes.field_description?.processed && (
                  <HtmlContent html={adv.attributes.field_description.processed} fz="sm" />
                )}
              </Stack>
            ))}
          </SimpleGrid>
        </section>
      )}

      {table && <ComparisonTable table={table} included={included} />}

      {related.length > 0 && (
        <section aria-labelledby="related-apis">
          <Title order={2} id="related-apis" mb="md">
            {t('products.relatedApis')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} data-testid="related-apis">
            {related.map((r) => {
              const image = included.image(r, 'field_image');
              const slug = stripVersionSuffix(r.attributes.path?.alias ?? '') || r.id;
              return (
                <Card key={r.id} withBorder padding="lg" component="article">
                  <Group wrap="nowrap" align="flex-start">
                    {image && <Image src={image.url} alt={image.alt} w={48} h={48} fit="contain" />}
                    <div>
                      <Title order={3} size="h5">
                        <Link to={paths.apiProduct(slug)} className={classes.cardLink}>
                          {r.attributes.title}
                        </Link>
                      </Title>
                      <Text size="sm" c="dimmed" mt={4}>
                        {cutText(htmlToText(r.attributes.body?.processed), 100)}
                      </Text>
                    </div>
                  </Group>
                </Card>
              );
            })}
          </SimpleGrid>
        </section>
      )}

      {(changelog.data?.data.length ?? 0) > 0 && (
        <section aria-labelledby="changelog">
          <Title order={2} id="changelog" mb="md">
            {t('products.changelog')}
          </Title>
          <ChangelogList entries={changelog.data?.data ?? []} />
        </section>
      )}
    </Stack>
  );
}
