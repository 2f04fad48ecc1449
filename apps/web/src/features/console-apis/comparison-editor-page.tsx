import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  Modal,
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
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import {
  createComparisonTable,
  deleteComparisonTable,
  getComparisonTable,
  listComparisonTables,
  listProducts,
  saveComparisonTable,
  tableConflictOf,
  type ComparisonFieldChange,
  type ConsoleComparisonTableListItem,
} from './api';
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
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['console-comparison-table', tableId ?? ''],
    queryFn: () => getComparisonTable(tableId!),
    enabled: tableId !== undefined,
    retry: false,
  });
  const [seed, setSeed] = useState(0);
  const title = !tableId
    ? t('console.products.comparison.newTitle')
    : query.data
      ? t('console.products.comparison.editTitle', { title: query.data.title })
      : t('console.products.comparison.title');
  return (
    <ConsolePage roles="api_manager" title={title}>
      <Button component={Link} to={paths.adminApis} variant="subtle" mb="sm" px={0}>
        {t('console.products.comparison.back')}
      </Button>
      {!tableId ? (
        <TableForm table={null} onReplaced={() => undefined} />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('console.products.errors.comparisonNotFound'))}
        </Alert>
      ) : !query.data ? (
        <Loading />
      ) : (
        <TableForm
          key={`${query.data.id}-${seed}`}
          table={query.data}
          onReplaced={(x) => {
            client.setQueryData(['console-comparison-table', tableId], x);
            setSeed((n) => n + 1);
          }}
        />
      )}
    </ConsolePage>
  );
}

function TableForm({
  table,
  onReplaced,
}: {
  /** null: a new table. */
  table: ConsoleComparisonTable | null;
  onReplaced(x: ConsoleComparisonTable): void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const products = useQuery({ queryKey: PRODUCTS_KEY, queryFn: listProducts });
  const [fields, setFields] = useState<ComparisonTableFields>(() => (table ? fieldsOf(table) : BLANK));
  const [key, setKey] = useState('');
  const [version, setVersion] = useState(table?.version ?? 0);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{
    current: ConsoleComparisonTable;
    changes: ComparisonFieldChange[];
  } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const onError = (err: unknown) => {
    setNotice(null);
    const found = err instanceof ApiError && err.status === 409 ? tableConflictOf(err.body) : null;
    if (found) {
      setConflict(found);
      setError(null);
    } else setError(messageOf(err, t('errors.somethingWentWrong')));
  };
  const save = useMutation({
    mutationFn: (over?: number) =>
      table ? saveComparisonTable(table.id, fields, over ?? version) : createComparisonTable(key, fields),
    onSuccess: async (data) => {
      setConflict(null);
      setError(null);
      await client.invalidateQueries({ queryKey: TABLES_KEY });
      client.setQueryData(['console-comparison-table', data.id], data);
      if (!table) {
        await navigate(paths.adminComparison(data.id));
        return;
      }
      setVersion(data.version);
      setFields(fieldsOf(data));
      setNotice(t('console.products.comparison.saved', { version: data.version }));
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: () => deleteComparisonTable(table!.id, version),
    onSuccess: async () => {
      setConfirmDelete(false);
      await client.invalidateQueries({ queryKey: TABLES_KEY });
      await navigate(paths.adminApis, {
        state: { notice: t('console.products.comparison.deleted', { title: table!.title }) },
      });
    },
    onError: (err) => {
      setConfirmDelete(false);
      onError(err);
    },
  });

  const all = products.data ?? [];
  const optionOf = (p: ConsoleProductListItem) => ({
    value: p.id,
    label: `${p.title}${p.productVersion ? ` ${p.productVersion}` : ''} (/${p.alias})`,
  });
  const setColumns = (columns: ComparisonColumnFields[], rows: ComparisonRowFields[]) =>
    setFields((f) => ({ ...f, columns, rows }));
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
    setFields((f) => ({ ...f, columns: f.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)) }));
  const updateRow = (i: number, patch: Partial<ComparisonRowFields>) =>
    setFields((f) => ({ ...f, rows: f.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) }));
  const setType = (i: number, type: ComparisonRowKind) =>
    updateRow(i, {
      type,
      values: type === 'comparison_category' ? [] : fields.columns.map(() => blankValue(type)),
    });
  const moveRow = (i: number, to: number) =>
    setFields((f) => {
      const rows = [...f.rows];
      [rows[i], rows[to]] = [rows[to]!, rows[i]!];
      return { ...f, rows };
    });
  const addRow = () =>
    setFields((f) => ({
      ...f,
      rows: [...f.rows, { type: 'comparison_text_row', title: '', values: f.columns.map(() => '') }],
    }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };

  return (
    <Group align="flex-start" gap="xl" wrap="wrap">
      <Box
        component="form"
        onSubmit={submit}
        style={{ flex: '1 1 520px' }}
        aria-label={t('console.products.comparison.formLabel')}
        data-testid="comparison-form"
      >
        <Stack>
          {table ? (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {table.key}
              </Text>
              <Text size="sm" c="dimmed" data-testid="comparison-version">
                {t('console.products.comparison.version', { version })}
              </Text>
            </Group>
          ) : (
            <TextInput
              label={t('console.products.comparison.keyLabel')}
              description={t('console.products.comparison.keyHelp')}
              required
              value={key}
              onChange={(e) => setKey(e.currentTarget.value.toLowerCase())}
            />
          )}
          {conflict && (
            <Alert color="orange" role="alert" title={t('console.products.comparison.conflictTitle')}>
              <Text size="sm" mb="xs">
                {t('console.products.comparison.conflictText', { version: conflict.current.version })}
              </Text>
              <Stack gap={4}>
                {conflict.changes.map((c) => (
                  <Text size="sm" key={c.field}>
                    <strong>{c.field}</strong>
                  </Text>
                ))}
              </Stack>
              <Group mt="sm">
                <Button size="xs" onClick={() => onReplaced(conflict.current)}>
                  {t('console.products.comparison.conflictLoad')}
                </Button>
                <Button size="xs" variant="default" onClick={() => save.mutate(conflict.current.version)}>
                  {t('console.products.comparison.conflictOverwrite')}
                </Button>
              </Group>
            </Alert>
          )}
          <TextInput
            label={t('console.products.comparison.titleLabel')}
            required
            value={fields.title}
            onChange={(e) => {
              const title = e.currentTarget.value;
              setFields((f) => ({ ...f, title }));
            }}
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
                        onClick={() => setFields((f) => ({ ...f, rows: f.rows.filter((_, j) => j !== i) }))}
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
            onChange={(v) => setFields((f) => ({ ...f, products: v }))}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {notice && (
            <Text role="status" c="green.9" data-testid="comparison-saved">
              {notice}
            </Text>
          )}
          <Group justify="space-between">
            <Button type="submit" loading={save.isPending}>
              {table ? t('console.products.comparison.save') : t('console.products.comparison.create')}
            </Button>
            {table && (
              <Button variant="outline" color="red" onClick={() => setConfirmDelete(true)}>
                {t('console.products.comparison.delete')}
              </Button>
            )}
          </Group>
        </Stack>
        <Modal
          opened={confirmDelete}
          onClose={() => setConfirmDelete(false)}
          title={t('console.products.comparison.delete')}
        >
          <Text size="sm" mb="md">
            {t('console.products.comparison.deleteConfirm', { title: table?.title ?? '' })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              {t('console.products.comparison.cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t('console.products.comparison.deleteConfirmButton')}
            </Button>
          </Group>
        </Modal>
      </Box>
      <TablePreview fields={fields} products={all} />
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
