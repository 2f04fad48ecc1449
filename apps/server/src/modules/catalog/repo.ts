import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import { UUID } from '../../lib/ids.ts';
import { aliasFamily, hasVersionSuffix, newestVersion, normalizeAlias, sameFamily } from './versions.ts';
import {
  catalogDb,
  type ApiDocumentationsTable,
  type ApiProductsTable,
  type ChangeLogEntriesTable,
  type ComparisonRowsTable,
  type ComparisonTablesTable,
  type ProductAdvantagesTable,
  type ProductCategoriesTable,
  type ProductFeaturesTable,
} from './tables.ts';

export type ProductRow = Selectable<ApiProductsTable>;
export type CategoryRow = Selectable<ProductCategoriesTable>;
export type FeatureRow = Selectable<ProductFeaturesTable>;
export type AdvantageRow = Selectable<ProductAdvantagesTable>;
export type ChangeLogRow = Selectable<ChangeLogEntriesTable>;
export type ComparisonTableRow = Selectable<ComparisonTablesTable>;
export type ComparisonRowRow = Selectable<ComparisonRowsTable>;
/** A documentation without its (large) source and converted document. */
export type DocumentationRow = Omit<
  Selectable<ApiDocumentationsTable>,
  'source' | 'converted' | 'plan_edited_at'
> & {
  operation_count: number;
};

export const DOCUMENTATION_COLUMNS = [
  'd.id',
  'd.uuid',
  'd.alias',
  'd.title',
  'd.api_id',
  'd.version',
  'd.deprecated',
  'd.source_format',
  'd.source_filename',
  'd.source_spec_version',
  'd.content_hash',
  'd.tour',
  'd.bot_enabled',
  'd.bot_url',
  'd.plan',
  'd.created',
  'd.changed',
  'd.operation_count',
] as const;

export function documentationRow(
  row: Omit<DocumentationRow, 'operation_index' | 'operation_count'> & { operation_count: number | null },
): DocumentationRow {
  return { ...row, operation_index: null, operation_count: Number(row.operation_count ?? 0) };
}

/** What a product's relationships point at, loaded for a page of products at once. */
export interface ProductRelations {
  categories: Map<number, CategoryRow>;
  documentations: Map<number, DocumentationRow[]>;
  features: Map<number, FeatureRow[]>;
  advantages: Map<number, AdvantageRow[]>;
  related: Map<number, ProductRow[]>;
  comparisonTables: Map<number, ComparisonTableRow>;
}

function group<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

export async function loadProductRelations(
  db: Db,
  products: readonly ProductRow[],
): Promise<ProductRelations> {
  const c = catalogDb(db);
  const ids = products.map((p) => p.id);
  const categoryIds = [...new Set(products.flatMap((p) => (p.category_id === null ? [] : [p.category_id])))];
  const tableIds = [
    ...new Set(products.flatMap((p) => (p.comparison_table_id === null ? [] : [p.comparison_table_id]))),
  ];
  if (!ids.length) {
    return {
      categories: new Map(),
      documentations: new Map(),
      features: new Map(),
      advantages: new Map(),
      related: new Map(),
      comparisonTables: new Map(),
    };
  }
  const [small, docs, related, tables] = await Promise.all([
    smallRelations(db, ids, categoryIds),
    c
      .selectFrom('api_product_documentations as pd')
      .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
      .select([...DOCUMENTATION_COLUMNS, 'pd.product_id'])
      .where('pd.product_id', 'in', ids)
      .orderBy('pd.weight')
      .orderBy('d.title')
      .execute(),
    c
      .selectFrom('related_products as r')
      .innerJoin('api_products as p', 'p.id', 'r.related_product_id')
      .selectAll('p')
      .select('r.product_id as owner_id')
      .where('r.product_id', 'in', ids)
      .where('p.retired', '=', false)
      .orderBy('r.weight')
      .orderBy('p.title')
      .execute(),
    tableIds.length
      ? c.selectFrom('comparison_tables').selectAll().where('id', 'in', tableIds).execute()
      : Promise.resolve([]),
  ]);
  const { categories, features, advantages } = small;
  return {
    categories: new Map(categories.map((r) => [r.id, r])),
    documentations: new Map(
      [...group(docs, (d) => d.product_id)].map(([k, list]) => [k, list.map((d) => documentationRow(d))]),
    ),
    features: group(features, (f) => f.product_id),
    advantages: group(advantages, (a) => a.product_id),
    related: new Map(
      [...group(related, (r) => r.owner_id)].map(([k, list]) => [
        k,
        list.map(({ owner_id: _owner, ...p }) => p as ProductRow),
      ]),
    ),
    comparisonTables: new Map(tables.map((t) => [t.id, t])),
  };
}

interface SmallRelationRow {
  kind: 'feature' | 'advantage' | 'category';
  id: number;
  uuid: string;
  product_id: number | null;
  title: string;
  description: string;
  icon_url: string | null;
  weight: number;
}

/**
 * The products' features and advantages and their categories in one query (issue 11: every query
 * counts on the embedded database, which runs one at a time); each in its own order.
 */
async function smallRelations(
  db: Db,
  ids: readonly number[],
  categoryIds: readonly number[],
): Promise<{ categories: CategoryRow[]; features: FeatureRow[]; advantages: AdvantageRow[] }> {
  const inIds = sql.join(ids.map((id) => sql`${id}`));
  const categoryPart = categoryIds.length
    ? sql`union all
      select 'category' as kind, c.id, c.uuid, null::integer, c.name, '', null::text, c.weight
      from product_categories c where c.id in (${sql.join(categoryIds.map((id) => sql`${id}`))})`
    : sql``;
  const { rows } = await sql<SmallRelationRow>`
    select 'feature' as kind, f.id, f.uuid, f.product_id, f.title, f.description, f.icon_url, f.weight
    from product_features f where f.product_id in (${inIds})
    union all
    select 'advantage' as kind, a.id, a.uuid, a.product_id, a.title, a.description, null::text, a.weight
    from product_advantages a where a.product_id in (${inIds})
    ${categoryPart}
    order by kind, weight, id`.execute(db);
  const categories: CategoryRow[] = [];
  const features: FeatureRow[] = [];
  const advantages: AdvantageRow[] = [];
  for (const r of rows) {
    if (r.kind === 'category') categories.push({ id: r.id, uuid: r.uuid, name: r.title, weight: r.weight });
    else if (r.kind === 'feature')
      features.push({
        id: r.id,
        uuid: r.uuid,
        product_id: r.product_id!,
        title: r.title,
        description: r.description,
        icon_url: r.icon_url,
        weight: r.weight,
      });
    else
      advantages.push({
        id: r.id,
        uuid: r.uuid,
        product_id: r.product_id!,
        title: r.title,
        description: r.description,
        weight: r.weight,
      });
  }
  return { categories, features, advantages };
}

export async function findProduct(db: Db, idOrAlias: string): Promise<ProductRow | undefined> {
  const c = catalogDb(db).selectFrom('api_products').selectAll();
  return UUID.test(idOrAlias)
    ? c.where('uuid', '=', idOrAlias.toLowerCase()).executeTakeFirst()
    : c.where('alias', '=', normalizeAlias(idOrAlias)).executeTakeFirst();
}

/** Products whose alias may belong to the family of `alias` (a superset; filter with sameFamily). */
async function familyCandidates(
  db: Db,
  product: Pick<ProductRow, 'alias'> & { title?: string },
): Promise<ProductRow[]> {
  const family = aliasFamily(product.alias);
  const escaped = family.replace(/[\\%_]/g, (ch) => `\\${ch}`);
  const rows = await catalogDb(db)
    .selectFrom('api_products')
    .selectAll()
    .where('retired', '=', false)
    .where((eb) =>
      eb.or([
        eb('alias', '=', family),
        eb('alias', 'like', `${escaped}-%`),
        ...(product.title !== undefined ? [eb('title', '=', product.title)] : []),
      ]),
    )
    .execute();
  return rows.filter((r) => sameFamily({ alias: product.alias, title: product.title ?? '' }, r));
}

/** The newest non-deprecated, non-retired version of the product's family (possibly the product itself). */
export async function newestOfFamily(db: Db, product: ProductRow): Promise<ProductRow | undefined> {
  return newestVersion(await familyCandidates(db, product));
}

/**
 * Where a deprecated product's 'GO TO NEW VERSION' leads: the successor chosen in the console
 * while it is not retired, else the newest version of its family.
 */
export async function newVersionOf(db: Db, product: ProductRow): Promise<ProductRow | undefined> {
  if (product.successor_id !== null) {
    const successor = await catalogDb(db)
      .selectFrom('api_products')
      .selectAll()
      .where('id', '=', product.successor_id)
      .where('retired', '=', false)
      .executeTakeFirst();
    if (successor) return successor;
  }
  return newestOfFamily(db, product);
}

/**
 * The products a documentation belongs to, in the order its page lists them (weight, then title):
 * what the documentation page's first screen names (its breadcrumb), without the relations'
 * changelog and documentation views.
 */
export async function documentationProducts(
  db: Db,
  documentationId: number,
): Promise<{ uuid: string; title: string; alias: string }[]> {
  return catalogDb(db)
    .selectFrom('api_product_documentations as pd')
    .innerJoin('api_products as p', 'p.id', 'pd.product_id')
    .select(['p.uuid', 'p.title', 'p.alias'])
    .where('pd.documentation_id', '=', documentationId)
    .orderBy('p.weight')
    .orderBy('p.title')
    .execute();
}

/**
 * A path alias to a product: the exact alias, else (an alias without version suffix, as related
 * product links are written) the newest non-deprecated product of that family.
 */
export async function resolveProductAlias(db: Db, pathAlias: string): Promise<ProductRow | undefined> {
  const alias = normalizeAlias(pathAlias);
  if (!alias) return undefined;
  const exact = await findProduct(db, alias);
  if (exact) return exact.retired ? undefined : exact;
  if (hasVersionSuffix(alias)) return undefined;
  const candidates = await familyCandidates(db, { alias: `${alias}-v0` });
  return newestVersion(candidates);
}

export async function findDocumentation(db: Db, idOrAlias: string) {
  const q = catalogDb(db).selectFrom('api_documentations as d').select(DOCUMENTATION_COLUMNS);
  const row = UUID.test(idOrAlias)
    ? await q.where('d.uuid', '=', idOrAlias.toLowerCase()).executeTakeFirst()
    : await q.where('d.alias', '=', normalizeAlias(idOrAlias)).executeTakeFirst();
  return row ? documentationRow(row) : undefined;
}

export interface DocumentationRelations {
  products: Map<number, ProductRow[]>;
  changeLog: Map<number, (ChangeLogRow & { product_uuid: string })[]>;
}

export async function loadDocumentationRelations(
  db: Db,
  docs: readonly Pick<DocumentationRow, 'id'>[],
): Promise<DocumentationRelations> {
  const ids = docs.map((d) => d.id);
  if (!ids.length) return { products: new Map(), changeLog: new Map() };
  const c = catalogDb(db);
  const products = await c
    .selectFrom('api_product_documentations as pd')
    .innerJoin('api_products as p', 'p.id', 'pd.product_id')
    .selectAll('p')
    .select('pd.documentation_id')
    .where('pd.documentation_id', 'in', ids)
    .orderBy('p.weight')
    .orderBy('p.title')
    .execute();
  const productIds = [...new Set(products.map((p) => p.id))];
  // Each product's documentation view (its `field_documentation`): the first by weight, then title.
  const firstDocOf = new Map<number, number>();
  if (productIds.length) {
    const links = await c
      .selectFrom('api_product_documentations as pd')
      .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
      .select(['pd.product_id', 'pd.documentation_id'])
      .where('pd.product_id', 'in', productIds)
      .orderBy('pd.weight')
      .orderBy('d.title')
      .execute();
    for (const l of links)
      if (!firstDocOf.has(l.product_id)) firstDocOf.set(l.product_id, l.documentation_id);
  }
  const entries = productIds.length
    ? await c
        .selectFrom('change_log_entries as e')
        .innerJoin('api_products as p', 'p.id', 'e.product_id')
        .selectAll('e')
        .select('p.uuid as product_uuid')
        .where('e.product_id', 'in', productIds)
        .orderBy('e.release_date', (ob) => ob.desc().nullsLast())
        .orderBy('e.id', 'desc')
        .execute()
    : [];
  const byDoc = group(products, (p) => p.documentation_id);
  const changeLog = new Map<number, (ChangeLogRow & { product_uuid: string })[]>();
  for (const [docId, list] of byDoc) {
    changeLog.set(
      docId,
      entries.filter((e) => changelogOwners(docId, list, firstDocOf).has(e.product_id)),
    );
  }
  return {
    products: new Map(
      [...byDoc].map(([k, list]) => [k, list.map(({ documentation_id: _d, ...p }) => p as ProductRow)]),
    ),
    changeLog,
  };
}

/**
 * Whose changelog a documentation shows: the products whose documentation view it is (their first
 * documentation), else its only product. A documentation shared as a secondary API (the Get Token
 * API in every product) does not show the other products' entries: they are not about this API.
 */
function changelogOwners(
  docId: number,
  products: readonly { id: number }[],
  firstDocOf: ReadonlyMap<number, number>,
): Set<number> {
  const own = products.filter((p) => firstDocOf.get(p.id) === docId).map((p) => p.id);
  if (own.length) return new Set(own);
  return new Set(products.length === 1 ? [products[0]!.id] : []);
}

export interface ComparisonColumn {
  /** The column's custom title (used when the product is gone or deprecated). */
  title: string | null;
  product: ProductRow | null;
  /** The column names no product: its title is its own (translatable, comparison-translations.ts). */
  own: boolean;
}

export async function loadComparisonTable(db: Db, tableId: number) {
  const c = catalogDb(db);
  const [columns, rows] = await Promise.all([
    c
      .selectFrom('comparison_table_products as t')
      .leftJoin('api_products as p', 'p.id', 't.product_id')
      .select(['t.id as column_id', 't.title as column_title', 't.product_id'])
      .selectAll('p')
      .where('t.table_id', '=', tableId)
      .orderBy('t.weight')
      .orderBy('t.id')
      .execute(),
    c
      .selectFrom('comparison_rows')
      .selectAll()
      .where('table_id', '=', tableId)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
  ]);
  return {
    columns: columns.map((col): ComparisonColumn => ({
      title: col.column_title,
      own: col.product_id === null,
      product:
        col.product_id === null || col.uuid === null || col.retired ? null : (col as unknown as ProductRow),
    })),
    rows,
  };
}
