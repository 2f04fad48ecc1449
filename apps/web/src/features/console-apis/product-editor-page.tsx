import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Image,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { CARD_DESCRIPTION_MAX } from '@portico/contracts/constants';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { HtmlContent } from '../../components/ui/html-content';
import { paths } from '../../config/paths';
import { useTranslation, type Translate } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { TranslationsPanel } from '../console/translations-panel';
import { LoadVersioned, useVersionedEditor } from '../console/versioned-editor';
import { DeleteDialog, PreviewAndRevisions, useCatalogDelete, VersionLine } from './catalog-editing';
import { ChangelogEditor } from './changelog-editor';
import { PlansEditor } from './plans-editor';
import {
  listProductCategories,
  listProducts,
  productSource,
  type ConsoleProduct,
  type ConsoleProductListItem,
  type ProductFields,
} from './api';
import { PRODUCTS_KEY } from './product-list';

function fieldsOf(p: ConsoleProduct): ProductFields {
  return {
    title: p.title,
    label: p.label,
    description: p.description,
    weight: p.weight,
    category: p.category,
    commercial: p.commercial,
    deprecated: p.deprecated,
    successor: p.successor,
    retired: p.retired,
    features: p.features,
    advantages: p.advantages,
    related: p.related,
  };
}

/** A product's field as its form names it (the conflict and the revisions say which differ). */
export function productFieldLabel(t: Translate, field: keyof ProductFields): string {
  const E = 'console.products.editor';
  const key = (
    {
      title: 'titleLabel',
      label: 'labelLabel',
      description: 'descriptionLabel',
      weight: 'weightLabel',
      category: 'categoryLabel',
      commercial: 'commercialLabel',
      deprecated: 'deprecatedLabel',
      successor: 'successorLabel',
      retired: 'retiredLabel',
      features: 'features',
      advantages: 'advantages',
      related: 'related',
    } as const
  )[field];
  return t(`${E}.${key}`);
}

/** /admin/apis/products/:productId: one API product's fields, with a preview of its card and page. */
export default function ProductEditorPage() {
  const { t } = useTranslation();
  const { productId = '' } = useParams();
  // The same query as the form's (LoadVersioned): the page's title names the product.
  const { data: loaded } = useQuery({
    queryKey: [productSource.key, productId],
    queryFn: () => productSource.get(productId),
    retry: false,
  });
  const title = loaded
    ? t('console.products.editor.title', { title: loaded.data.title })
    : t('console.products.title');
  return (
    <ConsolePage roles="api_manager" title={title}>
      <Button component={Link} to={paths.adminApis} variant="subtle" mb="sm" px={0}>
        {t('console.products.editor.back')}
      </Button>
      <LoadVersioned id={productId} source={productSource} notFound={t('console.products.errors.notFound')}>
        {(product, onReplaced) => (
          <>
            <ProductForm product={product} onReplaced={onReplaced} />
            <ChangelogEditor productId={product.id} />
            <PlansEditor productId={product.id} />
            <TranslationsPanel
              item={`/admin-api/catalog/products/${product.id}`}
              fields={[
                { name: 'title', label: t('console.products.editor.titleLabel'), required: true },
                {
                  name: 'description',
                  label: t('console.products.editor.descriptionLabel'),
                  multiline: true,
                },
              ]}
            />
          </>
        )}
      </LoadVersioned>
    </ConsolePage>
  );
}

/** A product not saved yet: what the create form starts from. */
export const BLANK_PRODUCT: ConsoleProduct = {
  id: '',
  alias: '',
  productVersion: null,
  imageUrl: null,
  imageAlt: null,
  version: 0,
  changed: '',
  editedAt: null,
  title: '',
  label: null,
  description: '',
  weight: 0,
  category: null,
  commercial: false,
  deprecated: false,
  successor: null,
  retired: false,
  features: [],
  advantages: [],
  related: [],
};

/** The form's values: the fields, and a new product's alias and version label. */
type ProductValues = ProductFields & { alias: string; productVersion: string };

/**
 * A product's fields with the preview: the form of a saved product (`creating` false: its
 * conflict and revisions beside it), or of a new one (its alias and version label too; created,
 * it opens in its own form). Saving, the 409 and the revisions are the console's versioned editing.
 */
export function ProductForm({
  product,
  creating = false,
  onReplaced,
}: {
  product: ConsoleProduct;
  creating?: boolean;
  onReplaced(p: ConsoleProduct): void;
}) {
  const { t } = useTranslation();
  const editor = useVersionedEditor({
    source: productSource,
    item: creating ? undefined : product,
    empty: { ...fieldsOf(BLANK_PRODUCT), alias: '', productVersion: '' },
    fieldsOf: (p): ProductValues => ({
      ...fieldsOf(p),
      alias: p.alias,
      productVersion: p.productVersion ?? '',
    }),
    toSend: ({ alias, productVersion, ...fields }) =>
      creating ? { ...fields, alias, productVersion: productVersion.trim() || null } : fields,
    // What the server cleaned (the description's HTML) is what the form shows.
    afterSave: (_values, saved) => ({
      ...fieldsOf(saved),
      alias: saved.alias,
      productVersion: saved.productVersion ?? '',
    }),
    pathOf: paths.adminProduct,
    listPath: paths.adminApis,
    savedText: (version) => t('console.products.editor.saved', { version }),
    onReplaced,
  });
  const { fields, set } = editor;
  const categories = useQuery({ queryKey: ['console-product-categories'], queryFn: listProductCategories });
  const products = useQuery({ queryKey: PRODUCTS_KEY, queryFn: listProducts });
  const labelOf = (field: keyof ProductFields) => productFieldLabel(t, field);

  const others = useMemo(
    () => (products.data ?? []).filter((p) => p.id !== product.id),
    [products.data, product.id],
  );
  const optionOf = (p: ConsoleProductListItem) => ({
    value: p.id,
    label: `${p.title}${p.productVersion ? ` ${p.productVersion}` : ''} (/${p.alias})`,
  });

  const remove = useCatalogDelete({
    remove: () => productSource.remove(product.id, editor.version),
    lists: [PRODUCTS_KEY],
    deleted: t('console.products.editor.deleted', { title: product.title }),
  });
  const error = remove.error ?? editor.error;
  const successor = others.find((p) => p.id === fields.successor) ?? null;

  return (
    <Group align="flex-start" gap="xl" wrap="wrap">
      <Box
        component="form"
        onSubmit={(e) => {
          remove.clear();
          editor.submit(e);
        }}
        style={{ flex: '1 1 480px' }}
        aria-label={t('console.products.editor.formLabel')}
        data-testid="product-form"
      >
        <Stack>
          {creating ? (
            <Group grow align="flex-start">
              <TextInput
                label={t('console.products.editor.aliasLabel')}
                description={t('console.products.editor.aliasHelp')}
                required
                value={fields.alias}
                onChange={(e) => set('alias', e.currentTarget.value.toLowerCase())}
              />
              <TextInput
                label={t('console.products.editor.productVersionLabel')}
                description={t('console.products.editor.productVersionHelp')}
                value={fields.productVersion}
                onChange={(e) => set('productVersion', e.currentTarget.value)}
              />
            </Group>
          ) : (
            <VersionLine
              editor={editor}
              labelOf={labelOf}
              testId="product"
              messages="console.products.editor"
            >
              /{product.alias}
              {product.productVersion ? ` · ${product.productVersion}` : ''}
            </VersionLine>
          )}
          <TextInput
            label={t('console.products.editor.titleLabel')}
            required
            value={fields.title}
            onChange={(e) => set('title', e.currentTarget.value)}
          />
          <TextInput
            label={t('console.products.editor.labelLabel')}
            description={t('console.products.editor.labelHelp')}
            value={fields.label ?? ''}
            onChange={(e) => set('label', e.currentTarget.value || null)}
          />
          <Textarea
            label={t('console.products.editor.descriptionLabel')}
            description={t('console.products.editor.descriptionHelp')}
            autosize
            minRows={4}
            maxRows={14}
            value={fields.description}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <Group grow align="flex-start">
            <NumberInput
              label={t('console.products.editor.weightLabel')}
              description={t('console.products.editor.weightHelp')}
              allowDecimal={false}
              value={fields.weight}
              onChange={(v) => set('weight', typeof v === 'number' ? v : Number(v) || 0)}
            />
            <Select
              label={t('console.products.editor.categoryLabel')}
              placeholder={t('console.products.editor.noCategory')}
              clearable
              data={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
              value={fields.category}
              onChange={(v) => set('category', v)}
            />
          </Group>
          <Checkbox
            label={t('console.products.editor.commercialLabel')}
            checked={fields.commercial}
            onChange={(e) => set('commercial', e.currentTarget.checked)}
          />
          <Checkbox
            label={t('console.products.editor.deprecatedLabel')}
            checked={fields.deprecated}
            onChange={(e) => {
              const deprecated = e.currentTarget.checked;
              editor.update({ deprecated, successor: deprecated ? fields.successor : null });
            }}
          />
          {fields.deprecated && (
            <Select
              label={t('console.products.editor.successorLabel')}
              description={t('console.products.editor.successorHelp')}
              placeholder={t('console.products.editor.successorFamily')}
              clearable
              searchable
              data={others.filter((p) => !p.retired).map(optionOf)}
              value={fields.successor}
              onChange={(v) => set('successor', v)}
              data-testid="successor-select"
            />
          )}
          <Checkbox
            label={t('console.products.editor.retiredLabel')}
            checked={fields.retired}
            onChange={(e) => set('retired', e.currentTarget.checked)}
          />
          <ItemsEditor
            legend={t('console.products.editor.features')}
            itemName={t('console.products.editor.feature')}
            addLabel={t('console.products.editor.addFeature')}
            items={fields.features}
            onChange={(features) => set('features', features)}
            blank={{ title: '', description: '', icon: null }}
          />
          <ItemsEditor
            legend={t('console.products.editor.advantages')}
            itemName={t('console.products.editor.advantage')}
            addLabel={t('console.products.editor.addAdvantage')}
            items={fields.advantages}
            onChange={(advantages) => set('advantages', advantages)}
            blank={{ title: '', description: '' }}
          />
          <MultiSelect
            label={t('console.products.editor.related')}
            searchable
            data={others.map(optionOf)}
            value={fields.related}
            onChange={(v) => set('related', v)}
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {editor.notice && (
            <Alert color="green" role="status" data-testid="product-saved">
              {editor.notice}
            </Alert>
          )}
          <Group justify="space-between">
            <Button type="submit" loading={editor.saving}>
              {creating ? t('console.products.editor.create') : t('console.products.editor.save')}
            </Button>
            {!creating && (
              <Button variant="outline" color="red" onClick={remove.ask}>
                {t('console.products.editor.delete')}
              </Button>
            )}
          </Group>
        </Stack>
        <DeleteDialog
          remove={remove}
          texts={{
            title: t('console.products.editor.delete'),
            text: t('console.products.editor.deleteConfirm', { title: product.title }),
            cancel: t('console.products.editor.cancel'),
            confirm: t('console.products.editor.deleteConfirmButton'),
          }}
        />
      </Box>
      <PreviewAndRevisions editor={editor} labelOf={labelOf} testId="product">
        <ProductPreview
          product={creating ? { ...product, productVersion: fields.productVersion.trim() || null } : product}
          fields={fields}
          successor={successor}
        />
      </PreviewAndRevisions>
    </Group>
  );
}

/** Features or advantages: a title and an HTML description each, added and removed in place. */
function ItemsEditor<T extends { title: string; description: string }>({
  legend,
  itemName,
  addLabel,
  items,
  onChange,
  blank,
}: {
  legend: string;
  /** 'Feature' or 'Advantage': the start of each field's label. */
  itemName: string;
  addLabel: string;
  items: T[];
  onChange(items: T[]): void;
  blank: T;
}) {
  const { t } = useTranslation();
  const update = (i: number, patch: Partial<T>) =>
    onChange(items.map((item, j) => (j === i ? { ...item, ...patch } : item)));
  return (
    <Box component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={600} mb="xs">
        {legend}
      </Text>
      <Stack gap="sm">
        {items.map((item, i) => (
          <Paper withBorder p="sm" key={i}>
            <Stack gap="xs">
              <TextInput
                label={t('console.products.editor.itemTitle', { item: itemName, n: i + 1 })}
                required
                value={item.title}
                onChange={(e) => update(i, { title: e.currentTarget.value } as Partial<T>)}
              />
              <Textarea
                label={t('console.products.editor.itemDescription', { item: itemName, n: i + 1 })}
                autosize
                minRows={2}
                value={item.description}
                onChange={(e) => update(i, { description: e.currentTarget.value } as Partial<T>)}
              />
              <Group>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => onChange(items.filter((_, j) => j !== i))}
                >
                  {t('console.products.editor.removeItem', { title: item.title || String(i + 1) })}
                </Button>
              </Group>
            </Stack>
          </Paper>
        ))}
        <Group>
          <Button size="compact-sm" variant="default" onClick={() => onChange([...items, { ...blank }])}>
            {addLabel}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}

/** The description as the card shows it: its text, cut to the card's length. */
function cardText(html: string): string {
  const text = (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > CARD_DESCRIPTION_MAX ? `${text.slice(0, CARD_DESCRIPTION_MAX).trimEnd()}…` : text;
}

/** How the catalog will show the product: its card in the list and the top of its page. */
function ProductPreview({
  product,
  fields,
  successor,
}: {
  product: ConsoleProduct;
  fields: ProductFields;
  successor: ConsoleProductListItem | null;
}) {
  const { t } = useTranslation();
  return (
    <Paper
      withBorder
      p="md"
      style={{ flex: '0 1 420px' }}
      component="section"
      aria-labelledby="product-preview-title"
      data-testid="product-preview"
    >
      <Title order={2} size="h4" id="product-preview-title" mb="sm">
        {t('console.products.editor.preview')}
      </Title>
      <Text size="sm" fw={600} mb={4}>
        {t('console.products.editor.previewCard')}
      </Text>
      <Card withBorder padding="lg" component="article" maw={320}>
        {product.imageUrl && (
          <Card.Section>
            <Image
              src={product.imageUrl}
              alt={product.imageAlt ?? ''}
              h={120}
              fit="contain"
              bg="gray.0"
              p="sm"
            />
          </Card.Section>
        )}
        <Text fw={700} size="lg" mt="md">
          {fields.title}
        </Text>
        <Text size="sm" c="dimmed" mt="xs">
          {cardText(fields.description)}
        </Text>
        <Group gap="xs" mt="md">
          {fields.label && <Badge variant="light">{fields.label}</Badge>}
          {product.productVersion && (
            <Text size="xs" c="dimmed">
              {t('products.version', { version: product.productVersion })}
            </Text>
          )}
        </Group>
      </Card>
      <Text size="sm" fw={600} mt="md" mb={4}>
        {t('console.products.editor.previewPage')}
      </Text>
      <Paper withBorder p="sm">
        <Group gap="xs" mb="xs">
          <Text fw={700}>{fields.title}</Text>
          {fields.retired ? (
            <Badge color="gray" variant="light">
              {t('console.products.states.retired')}
            </Badge>
          ) : (
            fields.deprecated && (
              <Badge color="red" variant="light">
                {t('products.deprecatedTag')}
              </Badge>
            )
          )}
          {fields.commercial && (
            <Badge color="violet" variant="light">
              {t('console.products.states.commercial')}
            </Badge>
          )}
        </Group>
        {fields.deprecated && (
          <Alert color="red" variant="light" mb="xs" title={t('products.deprecatedTitle')}>
            <Text size="sm">
              {successor
                ? t('products.deprecatedNewer', {
                    title: successor.title,
                    version: successor.productVersion ?? '',
                  })
                : t('console.products.editor.successorFamily')}
            </Text>
            {successor && (
              <Text size="sm" fw={700} mt={4}>
                {t('products.goToNewVersion')} → /{successor.alias}
              </Text>
            )}
          </Alert>
        )}
        <HtmlContent html={fields.description} />
        {fields.features.length > 0 && (
          <>
            <Text fw={600} mt="sm">
              {t('console.products.editor.features')}
            </Text>
            {fields.features.map((f, i) => (
              <Box key={i} mt={4}>
                <Text size="sm" fw={600}>
                  {f.title}
                </Text>
                <HtmlContent html={f.description} fz="sm" />
              </Box>
            ))}
          </>
        )}
        {fields.advantages.length > 0 && (
          <>
            <Text fw={600} mt="sm">
              {t('console.products.editor.advantages')}
            </Text>
            {fields.advantages.map((a, i) => (
              <Box key={i} mt={4}>
                <Text size="sm" fw={600}>
                  {a.title}
                </Text>
                <HtmlContent html={a.description} fz="sm" />
              </Box>
            ))}
          </>
        )}
      </Paper>
    </Paper>
  );
}
