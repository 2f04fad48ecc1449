import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  COMPARISON_COLUMNS_MAX,
  COMPARISON_ROW_TYPES,
  type ComparisonColumnFields,
  type ComparisonRowFields,
  type ComparisonRowKind,
  type ComparisonTableFields,
  type ConsoleComparisonTable,
  type ConsoleProductListItem,
} from '@portico/contracts/console-products';
import { IconArrowDown, IconArrowUp, IconCheck, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { TranslationsPanel } from '../console/translations-panel';
import { LoadVersioned, useVersionedEditor } from '../console/versioned-editor';
import {
  comparisonSource,
  listComparisonTables,
  listProducts,
  type ConsoleComparisonTableListItem,
} from './api';
import { DeleteDialog, PreviewAndRevisions, useCatalogDelete, VersionLine } from './catalog-editing';
import { PRODUCTS_KEY } from './product-list';

export const TABLES_KEY = ['console-comparison-tables'] as const;

const fieldsOf = (x: ConsoleComparisonTable): ComparisonTableFields => ({
  title: x.title,
  columns: x.columns,
  rows: x.rows,
  products: x.products,
});

const BLANK: ComparisonTableFields = {
  title: '',
  columns: [
    { product: null, title: null },
    { product: null, title: null },
  ],
  rows: [],
  products: [],
};

/** The value a new cell of a row takes: nothing for a category, empty text, or 'no'. */
const blankValue = (type: ComparisonRowKind) => (type === 'comparison_boolean_row' ? '0' : '');

/**
 * /admin/apis/comparison-tables/:tableId (and /new): a comparison table's title, columns, rows and
 * the products that show it, with a preview of the table as the product page shows it.
 */
export default function ComparisonEditorPage() {
  const { t } = useTranslation();
  const { tableId } = useParams();
  // The same query as the form's (LoadVersioned): the page's title names the table.
  const { data: loaded } = useQuery({
    queryKey: [comparisonSource.key, tableId ?? ''],
    queryFn: () => comparisonSource.get(tableId!),
    enabled: tableId !== undefined,
    retry: false,
  });
  const title = !tableId
    ? t('console.products.comparison.newTitle')
    : loaded
      ? t('console.products.comparison.editTitle', { title: loaded.data.title })
      : t('console.products.comparison.title');
  return (
    <ConsolePage roles="api_manager" title={title}>
      <Button component={Link} to={paths.adminApis} variant="subtle" mb="sm" px={0}>
        {t('console.products.comparison.back')}
      </Button>
      {!tableId ? (
        <TableForm table={null} onReplaced={() => undefined} />
      ) : (
        <LoadVersioned
          id={tableId}
          source={comparisonSource}
          notFound={t('console.products.errors.comparisonNotFound')}
        >
          {(table, onReplaced) => (
            <>
              <TableForm table={table} onReplaced={onReplaced} />
              {/* The title's, rows' and own columns' texts in other languages (decision 064), anew for each version. */}
              <TranslationsPanel
                key={table.version}
                item={`/admin-api/catalog/comparison-tables/${table.id}`}
              />
            </>
          )}
        </LoadVersioned>
      )}
    </ConsolePage>
  );
}

type TableValues = ComparisonTableFields & { key: string };

/**
 * A table's form: a new table's key, the title, columns, rows and products, with the preview and,
 * for a saved table, its conflict and revisions (the console's versioned editing).
 */
function TableForm({
  table,
  onReplaced,
}: {
  /** null: a new table. */
  table: ConsoleComparisonTable | null;
  onReplaced(x: ConsoleComparisonTable): void;
}) {
  const { t } = useTranslation();
  const products = useQuery({ queryKey: PRODUCTS_KEY, queryFn: listProducts });
  const editor = useVersionedEditor({
    source: comparisonSource,
    item: table ?? undefined,
    empty: { ...BLANK, key: '' },
    fieldsOf: (x): TableValues => ({ ...fieldsOf(x), key: x.key }),
    toSend: ({ key, ...fields }) => (table ? fields : { ...fields, key }),
    afterSave: (_values, saved) => ({ ...fieldsOf(saved), key: saved.key }),
    pathOf: paths.adminComparison,
    listPath: paths.adminApis,
    savedText: (version) => t('console.products.comparison.saved', { version }),
    onReplaced,
  });
  const { fields } = editor;
  const labelOf = (field: keyof ComparisonTableFields) =>
    t(
      (
        {
          title: 'console.products.comparison.titleLabel',
          columns: 'console.products.comparison.columns',
          rows: 'console.products.comparison.rows',
          products: 'console.products.comparison.productsLabel',
        } as const
      )[field],
    );
  const remove = useCatalogDelete({
    remove: () => comparisonSource.remove(table!.id, editor.version),
    lists: [TABLES_KEY],
    deleted: t('console.products.comparison.deleted', { title: table?.title ?? '' }),
  });
  const error = remove.error ?? editor.error;

  const all = products.data ?? [];
  const optionOf = (p: ConsoleProductListItem) => ({
    value: p.id,
    label: `${p.title}${p.productVersion ? ` ${p.productVersion}` : ''} (/${p.alias})`,
  });
  const setColumns = (columns: ComparisonColumnFields[], rows: ComparisonRowFields[]) =>
    editor.update({ columns, rows });
  const addColumn = () =>
    setColumns(
      [...fields.columns, { product: null, title: null }],
      fields.rows.map((r) =>
        r.type === 'comparison_category' ? r : { ...r, values: [...r.values, blankValue(r.type)] },
      ),
    );
  const removeColumn = (i: number) =>
    setColumns(
      fields.columns.filter((_, j) => j !== i),
      fields.rows.map((r) => ({ ...r, values: r.values.filter((_, j) => j !== i) })),
    );
  const updateColumn = (i: number, patch: Partial<ComparisonColumnFields>) =>
    editor.set(
      'columns',
      fields.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)),
    );
  const updateRow = (i: number, patch: Partial<ComparisonRowFields>) =>
    editor.set(
      'rows',
      fields.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)),
    );
  const setType = (i: number, type: ComparisonRowKind) =>
    updateRow(i, {
      type,
      values: type === 'comparison_category' ? [] : fields.columns.map(() => blankValue(type)),
    });
  const moveRow = (i: number, to: number) => {
    const rows = [...fields.rows];
    [rows[i], rows[to]] = [rows[to]!, rows[i]!];
    editor.set('rows', rows);
  };
  const addRow = () =>
    editor.set('rows', [
      ...fields.rows,
      { type: 'comparison_text_row', title: '', values: fields.columns.map(() => '') },
    ]);

  return (
    <Group align="flex-start" gap="xl" wrap="wrap">
      <Box
        component="form"
        onSubmit={(e) => {
          remove.clear();
          editor.submit(e);
        }}
        style={{ flex: '1 1 520px' }}
        aria-label={t('console.products.comparison.formLabel')}
        data-testid="comparison-form"
      >
        <Stack>
          {table ? (
            <VersionLine
              editor={editor}
              labelOf={labelOf}
              testId="comparison"
              messages="console.products.comparison"
            >
              {table.key}
            </VersionLine>
          ) : (
            <TextInput
              label={t('console.products.comparison.keyLabel')}
              description={t('console.products.comparison.keyHelp')}
              required
              value={fields.key}
              onChange={(e) => editor.set('key', e.currentTarget.value.toLowerCase())}
            />
          )}
          <TextInput
            label={t('console.products.comparison.titleLabel')}
            required
            value={fields.title}
            onChange={(e) => editor.set('title', e.currentTarget.value)}
          />

          <Box component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} mb="xs">
              {t('console.products.comparison.columns')}
            </Text>
            <Stack gap="xs">
              {fields.columns.map((col, i) => (
                <Paper withBorder p="xs" key={i}>
                  <Group align="flex-end" wrap="wrap">
                    <Select
                      style={{ flex: '1 1 220px' }}
                      label={t('console.products.comparison.columnProduct', { n: i + 1 })}
                      placeholder={t('console.products.comparison.noProduct')}
                      clearable
                      searchable
                      data={all.map(optionOf)}
                      value={col.product}
                      onChange={(v) => updateColumn(i, { product: v })}
                    />
                    <TextInput
                      style={{ flex: '1 1 180px' }}
                      label={t('console.products.comparison.columnTitle', { n: i + 1 })}
                      value={col.title ?? ''}
                      onChange={(e) => updateColumn(i, { title: e.currentTarget.value || null })}
                    />
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      disabled={fields.columns.length <= 1}
                      onClick={() => removeColumn(i)}
                    >
                      {t('console.products.comparison.removeColumn', { n: i + 1 })}
                    </Button>
                  </Group>
                </Paper>
              ))}
              <Text size="xs" c="dimmed">
                {t('console.products.comparison.columnTitleHelp')}
              </Text>
              <Group>
                <Button
                  size="compact-sm"
                  variant="default"
                  disabled={fields.columns.length >= COMPARISON_COLUMNS_MAX}
                  onClick={addColumn}
                >
                  {t('console.products.comparison.addColumn')}
                </Button>
              </Group>
            </Stack>
          </Box>

          <Box component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} mb="xs">
              {t('console.products.comparison.rows')}
            </Text>
            <Stack gap="xs">
              {fields.rows.map((row, i) => (
                <Paper withBorder p="xs" key={i} data-testid="comparison-row">
                  <Group align="flex-end" wrap="wrap">
                    <Select
                      style={{ flex: '0 1 150px' }}
                      label={t('console.products.comparison.rowType', { n: i + 1 })}
                      allowDeselect={false}
                      data={COMPARISON_ROW_TYPES.map((type) => ({
                        value: type,
                        label: t(`console.products.comparison.types.${type}`),
                      }))}
                      value={row.type}
                      onChange={(v) => v && setType(i, v as ComparisonRowKind)}
                    />
                    <TextInput
                      style={{ flex: '1 1 200px' }}
                      label={t('console.products.comparison.rowTitle', { n: i + 1 })}
                      required
                      value={row.title}
                      onChange={(e) => updateRow(i, { title: e.currentTarget.value })}
                    />
                    <Group gap={4}>
                      <ActionIcon
                        variant="default"
                        aria-label={t('console.products.comparison.moveRowUp', { n: i + 1 })}
                        disabled={i === 0}
                        onClick={() => moveRow(i, i - 1)}
                      >
                        <IconArrowUp size={16} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="default"
                        aria-label={t('console.products.comparison.moveRowDown', { n: i + 1 })}
                        disabled={i === fields.rows.length - 1}
                        onClick={() => moveRow(i, i + 1)}
                      >
                        <IconArrowDown size={16} aria-hidden />
                      </ActionIcon>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() =>
                          editor.set(
                            'rows',
                            fields.rows.filter((_, j) => j !== i),
                          )
                        }
                      >
                        {t('console.products.comparison.removeRow', { n: i + 1 })}
                      </Button>
                    </Group>
                  </Group>
                  {row.type !== 'comparison_category' && (
                    <Group mt="xs" wrap="wrap">
                      {fields.columns.map((_, c) => {
                        const label = t('console.products.comparison.rowValue', { n: i + 1, column: c + 1 });
                        const values = (v: string) =>
                          fields.columns.map((__, k) =>
                            k === c ? v : (row.values[k] ?? blankValue(row.type)),
                          );
                        return row.type === 'comparison_boolean_row' ? (
                          <Checkbox
                            key={c}
                            label={label}
                            checked={row.values[c] === '1'}
                            onChange={(e) =>
                              updateRow(i, { values: values(e.currentTarget.checked ? '1' : '0') })
                            }
                          />
                        ) : (
                          <TextInput
                            key={c}
                            style={{ flex: '1 1 140px' }}
                            label={label}
                            value={row.values[c] ?? ''}
                            onChange={(e) => updateRow(i, { values: values(e.currentTarget.value) })}
                          />
                        );
                      })}
                    </Group>
                  )}
                </Paper>
              ))}
              <Group>
                <Button size="compact-sm" variant="default" onClick={addRow}>
                  {t('console.products.comparison.addRow')}
                </Button>
              </Group>
            </Stack>
          </Box>

          <MultiSelect
            label={t('console.products.comparison.productsLabel')}
            description={t('console.products.comparison.productsHelp')}
            searchable
            data={all.map(optionOf)}
            value={fields.products}
            onChange={(v) => editor.set('products', v)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {editor.notice && (
            <Alert color="green" role="status" data-testid="comparison-saved">
              {editor.notice}
            </Alert>
          )}
          <Group justify="space-between">
            <Button type="submit" loading={editor.saving}>
              {table ? t('console.products.comparison.save') : t('console.products.comparison.create')}
            </Button>
            {table && (
              <Button variant="outline" color="red" onClick={remove.ask}>
                {t('console.products.comparison.delete')}
              </Button>
            )}
          </Group>
        </Stack>
        <DeleteDialog
          remove={remove}
          texts={{
            title: t('console.products.comparison.delete'),
            text: t('console.products.comparison.deleteConfirm', { title: table?.title ?? '' }),
            cancel: t('console.products.comparison.cancel'),
            confirm: t('console.products.comparison.deleteConfirmButton'),
          }}
        />
      </Box>
      <PreviewAndRevisions editor={editor} labelOf={labelOf} testId="comparison">
        <TablePreview fields={fields} products={all} />
      </PreviewAndRevisions>
    </Group>
  );
}

/**
 * The table as the product page shows it (features/products comparison-table.tsx): a column per
 * product, named by the live product's title, else its own title, else 'Deprecated API'.
 */
function TablePreview({
  fields,
  products,
}: {
  fields: ComparisonTableFields;
  products: ConsoleProductListItem[];
}) {
  const { t } = useTranslation();
  const names = fields.columns.map((col) => {
    const p = products.find((x) => x.id === col.product);
    if (p && !p.deprecated && !p.retired) return p.title;
    return col.title || t('products.deprecatedApi');
  });
  return (
    <Paper
      withBorder
      p="md"
      style={{ flex: '1 1 420px' }}
      component="section"
      aria-labelledby="comparison-preview-title"
      data-testid="comparison-preview"
    >
      <Text size="sm" fw={600} mb="xs" id="comparison-preview-title">
        {t('console.products.comparison.preview')}
      </Text>
      <Title order={2} size="h3" mb="md">
        {fields.title || t('products.comparison')}
      </Title>
      <Table.ScrollContainer minWidth={360}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('products.comparisonFeature')}</Table.Th>
              {names.map((name, i) => (
                <Table.Th key={i} scope="col">
                  {name}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.rows.map((row, i) =>
              row.type === 'comparison_category' ? (
                <Table.Tr key={i}>
                  <Table.Th scope="colgroup" colSpan={names.length + 1}>
                    <Text fw={700} tt="uppercase" size="sm">
                      {row.title}
                    </Text>
                  </Table.Th>
                </Table.Tr>
              ) : (
                <Table.Tr key={i}>
                  <Table.Th scope="row" fw={500}>
                    {row.title}
                  </Table.Th>
                  {names.map((_, c) => {
                    const value = row.values[c] ?? '';
                    if (row.type !== 'comparison_boolean_row') return <Table.Td key={c}>{value}</Table.Td>;
                    return (
                      <Table.Td key={c}>
                        {value === '1' ? (
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
    </Paper>
  );
}

/** The comparison tables on /admin/apis: each with its size and the product pages that show it. */
export function ComparisonTableList() {
  const { t } = useTranslation();
  const tables = useQuery({ queryKey: TABLES_KEY, queryFn: listComparisonTables });
  return (
    <Stack gap="sm" component="section" aria-labelledby="console-comparison-title">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id="console-comparison-title">
            {t('console.products.comparison.title')}
          </Title>
          <Text>{t('console.products.comparison.intro')}</Text>
        </div>
        <Button component={Link} to={paths.adminComparisonNew}>
          {t('console.products.comparison.newTable')}
        </Button>
      </Group>
      {tables.isError && <Alert color="red">{messageOf(tables.error, t('errors.somethingWentWrong'))}</Alert>}
      {!tables.data ? (
        !tables.isError && <Loading />
      ) : (
        <Table
          striped
          aria-label={t('console.products.comparison.listLabel')}
          data-testid="console-comparison-tables"
        >
          <Table.Tbody>
            {tables.data.map((x: ConsoleComparisonTableListItem) => (
              <Table.Tr key={x.id}>
                <Table.Td>
                  <Text fw={600}>{x.title}</Text>
                  <Text size="xs" c="dimmed">
                    {x.key} · {t('console.products.comparison.columnsCount', { count: x.columns })} ·{' '}
                    {t('console.products.comparison.rowsCount', { count: x.rows })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {t('console.products.comparison.shownOn')}:{' '}
                    {x.products.length
                      ? x.products.map((p) => p.title).join(', ')
                      : t('console.products.comparison.nowhere')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={paths.adminComparison(x.id)}
                    aria-label={t('console.products.comparison.editLabel', { title: x.title })}
                  >
                    {t('console.products.comparison.edit')}
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
