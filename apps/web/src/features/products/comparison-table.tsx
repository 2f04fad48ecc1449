import { Anchor, Table, Text, Title } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { langOf } from '../../components/content/translation';
import type { Included, Resource } from './api-jsonapi';
import type { ComparisonRowAttributes, ComparisonTableAttributes } from './api-products';
import classes from './products.module.css';

/**
 * The comparison table (spec B 3): one column per product, named by the server (the product's
 * title, else the column's own title, else 'Deprecated API'); rows are categories (a heading
 * across the table), text rows, or yes/no rows where '1' means yes. Its texts come in the page's
 * language (decision 064); a table with none is marked as the default language's (`lang`).
 */
export function ComparisonTable({
  table,
  included,
}: {
  table: Resource<ComparisonTableAttributes>;
  included: Included;
}) {
  const { t } = useTranslation();
  const names = table.attributes.field_product_names ?? [];
  const ids = table.attributes.field_product_ids ?? [];
  const rows = included
    .many<ComparisonRowAttributes>(table, 'field_rows')
    .sort((a, b) => (a.attributes.weight ?? 0) - (b.attributes.weight ?? 0));
  const deprecatedApi = t('products.deprecatedApi');

  return (
    <section aria-labelledby="comparison" lang={langOf(table.meta?.translation)}>
      <Title order={2} id="comparison" mb="md">
        {table.attributes.title || t('products.comparison')}
      </Title>
      <Table.ScrollContainer minWidth={480}>
        <Table striped withTableBorder className={classes.comparison} data-testid="comparison-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('products.comparisonFeature')}</Table.Th>
              {names.map((name, i) => {
                const label = name || deprecatedApi;
                const id = ids[i];
                return (
                  <Table.Th key={`${label}-${i}`} scope="col">
                    {id && label !== deprecatedApi ? (
                      <Anchor component={Link} to={paths.apiProduct(id)}>
                        {label}
                      </Anchor>
                    ) : (
                      label
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) =>
              row.type === 'paragraph--comparison_category' ? (
                <Table.Tr key={row.id}>
                  <Table.Th scope="colgroup" colSpan={names.length + 1}>
                    <Text fw={700} tt="uppercase" size="sm">
                      {row.attributes.title}
                    </Text>
                  </Table.Th>
                </Table.Tr>
              ) : (
                <Table.Tr key={row.id}>
                  <Table.Th scope="row" fw={500}>
                    {row.attributes.title}
                  </Table.Th>
                  {names.map((_, i) => {
                    const value = row.attributes.field_values?.[i] ?? '';
                    if (row.type !== 'paragraph--comparison_boolean_row') {
                      return <Table.Td key={i}>{value}</Table.Td>;
                    }
                    const yes = value === '1';
                    return (
                      <Table.Td key={i}>
                        {yes ? (
                          <IconCheck
                            size={18}
                            color="var(--mantine-color-green-7)"
                            aria-label={t('products.yes')}
                            role="img"
                          />
                        ) : (
                          <IconX
                            size={18}
                            color="var(--mantine-color-gray-6)"
                            aria-label={t('products.no')}
                            role="img"
                          />
                        )}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ),
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}
