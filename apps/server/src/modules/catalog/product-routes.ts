import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  collectionDocument,
  requestUrl,
  resourceDocument,
  sendDocument,
  type ResourceObject,
} from '../../jsonapi/document.ts';
import type { FilterGroup } from '../../jsonapi/filter.ts';
import { fetchCollection } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery, type JsonApiQuery } from '../../jsonapi/query.ts';
import { checkFields, checkIncludes, values, type ResourceDescription } from '../../jsonapi/resource.ts';
import { HttpError } from '../../lib/errors.ts';
import { texts } from '../../lib/i18n.ts';
import { readerLocale, translated, translationsOf } from '../../lib/translations.ts';
import type { Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import { comparisonTablesIn, comparisonView } from './comparison-translations.ts';
import { documentationTitles } from './documentation-translations.ts';
import { productTranslation } from './translatable.ts';
import {
  findProduct,
  loadComparisonTable,
  loadDocumentationRelations,
  loadProductRelations,
  newVersionOf,
  resolveProductAlias,
  type ComparisonColumn,
  type ComparisonTableRow,
  type ProductRelations,
  type ProductRow,
} from './repo.ts';
import {
  advantageResource,
  categoryResource,
  changeLogResource,
  comparisonRowResource,
  comparisonTableResource,
  documentationResource,
  featureResource,
  productImages,
  productResource,
} from './resources.ts';
import { catalogDb, type CatalogTables } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

const M = en.catalog;
export const PAGE = { defaultLimit: 50, maxLimit: 50 } as const;

const FILE_FIELDS = ['filename', 'uri', 'url', 'filemime'];
const PRODUCT_FIELDS = [
  'drupal_internal__nid',
  'title',
  'body',
  'path',
  'field_version',
  'field_label',
  'field_deprecated',
  'field_commercial_product',
  'field_disable_documentation',
  'field_weight',
  'field_overview_display',
  'field_scope',
  'field_scope_production',
  'field_psd2_certificate_required',
  'field_advantages_header',
  'created',
  'changed',
  'field_image',
  'field_header_image',
  'field_category',
  'field_endpoints',
  'field_documentation',
  'field_features',
  'field_advantages',
  'field_related_products',
  'field_comparison_table',
];
const CATEGORY_FIELDS = ['drupal_internal__tid', 'name', 'weight'];
const DOCUMENTATION_FIELDS = [
  'drupal_internal__nid',
  'title',
  'path',
  'alias',
  'field_api_id',
  'field_version',
  'field_deprecated',
  'field_plan',
  'field_tour',
  'field_bot_enabled',
  'field_bot_url',
  'field_source_format',
  'field_source_spec_version',
  'operation_count',
  'content_hash',
  'url',
  'docUrl',
  'sandbox_url',
  'created',
  'changed',
  'field_products',
  'field_change_log',
];
export const SPARSE_FIELDS = {
  'node--api_product': PRODUCT_FIELDS,
  'file--file': FILE_FIELDS,
  'taxonomy_term--product_categories': CATEGORY_FIELDS,
  'node--api_documentation': DOCUMENTATION_FIELDS,
  'paragraph--feature': ['title', 'field_description', 'field_icon', 'weight'],
  'paragraph--advantage': ['title', 'field_description', 'weight'],
  'node--comparison_table': [
    'drupal_internal__nid',
    'title',
    'field_product_names',
    'field_product_ids',
    'created',
    'changed',
    'field_rows',
    'field_products',
  ],
  'paragraph--comparison_category': ['title', 'weight'],
  'paragraph--comparison_text_row': ['title', 'field_values', 'weight'],
  'paragraph--comparison_boolean_row': ['title', 'field_values', 'weight'],
  'node--change_log': [
    'drupal_internal__nid',
    'field_version',
    'field_release_date',
    'field_notes',
    'created',
    'field_product',
  ],
} as const;

const DETAIL_INCLUDES = [
  'field_image',
  'field_header_image',
  'field_category',
  'field_endpoints',
  'field_documentation',
  'field_features',
  'field_advantages',
  'field_related_products',
  'field_related_products.field_image',
  'field_comparison_table',
  'field_comparison_table.field_rows',
];

function productListQuery(app: FastifyInstance) {
  return catalogDb(app.db)
    .selectFrom('api_products as p')
    .leftJoin('product_categories as c', 'c.id', 'p.category_id')
    .selectAll('p');
}

type ListDb = CatalogTables & { p: CatalogTables['api_products']; c: CatalogTables['product_categories'] };

export const productCollection: ResourceDescription<ListDb, 'p' | 'c'> = {
  type: 'node--api_product',
  fields: {
    id: { sql: 'p.uuid', value: values.uuid, sort: false },
    title: { sql: 'p.title', value: values.text },
    'path.alias': { sql: { expression: () => sql`'/' || p.alias` }, value: values.text, sort: false },
    field_deprecated: { sql: 'p.deprecated', value: values.boolean, sort: false },
    field_commercial_product: { sql: 'p.commercial', value: values.boolean, sort: false },
    field_label: { sql: 'p.label', value: values.text },
    field_weight: { sql: 'p.weight', value: values.integer },
    'field_category.id': { sql: 'c.uuid', value: values.uuid, sort: false },
    'field_category.name': { sql: 'c.name', value: values.text },
    created: { sql: 'p.created', value: values.timestamp },
    changed: { sql: 'p.changed', value: values.timestamp },
  },
  tiebreaker: 'p.id',
  defaultSort: [
    { path: 'field_weight', direction: 'ASC' },
    { path: 'title', direction: 'ASC' },
  ],
  includes: ['field_image', 'field_header_image', 'field_category'],
  sparseFields: SPARSE_FIELDS,
};

function mentions(group: FilterGroup, path: string): boolean {
  return group.children.some((c) => (c.kind === 'group' ? mentions(c, path) : c.path === path));
}

/** Included resources of products for the requested include paths. */
async function productIncludes(
  app: FastifyInstance,
  base: string,
  products: ProductRow[],
  rel: ProductRelations,
  include: readonly string[],
  langcode: Locale,
): Promise<ResourceObject[]> {
  const wanted = new Set(include);
  const out: ResourceObject[] = [];
  // The comparison tables, each loaded once, in the reader's language (one translations query).
  const comparisons =
    wanted.has('field_comparison_table') || wanted.has('field_comparison_table.field_rows')
      ? await comparisonsIn(app.db, products, rel, langcode)
      : new Map<number, ComparisonResources>();
  for (const p of products) {
    if (wanted.has('field_image')) out.push(...productImages(base, p, 'field_image'));
    if (wanted.has('field_header_image')) out.push(...productImages(base, p, 'field_header_image'));
    if (wanted.has('field_category') && p.category_id !== null) {
      const c = rel.categories.get(p.category_id);
      if (c) out.push(categoryResource(base, c));
    }
    const docs = rel.documentations.get(p.id) ?? [];
    if (wanted.has('field_endpoints') || wanted.has('field_documentation')) {
      const list = wanted.has('field_endpoints') ? docs : docs.slice(0, 1);
      const docRel = await loadDocumentationRelations(app.db, list);
      // Their titles in the reader's language (decision 063), as the documentations' own reads.
      const titles = await documentationTitles(
        app.db,
        list.map((d) => d.uuid),
        langcode,
      );
      for (const d of list) {
        const title = titles.get(d.uuid);
        out.push(
          documentationResource(base, title ? { ...d, title } : d, {
            products: docRel.products.get(d.id) ?? [],
            changeLog: docRel.changeLog.get(d.id) ?? [],
          }),
        );
      }
    }
    if (wanted.has('field_features')) out.push(...(rel.features.get(p.id) ?? []).map(featureResource));
    if (wanted.has('field_advantages')) out.push(...(rel.advantages.get(p.id) ?? []).map(advantageResource));
    if (wanted.has('field_related_products') || wanted.has('field_related_products.field_image')) {
      const related = rel.related.get(p.id) ?? [];
      if (related.length) {
        const relatedRel = await loadProductRelations(app.db, related);
        const shown = await productsIn(app.db, base, related, relatedRel, langcode);
        related.forEach((r, i) => {
          out.push(shown[i]!);
          if (wanted.has('field_related_products.field_image'))
            out.push(...productImages(base, r, 'field_image'));
        });
      }
    }
    const comparison = p.comparison_table_id === null ? undefined : comparisons.get(p.comparison_table_id);
    if (comparison) {
      out.push(comparison.table(base));
      if (wanted.has('field_comparison_table.field_rows')) out.push(...comparison.rows);
    }
  }
  return out;
}

/**
 * Products in the reader's language (decision 063): a translation's title and description where
 * one exists, else the default language's, marked as a fallback (`meta.translation`).
 */
function productsIn(
  db: Db,
  base: string,
  rows: readonly ProductRow[],
  rel: ProductRelations,
  langcode: Locale,
): Promise<ResourceObject[]> {
  return translated(
    db,
    'api_product',
    rows,
    (p) => p.uuid,
    langcode,
    (p, t) => ({ ...p, ...productTranslation(t) }),
    (p, translation) => {
      const resource = productResource(base, p, rel);
      return { ...resource, meta: { ...resource.meta, translation } };
    },
  );
}

/** A comparison table's resource and its rows' resources, in the reader's language. */
interface ComparisonResources {
  table(base: string): ResourceObject;
  rows: ResourceObject[];
  /** The products of its columns, as stored (for `include=field_products`). */
  products: ProductRow[];
}

/**
 * Comparison tables in `langcode` (decision 064): their texts from the overlaid view of each, the
 * table's resource marked (`meta.translation`) when the language is not the default. In the
 * default language the resources are those of the table as stored.
 */
async function comparisonResources(
  db: Db,
  tables: readonly ComparisonTableRow[],
  langcode: Locale,
): Promise<Map<number, ComparisonResources>> {
  const loaded = await Promise.all(
    tables.map(async (t) => {
      const { columns, rows } = await loadComparisonTable(db, t.id);
      return { t, columns, rows, view: comparisonView(t.title, columns, rows) };
    }),
  );
  const [shown, products] = await Promise.all([
    comparisonTablesIn(
      db,
      loaded.map(({ t, view }) => ({ uuid: t.uuid, view })),
      langcode,
    ),
    // A product's column shows the product's title in the reader's language (decision 064).
    translationsOf(db).forItems(
      'api_product',
      loaded.flatMap(({ columns }) => columns.flatMap((c) => (c.product ? [c.product.uuid] : []))),
      langcode,
    ),
  ]);
  const productIn = (col: ComparisonColumn): ComparisonColumn => {
    const fields = col.product && products.get(col.product.uuid);
    const text = fields && productTranslation(fields);
    return text && col.product ? { ...col, product: { ...col.product, title: text.title } } : col;
  };
  const deprecatedApi = texts(langcode, 'pages', 'products')('deprecatedApi');
  return new Map(
    loaded.map(({ t, columns, rows }) => {
      const { view, translation } = shown.get(t.uuid)!;
      // Untranslated (the default language, or a fallback): the table as stored.
      const overlaid = translation !== undefined && !translation.fallback;
      const table = overlaid ? { ...t, title: view.title } : t;
      const cols = (
        overlaid
          ? columns.map((col, i) => {
              const title = view.columns[i]?.title;
              return title === undefined ? col : { ...col, title };
            })
          : columns
      ).map(productIn);
      const shownRows = overlaid
        ? rows.map((r, i) => {
            const v = view.rows[i];
            return v ? { ...r, title: v.title, ...(v.values ? { values: v.values } : {}) } : r;
          })
        : rows;
      return [
        t.id,
        {
          table: (base: string) => {
            const resource = comparisonTableResource(base, table, cols, shownRows, deprecatedApi);
            return translation ? { ...resource, meta: { ...resource.meta, translation } } : resource;
          },
          rows: shownRows.map(comparisonRowResource),
          products: columns.flatMap((c) => (c.product ? [c.product] : [])),
        },
      ];
    }),
  );
}

/** The comparison tables the products show, by id. */
function comparisonsIn(db: Db, products: readonly ProductRow[], rel: ProductRelations, langcode: Locale) {
  const ids = [
    ...new Set(products.flatMap((p) => (p.comparison_table_id === null ? [] : [p.comparison_table_id]))),
  ];
  const tables = ids.flatMap((id) => {
    const t = rel.comparisonTables.get(id);
    return t ? [t] : [];
  });
  return comparisonResources(db, tables, langcode);
}

export function originOf(request: FastifyRequest): string {
  return requestUrl(request).origin;
}

/** A query for a single resource: only include and fields apply. */
function singleQuery(request: FastifyRequest, type: string, includes: readonly string[]): JsonApiQuery {
  const query = parseJsonApiQuery(request.query, { ...PAGE, unknownParameters: 'ignore' });
  checkIncludes({ type, includes }, query.include);
  checkFields({ sparseFields: SPARSE_FIELDS }, query.fields);
  return query;
}

export async function productRoutes(app: FastifyInstance): Promise<void> {
  const db = catalogDb(app.db);

  app.get('/jsonapi/node/api_product', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, { ...PAGE, extraParameters: ['langcode'] });
    const langcode = readerLocale(query.extra.langcode);
    // Retired products (the console) are out of the catalog.
    let qb = productListQuery(app).where('p.retired', '=', false);
    // Lists leave deprecated versions out unless the caller filters on them (spec B 2.10).
    if (!mentions(query.filter, 'field_deprecated')) qb = qb.where('p.deprecated', '=', false);
    const { rows, count } = await fetchCollection(app.db, qb, productCollection, query);
    const base = originOf(request);
    const rel = await loadProductRelations(app.db, rows);
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: await productsIn(app.db, base, rows, rel, langcode),
        count,
        page: query.page,
        included: query.include.length
          ? await productIncludes(app, base, rows, rel, query.include, langcode)
          : undefined,
        fields: query.fields,
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/jsonapi/node/api_product/:id', async (request, reply) => {
    const query = singleQuery(request, 'node--api_product', DETAIL_INCLUDES);
    const langcode = readerLocale((request.query as Record<string, unknown>).langcode);
    const product = await findProduct(app.db, request.params.id);
    if (!product || product.retired) throw new HttpError(404, M.productNotFound);
    const base = originOf(request);
    const rel = await loadProductRelations(app.db, [product]);
    return sendDocument(
      reply,
      resourceDocument({
        url: requestUrl(request),
        data: (await productsIn(app.db, base, [product], rel, langcode))[0]!,
        included: query.include.length
          ? await productIncludes(app, base, [product], rel, query.include, langcode)
          : undefined,
        fields: query.fields,
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/jsonapi/node/comparison_table/:id', async (request, reply) => {
    const query = singleQuery(request, 'node--comparison_table', ['field_rows', 'field_products']);
    const langcode = readerLocale((request.query as Record<string, unknown>).langcode);
    if (!UUID.test(request.params.id)) throw new HttpError(404, M.comparisonTableNotFound);
    const table = await db
      .selectFrom('comparison_tables')
      .selectAll()
      .where('uuid', '=', request.params.id.toLowerCase())
      .executeTakeFirst();
    if (!table) throw new HttpError(404, M.comparisonTableNotFound);
    const base = originOf(request);
    const comparison = (await comparisonResources(app.db, [table], langcode)).get(table.id)!;
    const included: ResourceObject[] = [];
    if (query.include.includes('field_rows')) included.push(...comparison.rows);
    if (query.include.includes('field_products')) {
      const rel = await loadProductRelations(app.db, comparison.products);
      included.push(...(await productsIn(app.db, base, comparison.products, rel, langcode)));
    }
    return sendDocument(
      reply,
      resourceDocument({
        url: requestUrl(request),
        data: comparison.table(base),
        included: query.include.length ? included : undefined,
        fields: query.fields,
      }),
    );
  });

  type LogDb = CatalogTables & {
    e: CatalogTables['change_log_entries'];
    p: CatalogTables['api_products'];
  };
  const changeLogCollection: ResourceDescription<LogDb, 'e' | 'p'> = {
    type: 'node--change_log',
    fields: {
      'field_product.id': { sql: 'p.uuid', value: values.uuid, sort: false },
      'field_product.path.alias': {
        sql: { expression: () => sql`'/' || p.alias` },
        value: values.text,
        sort: false,
      },
      field_version: { sql: 'e.version', value: values.text },
      field_release_date: { sql: 'e.release_date', value: values.timestamp },
      created: { sql: 'e.created', value: values.timestamp },
    },
    tiebreaker: 'e.id',
    defaultSort: [{ path: 'field_release_date', direction: 'DESC' }],
    includes: ['field_product'],
    sparseFields: SPARSE_FIELDS,
  };
  app.get('/jsonapi/node/change_log', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, PAGE);
    const qb = db
      .selectFrom('change_log_entries as e')
      .innerJoin('api_products as p', 'p.id', 'e.product_id')
      .selectAll('e')
      .select('p.uuid as product_uuid');
    const { rows, count } = await fetchCollection(app.db, qb, changeLogCollection, query);
    const base = originOf(request);
    let included: ResourceObject[] | undefined;
    if (query.include.includes('field_product')) {
      const products = await db
        .selectFrom('api_products')
        .selectAll()
        .where('id', 'in', [...new Set(rows.map((r) => r.product_id)), -1])
        .execute();
      const rel = await loadProductRelations(app.db, products);
      included = products.map((p) => productResource(base, p, rel));
    }
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((r) => changeLogResource(base, r, r.product_uuid)),
        count,
        page: query.page,
        included,
        fields: query.fields,
      }),
    );
  });

  type CategoryDb = CatalogTables & { t: CatalogTables['product_categories'] };
  const categoryCollection: ResourceDescription<CategoryDb, 't'> = {
    type: 'taxonomy_term--product_categories',
    fields: {
      id: { sql: 't.uuid', value: values.uuid, sort: false },
      name: { sql: 't.name', value: values.text },
      weight: { sql: 't.weight', value: values.integer },
    },
    tiebreaker: 't.id',
    defaultSort: [
      { path: 'weight', direction: 'ASC' },
      { path: 'name', direction: 'ASC' },
    ],
    sparseFields: SPARSE_FIELDS,
  };
  app.get('/jsonapi/taxonomy_term/product_categories', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, PAGE);
    const { rows, count } = await fetchCollection(
      app.db,
      db.selectFrom('product_categories as t').selectAll('t'),
      categoryCollection,
      query,
    );
    const base = originOf(request);
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((c) => categoryResource(base, c)),
        count,
        page: query.page,
        fields: query.fields,
      }),
    );
  });

  app.get<{ Params: { id: string } }>(
    '/jsonapi/taxonomy_term/product_categories/:id',
    async (request, reply) => {
      const query = singleQuery(request, 'taxonomy_term--product_categories', []);
      if (!UUID.test(request.params.id)) throw new HttpError(404, en.api.categoryNotFound);
      const row = await db
        .selectFrom('product_categories')
        .selectAll()
        .where('uuid', '=', request.params.id.toLowerCase())
        .executeTakeFirst();
      if (!row) throw new HttpError(404, en.api.categoryNotFound);
      return sendDocument(
        reply,
        resourceDocument({
          url: requestUrl(request),
          data: categoryResource(originOf(request), row),
          fields: query.fields,
        }),
      );
    },
  );

  app.get<{ Querystring: { pathAlias?: string } }>('/phpsdk/products/getProductUuid', async (request) => {
    const alias = typeof request.query.pathAlias === 'string' ? request.query.pathAlias : '';
    if (!alias.trim()) throw new HttpError(400, 'pathAlias is required', { parameter: 'pathAlias' });
    const product = await resolveProductAlias(app.db, alias);
    if (!product) throw new HttpError(404, M.productNotFound);
    return { data: { uuid: product.uuid } };
  });

  app.get<{ Params: { id: string } }>('/api/products/:id/newest-version', async (request) => {
    const product = await findProduct(app.db, request.params.id);
    if (!product || product.retired) throw new HttpError(404, M.productNotFound);
    const newest = await newVersionOf(app.db, product);
    if (!newest) throw new HttpError(404, M.noNewerVersion);
    return {
      data: { uuid: newest.uuid, title: newest.title, alias: `/${newest.alias}`, version: newest.version },
    };
  });
}
