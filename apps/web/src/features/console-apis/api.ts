import type { ApiDraft, ApiListItem, NoticeAudience, NoticeSent } from '@portico/contracts/api-drafts';
import { apiRequest, apiUrl } from '../../lib/api-client';
import { uploadWithProgress } from '../../lib/upload';
import { versionedApi } from '../console/versioned-api';
import { versionedSource } from '../console/versioned-editor';

export const listApis = async () =>
  (await apiRequest<{ data: ApiListItem[] }>('/admin-api/catalog/apis')).data;

const draftPath = (alias: string, id: string) =>
  `/admin-api/catalog/apis/${encodeURIComponent(alias)}/drafts/${encodeURIComponent(id)}`;

/**
 * Uploads a document as a draft of `alias` (the raw body, as the import: decision 033), with its
 * progress (`onProgress`: the share sent, 0 to 1). Refusals throw ApiError with the server's JSON:API body.
 */
export async function uploadDraft(
  alias: string,
  file: File,
  options: { product?: string },
  onProgress: (share: number) => void,
): Promise<ApiDraft> {
  const url = apiUrl(`/admin-api/catalog/apis/${encodeURIComponent(alias)}/drafts`, {
    filename: file.name,
    product: options.product || undefined,
  });
  return (await uploadWithProgress<{ data: ApiDraft }>(url, file, {}, onProgress)).data;
}

export const publishDraft = async (alias: string, id: string, changelog: string, version: string) =>
  (
    await apiRequest<{ data: ApiDraft }>(`${draftPath(alias, id)}/publish`, {
      method: 'POST',
      format: 'json',
      body: { changelog, version },
    })
  ).data;

/** Discards a draft never published (a published one: ApiError 409 with the server's reason). */
export const discardDraft = (alias: string, id: string) =>
  apiRequest<undefined>(draftPath(alias, id), { method: 'DELETE', format: 'json' });

export const fetchAudience = async (alias: string, id: string) =>
  (await apiRequest<{ data: NoticeAudience }>(`${draftPath(alias, id)}/audience`)).data;

export const sendNotice = async (alias: string, id: string, text: string) =>
  (
    await apiRequest<{ data: NoticeSent }>(`${draftPath(alias, id)}/notices`, {
      method: 'POST',
      format: 'json',
      body: { text },
    })
  ).data;

// The products' order and fields (catalog README 'Console: API products').
export type {
  ChangelogEntryFields,
  ProductPlan,
  ComparisonFieldChange,
  ComparisonTableFields,
  ConsoleComparisonTable,
  ConsoleComparisonTableListItem,
  ConsoleChangelogEntry,
  ConsoleProduct,
  ConsoleProductListItem,
  ProductCreate,
  ProductFieldChange,
  ProductFields,
} from '@portico/contracts/console-products';
import type {
  ChangelogEntryFields,
  ProductPlan,
  ComparisonTableFields,
  ConsoleComparisonTable,
  ConsoleComparisonTableListItem,
  ConsoleChangelogEntry,
  ConsoleProduct,
  ConsoleProductListItem,
  ProductCreate,
  ProductFields,
} from '@portico/contracts/console-products';

const PRODUCTS = '/admin-api/catalog/products';
const productPath = (id: string) => `${PRODUCTS}/${encodeURIComponent(id)}`;

export const listProducts = async () =>
  (await apiRequest<{ data: ConsoleProductListItem[] }>(PRODUCTS, { format: 'json' })).data;

export const listProductCategories = async () =>
  (
    await apiRequest<{ data: { id: string; name: string }[] }>('/admin-api/catalog/categories', {
      format: 'json',
    })
  ).data;

export const moveProduct = async (id: string, direction: 'up' | 'down', version: number) =>
  (
    await apiRequest<{ data: ConsoleProduct }>(`${productPath(id)}/move`, {
      method: 'POST',
      format: 'json',
      body: { direction, version },
    })
  ).data;

/** What a product's form sends: its fields, and a new product's alias and version label. */
export type ProductSend = ProductFields & Partial<Pick<ProductCreate, 'alias' | 'productVersion'>>;

/**
 * A product through the console's versioned editing (versioned-editor.tsx): one product, create,
 * save with its version, delete (a subscribed one: a 409 whose message says to retire it), and
 * the revisions with their comparison and restore.
 */
export const productSource = versionedSource(
  versionedApi<ConsoleProduct, ProductSend, ConsoleProductListItem>(PRODUCTS),
  { key: 'console-product', lists: ['console-products'], revisions: 'console-product-revisions' },
);

// A product's changelog (catalog README 'Console: API products').
const changelogPath = (productId: string, entryId?: string) =>
  `${productPath(productId)}/changelog${entryId ? `/${encodeURIComponent(entryId)}` : ''}`;

export const listChangelog = async (productId: string) =>
  (await apiRequest<{ data: ConsoleChangelogEntry[] }>(changelogPath(productId), { format: 'json' })).data;

export const addChangelogEntry = async (productId: string, fields: ChangelogEntryFields) =>
  (
    await apiRequest<{ data: ConsoleChangelogEntry }>(changelogPath(productId), {
      method: 'POST',
      format: 'json',
      body: fields,
    })
  ).data;

/**
 * A product's changelog entries as versioned items (versioned-api.ts): one entry, its save with
 * the version edited, its delete, and the revisions with their comparison and restore.
 */
export const changelogSource = (productId: string) =>
  versionedSource(
    versionedApi<ConsoleChangelogEntry, ChangelogEntryFields, ConsoleChangelogEntry>(
      changelogPath(productId),
    ),
    {
      key: 'console-changelog-entry',
      lists: ['console-changelog'],
      revisions: 'console-changelog-revisions',
    },
  );

export const deleteChangelogEntry = async (productId: string, entryId: string, version: number) => {
  await apiRequest<unknown>(changelogPath(productId, entryId), {
    method: 'DELETE',
    format: 'json',
    headers: { 'If-Match': `"${version}"` },
  });
};

// Comparison tables (catalog README 'Console: API products').
const TABLES = '/admin-api/catalog/comparison-tables';

export const listComparisonTables = async () =>
  (await apiRequest<{ data: ConsoleComparisonTableListItem[] }>(TABLES, { format: 'json' })).data;

/** What a table's form sends: its fields, and a new table's key. */
export type ComparisonSend = ComparisonTableFields & { key?: string };

/** A comparison table through the console's versioned editing, as a product. */
export const comparisonSource = versionedSource(
  versionedApi<ConsoleComparisonTable, ComparisonSend, ConsoleComparisonTableListItem>(TABLES),
  {
    key: 'console-comparison-table',
    lists: ['console-comparison-tables'],
    revisions: 'console-comparison-revisions',
  },
);

// The plans of a product's API documentations (catalog README 'Console: API products').
/** A product's plans with their version (every save names the one it started from). */
export interface ProductPlans {
  plans: ProductPlan[];
  version: number;
}

const plansOf = ({ data, meta }: { data: ProductPlan[]; meta: { version: number } }): ProductPlans => ({
  plans: data,
  version: meta.version,
});

export const listPlans = async (productId: string) =>
  plansOf(
    await apiRequest<{ data: ProductPlan[]; meta: { version: number } }>(`${productPath(productId)}/plans`, {
      format: 'json',
    }),
  );

/** Saves the plans edited from `version` (a stale one: ApiError 409, whose message says to load them again). */
export const savePlans = async (
  productId: string,
  plans: { documentation: string; plan: string | null }[],
  version: number,
) =>
  plansOf(
    await apiRequest<{ data: ProductPlan[]; meta: { version: number } }>(`${productPath(productId)}/plans`, {
      method: 'PUT',
      format: 'json',
      body: { plans, version },
    }),
  );
