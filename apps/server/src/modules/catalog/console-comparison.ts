import {
  COMPARISON_COLUMNS_MAX,
  COMPARISON_KEY_MAX,
  COMPARISON_KEY_PATTERN,
  COMPARISON_ROW_TYPES,
  COMPARISON_ROWS_MAX,
  COMPARISON_TITLE_MAX,
  COMPARISON_VALUE_MAX,
  PRODUCT_ITEMS_MAX,
  type ComparisonTableFields,
  type ConsoleComparisonTable,
  type ConsoleComparisonTableListItem,
} from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import { parseBody } from '../../lib/validation.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { versioned, versionedRoutes } from '../../lib/versioned-content.ts';
import { actorOf } from '../audit/service.ts';
import { catalogAdapter, type CatalogRecord } from './console-versioned.ts';
import { catalogDb, type ComparisonRowType } from './tables.ts';
import { UUID } from '../../lib/ids.ts';
import { translationsOf } from '../../lib/translations.ts';
import {
  COMPARISON_TRANSLATION_TYPE,
  comparisonTranslationRoutes,
  comparisonView,
} from './comparison-translations.ts';

/**
 * Comparison tables edited in the provider console (issue 27, spec B 3 'comparison table', README.md
 * 'Console: API products'): API managers and administrators list, create, save and delete the
 * tables product pages show: the title, the columns (a product and/or a title of its own), the
 * rows (categories, texts, yes/no) with one value per column, and the products whose pages show
 * the table. Every save raises the table's version (a stale one is a 409 with what differs), is
 * audited in its transaction and stamps `edited_at`: the content import leaves the table, and which
 * products show it, alone from then on, and `export-content` writes it back.
 */

const M = en.console.products;
const E = M.errors;

const requireManager = (request: FastifyRequest) =>
  requireProviderRole(request, 'api_manager', M.managersOnly);

const FIELD_NAMES = [
  'title',
  'columns',
  'rows',
  'products',
] as const satisfies readonly (keyof ComparisonTableFields)[];

const uuid = (message: string) => z.string().regex(UUID, message);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .default(null)
    .transform((v) => v || null);

const fieldsSchema = z
  .object({
    title: z.string().trim().min(1).max(COMPARISON_TITLE_MAX),
    columns: z
      .array(
        z
          .object({
            product: uuid(E.columnProductUnknown).nullable().default(null),
            title: optionalText(COMPARISON_TITLE_MAX),
          })
          .strict(),
      )
      .min(1)
      .max(COMPARISON_COLUMNS_MAX),
    rows: z
      .array(
        z
          .object({
            type: z.enum(COMPARISON_ROW_TYPES),
            title: z.string().trim().min(1).max(COMPARISON_TITLE_MAX),
            values: z
              .array(z.string().trim().max(COMPARISON_VALUE_MAX))
              .max(COMPARISON_COLUMNS_MAX)
              .default([]),
          })
          .strict(),
      )
      .max(COMPARISON_ROWS_MAX)
      .default([]),
    products: z.array(uuid(E.tableProductUnknown)).max(PRODUCT_ITEMS_MAX).default([]),
  })
  .strict();
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();
const createSchema = fieldsSchema
  .extend({
    key: z
      .string()
      .trim()
      .toLowerCase()
      .max(COMPARISON_KEY_MAX)
      .regex(COMPARISON_KEY_PATTERN, E.comparisonKeyInvalid),
  })
  .strict();

type Fields = z.infer<typeof fieldsSchema>;
/** A table as the versioned-content component holds it: the console's table and its fields. */
type TableRecord = CatalogRecord<Fields, ConsoleComparisonTable>;

async function findTable(db: Db, id: string, lock = false): Promise<TableRecord | undefined> {
  if (!UUID.test(id)) return undefined;
  const c = catalogDb(db);
  let q = c.selectFrom('comparison_tables').selectAll().where('uuid', '=', id.toLowerCase());
  if (lock) q = q.forUpdate();
  const t = await q.executeTakeFirst();
  if (!t) return undefined;
  const [columns, rows, products] = await Promise.all([
    c
      .selectFrom('comparison_table_products as col')
      .leftJoin('api_products as p', 'p.id', 'col.product_id')
      .select(['p.uuid', 'col.title'])
      .where('col.table_id', '=', t.id)
      .orderBy('col.weight')
      .orderBy('col.id')
      .execute(),
    c
      .selectFrom('comparison_rows')
      .select(['type', 'title', 'values'])
      .where('table_id', '=', t.id)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('api_products')
      .select('uuid')
      .where('comparison_table_id', '=', t.id)
      .orderBy('weight')
      .orderBy('title')
      .execute(),
  ]);
  const table: ConsoleComparisonTable = {
    id: t.uuid,
    key: t.key,
    version: t.edit_version,
    editedAt: t.edited_at ? new Date(t.edited_at).toISOString() : null,
    changed: new Date(t.changed).toISOString(),
    title: t.title,
    columns: columns.map((col) => ({ product: col.uuid ?? null, title: col.title })),
    rows: rows.map((r) => ({
      type: r.type,
      title: r.title,
      values: typeof r.values === 'string' ? (JSON.parse(r.values) as string[]) : r.values,
    })),
    products: products.map((p) => p.uuid),
  };
  const fields = Object.fromEntries(FIELD_NAMES.map((f) => [f, table[f]])) as Fields;
  return { rowId: t.id, item: table, version: table.version, fields };
}

const auditValue = ({ item: t }: TableRecord) => ({
  key: t.key,
  title: t.title,
  columns: t.columns,
  rows: t.rows.map((r) => `${r.type}: ${r.title}`),
  products: t.products,
  version: t.version,
});

const invalid = (message: string, pointer: string) =>
  new HttpError(400, message, { code: 'invalid_input', pointer });

/** Checks the columns, rows and products; the product ids of the columns and of the pages. */
async function resolve(trx: Db, fields: Fields) {
  const c = catalogDb(trx);
  const named = [
    ...new Set([
      ...fields.columns.flatMap((col) => (col.product ? [col.product.toLowerCase()] : [])),
      ...fields.products.map((p) => p.toLowerCase()),
    ]),
  ];
  const found = named.length
    ? await c.selectFrom('api_products').select(['id', 'uuid']).where('uuid', 'in', named).execute()
    : [];
  const idOf = (u: string) => found.find((f) => f.uuid === u.toLowerCase())?.id;
  const seen = new Set<string>();
  const columnIds = fields.columns.map((col, i) => {
    if (!col.product) {
      if (!col.title) throw invalid(E.columnEmpty, `/columns/${i}`);
      return null;
    }
    const id = idOf(col.product);
    if (id === undefined) throw invalid(E.columnProductUnknown, `/columns/${i}/product`);
    if (seen.has(col.product.toLowerCase())) throw invalid(E.columnProductTwice, `/columns/${i}/product`);
    seen.add(col.product.toLowerCase());
    return id;
  });
  for (const [i, row] of fields.rows.entries()) {
    if (row.type === 'comparison_category') {
      if (row.values.some((v) => v !== '')) throw invalid(E.rowCategoryValues, `/rows/${i}/values`);
      continue;
    }
    if (row.values.length !== fields.columns.length)
      throw invalid(format(E.rowValuesCount, { count: fields.columns.length }), `/rows/${i}/values`);
    if (row.type === 'comparison_boolean_row') {
      const bad = row.values.findIndex((v) => v !== '1' && v !== '0');
      if (bad >= 0) throw invalid(E.rowBooleanValue, `/rows/${i}/values/${bad}`);
    }
  }
  if (new Set(fields.products.map((p) => p.toLowerCase())).size !== fields.products.length)
    throw invalid(E.relatedTwice, '/products');
  const productIds = fields.products.map((p, i) => {
    const id = idOf(p);
    if (id === undefined) throw invalid(E.tableProductUnknown, `/products/${i}`);
    return id;
  });
  return { columnIds, productIds };
}

/** Replaces the table's title, columns, rows and products (rows and columns in their order). */
async function writeTable(trx: Db, tableId: number, fields: Fields) {
  const { columnIds, productIds } = await resolve(trx, fields);
  const c = catalogDb(trx);
  const now = new Date();
  await c
    .updateTable('comparison_tables')
    .set((eb) => ({
      title: fields.title,
      edit_version: eb('edit_version', '+', 1),
      edited_at: now,
      changed: now,
    }))
    .where('id', '=', tableId)
    .execute();
  await c.deleteFrom('comparison_table_products').where('table_id', '=', tableId).execute();
  await c
    .insertInto('comparison_table_products')
    .values(
      fields.columns.map((col, i) => ({
        table_id: tableId,
        product_id: columnIds[i] ?? null,
        title: col.title,
        weight: i,
      })),
    )
    .execute();
  await c.deleteFrom('comparison_rows').where('table_id', '=', tableId).execute();
  if (fields.rows.length)
    await c
      .insertInto('comparison_rows')
      .values(
        fields.rows.map((r, i) => ({
          table_id: tableId,
          type: r.type as ComparisonRowType,
          title: r.title,
          values: JSON.stringify(r.type === 'comparison_category' ? [] : r.values),
          weight: i,
        })),
      )
      .execute();
  // The products whose pages show it: those named, and no other.
  const kept = [...productIds, -1];
  await c
    .updateTable('api_products')
    .set({ comparison_table_id: null, changed: now })
    .where('comparison_table_id', '=', tableId)
    .where('id', 'not in', kept)
    .execute();
  if (productIds.length)
    await c
      .updateTable('api_products')
      .set({ comparison_table_id: tableId, changed: now })
      .where('id', 'in', productIds)
      .execute();
}

/**
 * Comparison tables through the versioned-content component (docs/decisions/048-versioned-content.md):
 * the save with its version check, 409 and revision, the revisions with their diff and restore,
 * and the delete (the products that showed the table show none).
 */
const tables = versioned<Fields, TableRecord>({
  ...catalogAdapter<Fields, ConsoleComparisonTable>(
    'comparison_table',
    { notFound: E.comparisonNotFound, stale: E.comparisonStale, versionNeeded: E.comparisonVersionNeeded },
    FIELD_NAMES,
  ),
  find: findTable,
  store: (trx, fields, before) => writeTable(trx, before.rowId, fields),
  async remove(trx, before) {
    const c = catalogDb(trx);
    await c
      .updateTable('api_products')
      .set({ comparison_table_id: null, changed: new Date() })
      .where('comparison_table_id', '=', before.rowId)
      .execute();
    await c.deleteFrom('comparison_tables').where('id', '=', before.rowId).execute();
    // Its translations go with it (decision 064).
    await translationsOf(trx).removeItems(COMPARISON_TRANSLATION_TYPE, [before.item.id]);
  },
  // A product deleted since no longer shows the table.
  async restoreInput(db, fields) {
    const found = fields.products.length
      ? await catalogDb(db)
          .selectFrom('api_products')
          .select('uuid')
          .where('uuid', 'in', fields.products)
          .execute()
      : [];
    return { ...fields, products: fields.products.filter((p) => found.some((f) => f.uuid === p)) };
  },
  audit: {
    targetType: 'comparison_table',
    label: (t) => t.item.title,
    value: auditValue,
    created: 'comparison_table.created',
    updated: 'comparison_table.updated',
    restored: 'comparison_table.restored',
    deleted: 'comparison_table.deleted',
  },
});

const BASE = '/admin-api/catalog/comparison-tables';

/** The console's comparison table routes (README.md 'Console: API products'). */
export async function consoleComparisonRoutes(app: FastifyInstance): Promise<void> {
  app.get(BASE, async (request, reply) => {
    requireManager(request);
    const c = catalogDb(app.db);
    const tables = await c
      .selectFrom('comparison_tables')
      .selectAll()
      .orderBy('title')
      .orderBy('id')
      .execute();
    const [columns, rows, products] = await Promise.all([
      c.selectFrom('comparison_table_products').select(['table_id']).execute(),
      c.selectFrom('comparison_rows').select(['table_id']).execute(),
      c
        .selectFrom('api_products')
        .select(['uuid', 'title', 'comparison_table_id'])
        .where('comparison_table_id', 'is not', null)
        .orderBy('weight')
        .orderBy('title')
        .execute(),
    ]);
    reply.header('Cache-Control', 'no-store');
    return {
      data: tables.map((t): ConsoleComparisonTableListItem => ({
        id: t.uuid,
        key: t.key,
        title: t.title,
        columns: columns.filter((x) => x.table_id === t.id).length,
        rows: rows.filter((x) => x.table_id === t.id).length,
        products: products
          .filter((p) => p.comparison_table_id === t.id)
          .map((p) => ({ id: p.uuid, title: p.title })),
        version: t.edit_version,
      })),
    };
  });

  app.post(BASE, async (request, reply) => {
    requireManager(request);
    const { key, ...fields } = parseBody(createSchema, request.body);
    const table = await tables.create(app.db, actorOf(request), async (trx) => {
      const c = catalogDb(trx);
      const taken = await c
        .selectFrom('comparison_tables')
        .select('id')
        .where('key', '=', key)
        .executeTakeFirst();
      if (taken) throw new HttpError(409, E.comparisonKeyTaken, { code: 'key_taken', pointer: '/key' });
      const row = await c
        .insertInto('comparison_tables')
        .values({ key, title: fields.title, edit_version: 0 })
        .returning(['id', 'uuid'])
        .executeTakeFirstOrThrow();
      await writeTable(trx, row.id, fields);
      return row.uuid;
    });
    return tables.send(reply, table, 201);
  });

  // GET, PATCH and DELETE of one table, its revisions and restore: the component's routes.
  versionedRoutes(app, tables, BASE, (body) => {
    const { version, ...input } = parseBody(saveSchema, body);
    return { version, input };
  });

  // The table's texts in other languages (decision 064): an overlay over its view.
  comparisonTranslationRoutes(app, BASE, async (db, id) => {
    const found = await findTable(db, id);
    if (!found) return undefined;
    const t = found.item;
    return {
      uuid: t.id,
      title: t.title,
      view: comparisonView(
        t.title,
        t.columns.map((col) => ({ own: col.product === null, title: col.title })),
        t.rows,
      ),
    };
  });
}
