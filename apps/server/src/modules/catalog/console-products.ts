import {
  PRODUCT_ALIAS_MAX,
  PRODUCT_ALIAS_PATTERN,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_ITEM_DESCRIPTION_MAX,
  PRODUCT_ITEM_TITLE_MAX,
  PRODUCT_ITEMS_MAX,
  PRODUCT_LABEL_MAX,
  PRODUCT_TITLE_MAX,
  PRODUCT_VERSION_MAX,
  type ConsoleProduct,
  type ConsoleProductListItem,
  type ProductFields,
} from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { isWebRoute, WEB_ROUTE_PATTERNS } from '@portico/contracts/web-routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { sql } from 'kysely';
import { expectedVersion as expectedVersionOf } from '../../lib/console-edits.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import { HttpError } from '../../lib/errors.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { API_PREFIXES } from '../../plugins/web-app.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { parseBody } from '../../lib/validation.ts';
import { versioned, versionedRoutes } from '../../lib/versioned-content.ts';
import { removeChangelogRevisions } from './console-changelog.ts';
import { translationRoutes, translationsOf } from '../../lib/translations.ts';
import { catalogAdapter, type CatalogRecord } from './console-versioned.ts';
import { PRODUCT_TRANSLATION_FIELDS } from './translatable.ts';
import { generatedImageUrl } from './product-info.ts';
import { indexProducts, PRODUCT_SEARCH } from './search-sync.ts';
import { catalogDb } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * API products edited in the provider console (issue 27, README.md 'Console: API products'): API
 * managers and administrators list the products in the catalog's order, move one up or down, and
 * save a product's texts, category, commercial flag, deprecation with its successor, retirement,
 * features, advantages and related products. Every save raises the product's `edit_version`; a
 * save that started from an older version is refused with 409 and what differs. They also create
 * a product, and delete one no application subscribes to (else they retire it). The audit entry,
 * the search rows and the catalog's data version (its tables' triggers) change in the save's
 * transaction, so the catalog and the search show it at once.
 */

const M = en.console.products;
const E = M.errors;

const requireManager = (request: FastifyRequest) =>
  requireProviderRole(request, 'api_manager', M.managersOnly);

const FIELD_NAMES = [
  'title',
  'label',
  'description',
  'weight',
  'category',
  'commercial',
  'deprecated',
  'successor',
  'retired',
  'features',
  'advantages',
  'related',
] as const satisfies readonly (keyof ProductFields)[];

const uuid = (message: string) => z.string().regex(UUID, message);
const itemSchema = {
  title: z.string().trim().min(1).max(PRODUCT_ITEM_TITLE_MAX),
  description: z.string().max(PRODUCT_ITEM_DESCRIPTION_MAX).default(''),
};
const fieldsSchema = z
  .object({
    title: z.string().trim().min(1).max(PRODUCT_TITLE_MAX),
    label: z
      .string()
      .trim()
      .max(PRODUCT_LABEL_MAX)
      .nullable()
      .default(null)
      .transform((v) => v || null),
    description: z.string().max(PRODUCT_DESCRIPTION_MAX).default(''),
    weight: z.number().int().min(-1_000_000).max(1_000_000),
    category: uuid(E.categoryUnknown).nullable().default(null),
    commercial: z.boolean().default(false),
    deprecated: z.boolean().default(false),
    successor: uuid(E.successorUnknown).nullable().default(null),
    retired: z.boolean().default(false),
    features: z
      .array(
        z
          .object({
            ...itemSchema,
            icon: z
              .string()
              .trim()
              .regex(/^(https:\/\/|\/)/, en.api.httpsOrPath)
              .max(2000)
              .nullable()
              .default(null),
          })
          .strict(),
      )
      .max(PRODUCT_ITEMS_MAX)
      .default([]),
    advantages: z.array(z.object(itemSchema).strict()).max(PRODUCT_ITEMS_MAX).default([]),
    related: z.array(uuid(E.relatedUnknown)).max(PRODUCT_ITEMS_MAX).default([]),
  })
  .strict();
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();
const createSchema = fieldsSchema
  .extend({
    alias: z
      .string()
      .trim()
      .toLowerCase()
      .max(PRODUCT_ALIAS_MAX)
      .regex(PRODUCT_ALIAS_PATTERN, E.aliasInvalid),
    productVersion: z
      .string()
      .trim()
      .max(PRODUCT_VERSION_MAX)
      .nullable()
      .default(null)
      .transform((v) => v || null),
    // Left out: after the last product.
    weight: z.number().int().min(-1_000_000).max(1_000_000).optional(),
  })
  .strict();
const moveSchema = z
  .object({ direction: z.enum(['up', 'down']), version: z.number().int().positive().optional() })
  .strict();

/** A product as the versioned-content component holds it: the console's product and its fields. */
type ProductRecord = CatalogRecord<ProductFields, ConsoleProduct>;

/** The version a save started from: the `version` attribute, else the If-Match header. */
const expectedVersion = (request: FastifyRequest, bodyVersion: number | undefined) =>
  expectedVersionOf(request, bodyVersion, E.versionNeeded);

function productQuery(db: Db) {
  return catalogDb(db)
    .selectFrom('api_products as p')
    .leftJoin('product_categories as c', 'c.id', 'p.category_id')
    .leftJoin('api_products as s', 's.id', 'p.successor_id')
    .select([
      'p.id',
      'p.uuid',
      'p.alias',
      'p.title',
      'p.label',
      'p.version',
      'p.description',
      'p.weight',
      'p.commercial',
      'p.deprecated',
      'p.retired',
      'p.edit_version',
      'p.edited_at',
      'p.changed',
      'p.image_url',
      'p.image_alt',
      'c.uuid as category_uuid',
      'c.name as category_name',
      's.uuid as successor_uuid',
      's.title as successor_title',
      's.alias as successor_alias',
    ]);
}

async function findRecord(db: Db, id: string, lock = false): Promise<ProductRecord | undefined> {
  if (!UUID.test(id)) return undefined;
  if (lock)
    await catalogDb(db)
      .selectFrom('api_products')
      .select('id')
      .where('uuid', '=', id.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
  const p = await productQuery(db).where('p.uuid', '=', id.toLowerCase()).executeTakeFirst();
  if (!p) return undefined;
  const c = catalogDb(db);
  const [features, advantages, related] = await Promise.all([
    c
      .selectFrom('product_features')
      .select(['title', 'description', 'icon_url'])
      .where('product_id', '=', p.id)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('product_advantages')
      .select(['title', 'description'])
      .where('product_id', '=', p.id)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('related_products as r')
      .innerJoin('api_products as o', 'o.id', 'r.related_product_id')
      .select('o.uuid')
      .where('r.product_id', '=', p.id)
      .orderBy('r.weight')
      .orderBy('o.title')
      .execute(),
  ]);
  const product: ConsoleProduct = {
    id: p.uuid,
    alias: p.alias,
    productVersion: p.version,
    imageUrl: p.image_url,
    imageAlt: p.image_alt,
    version: p.edit_version,
    changed: new Date(p.changed).toISOString(),
    editedAt: p.edited_at ? new Date(p.edited_at).toISOString() : null,
    title: p.title,
    label: p.label,
    description: p.description,
    weight: p.weight,
    category: p.category_uuid,
    commercial: p.commercial,
    deprecated: p.deprecated,
    successor: p.successor_uuid,
    retired: p.retired,
    features: features.map((f) => ({ title: f.title, description: f.description, icon: f.icon_url })),
    advantages: advantages.map((a) => ({ title: a.title, description: a.description })),
    related: related.map((r) => r.uuid),
  };
  return { rowId: p.id, item: product, version: product.version, fields: fieldsOf(product) };
}

function fieldsOf(p: ProductFields): ProductFields {
  const out = {} as Record<keyof ProductFields, unknown>;
  for (const f of FIELD_NAMES) out[f] = p[f];
  return out as ProductFields;
}

/** Audit values: the fields with the description's length instead of its text, and the version. */
function auditValue(p: ProductRecord) {
  const { description, features, advantages, ...rest } = p.fields;
  return {
    alias: p.item.alias,
    productVersion: p.item.productVersion,
    ...rest,
    descriptionLength: description.length,
    features: features.map((f) => f.title),
    advantages: advantages.map((a) => a.title),
    version: p.version,
  };
}

const invalid = (message: string, pointer: string) =>
  new HttpError(400, message, { code: 'invalid_input', pointer });

/** The ids of the product's category, successor and related products, checked. */
async function resolveReferences(trx: Db, productId: number, fields: ProductFields) {
  const c = catalogDb(trx);
  let categoryId: number | null = null;
  if (fields.category) {
    const row = await c
      .selectFrom('product_categories')
      .select('id')
      .where('uuid', '=', fields.category.toLowerCase())
      .executeTakeFirst();
    if (!row) throw invalid(E.categoryUnknown, '/category');
    categoryId = row.id;
  }
  let successorId: number | null = null;
  if (fields.successor) {
    if (!fields.deprecated) throw invalid(E.successorNotDeprecated, '/successor');
    const row = await c
      .selectFrom('api_products')
      .select(['id', 'retired'])
      .where('uuid', '=', fields.successor.toLowerCase())
      .executeTakeFirst();
    if (!row) throw invalid(E.successorUnknown, '/successor');
    if (row.id === productId) throw invalid(E.successorSelf, '/successor');
    if (row.retired) throw invalid(E.successorRetired, '/successor');
    successorId = row.id;
  }
  const related = fields.related.map((r) => r.toLowerCase());
  if (new Set(related).size !== related.length) throw invalid(E.relatedTwice, '/related');
  const relatedRows = related.length
    ? await c.selectFrom('api_products').select(['id', 'uuid']).where('uuid', 'in', related).execute()
    : [];
  const relatedIds = related.map((r, i) => {
    const row = relatedRows.find((x) => x.uuid === r);
    if (!row) throw invalid(E.relatedUnknown, `/related/${i}`);
    if (row.id === productId) throw invalid(E.relatedSelf, `/related/${i}`);
    return row.id;
  });
  return { categoryId, successorId, relatedIds };
}

/** Replaces the product's features or advantages, keeping the uuids of those at the same place. */
async function replaceItems(
  trx: Db,
  table: 'product_features' | 'product_advantages',
  productId: number,
  items: readonly { title: string; description: string; icon?: string | null }[],
) {
  const c = catalogDb(trx);
  const existing = await c
    .selectFrom(table)
    .select('id')
    .where('product_id', '=', productId)
    .orderBy('weight')
    .orderBy('id')
    .execute();
  for (const [i, item] of items.entries()) {
    const values = {
      title: item.title,
      description: cleanHtml(item.description),
      weight: i,
      ...(table === 'product_features' ? { icon_url: item.icon ?? null } : {}),
    };
    const row = existing[i];
    if (row) await c.updateTable(table).set(values).where('id', '=', row.id).execute();
    else
      await c
        .insertInto(table)
        .values({ product_id: productId, ...values })
        .execute();
  }
  const gone = existing.slice(items.length).map((r) => r.id);
  if (gone.length) await c.deleteFrom(table).where('id', 'in', gone).execute();
}

function actionOf(before: ProductFields, after: ProductFields): string | undefined {
  if (after.retired && !before.retired) return 'product.retired';
  if (after.deprecated && !before.deprecated) return 'product.deprecated';
  return undefined;
}

/** Writes a save's fields over the product `before` (its row locked), raising its version. */
async function storeProduct(trx: Db, fields: ProductFields, before: ProductRecord): Promise<void> {
  const { categoryId, successorId, relatedIds } = await resolveReferences(trx, before.rowId, fields);
  const c = catalogDb(trx);
  const now = new Date();
  const id = before.rowId;
  await c
    .updateTable('api_products')
    .set((eb) => ({
      title: fields.title,
      label: fields.label,
      description: cleanHtml(fields.description),
      weight: fields.weight,
      category_id: categoryId,
      commercial: fields.commercial,
      deprecated: fields.deprecated,
      successor_id: successorId,
      retired: fields.retired,
      edit_version: eb('edit_version', '+', 1),
      edited_at: now,
      changed: now,
    }))
    .where('id', '=', id)
    .execute();
  // A product retired now leaves every other deprecated product's 'GO TO NEW VERSION' too.
  if (fields.retired && !before.fields.retired)
    await c
      .updateTable('api_products')
      .set((eb) => ({ successor_id: null, edit_version: eb('edit_version', '+', 1) }))
      .where('successor_id', '=', id)
      .execute();
  await replaceItems(trx, 'product_features', id, fields.features);
  await replaceItems(trx, 'product_advantages', id, fields.advantages);
  await c.deleteFrom('related_products').where('product_id', '=', id).execute();
  if (relatedIds.length)
    await c
      .insertInto('related_products')
      .values(relatedIds.map((r, i) => ({ product_id: id, related_product_id: r, weight: i })))
      .execute();
  await indexProducts(trx);
}

/**
 * Deletes a product no application subscribes to (a subscribed one is a 409: retire it), with
 * its features, advantages, changelog, documentation links and search row; the comparison
 * columns that showed it show a gone product, and products it was the successor of lead to their
 * family's newest again. Its documentations stay in the catalog.
 */
async function removeProduct(trx: Db, before: ProductRecord): Promise<void> {
  const subscribed = await sql<{
    n: string | number;
  }>`select count(*) as n from subscriptions where product_id = ${before.rowId}`.execute(trx);
  const count = Number(subscribed.rows[0]?.n ?? 0);
  if (count > 0)
    throw new HttpError(409, format(E.hasSubscriptions, { count }), { code: 'has_subscriptions' });
  const c = catalogDb(trx);
  // Products that led to it lead to their family's newest again (a new version each).
  await c
    .updateTable('api_products')
    .set((eb) => ({ successor_id: null, edit_version: eb('edit_version', '+', 1) }))
    .where('successor_id', '=', before.rowId)
    .execute();
  // Its changelog entries go with it (a cascade), and their revisions with them.
  await removeChangelogRevisions(trx, before.rowId);
  await c.deleteFrom('api_products').where('id', '=', before.rowId).execute();
  await translationsOf(trx).removeItems('api_product', [before.item.id]);
  await indexProducts(trx);
}

/**
 * A revision's fields as a restore saves them: a category, successor or related product deleted
 * (or retired) since is left out rather than refusing the restore.
 */
async function restorable(db: Db, fields: ProductFields): Promise<ProductFields> {
  const named = [fields.category, fields.successor, ...fields.related].filter((x): x is string => !!x);
  const c = catalogDb(db);
  const [categories, products] = await Promise.all([
    fields.category
      ? c.selectFrom('product_categories').select('uuid').where('uuid', '=', fields.category).execute()
      : [],
    named.length
      ? c.selectFrom('api_products').select(['uuid', 'retired']).where('uuid', 'in', named).execute()
      : [],
  ]);
  const successor = products.find((p) => p.uuid === fields.successor && !p.retired);
  return {
    ...fields,
    category: categories.length ? fields.category : null,
    successor: fields.deprecated && successor ? successor.uuid : null,
    related: fields.related.filter((r) => products.some((p) => p.uuid === r)),
  };
}

/**
 * Products through the versioned-content component (docs/decisions/048-versioned-content.md):
 * the save with its version check, 409 and revision, the revisions with their diff and restore,
 * and the delete. A product keeps its own states (deprecated, retired), not drafts.
 */
const products = versioned<ProductFields, ProductRecord>({
  ...catalogAdapter<ProductFields, ConsoleProduct>('api_product', E, FIELD_NAMES),
  find: findRecord,
  store: (trx, fields, before) => storeProduct(trx, fields, before),
  remove: removeProduct,
  restoreInput: restorable,
  saveAction: (fields, before) => actionOf(before.fields, fields),
  audit: {
    targetType: 'api_product',
    label: (p) => p.item.title,
    value: auditValue,
    created: 'product.created',
    updated: 'product.updated',
    restored: 'product.restored',
    deleted: 'product.deleted',
  },
});

/**
 * Moves the product one place up or down the catalog's order (weight, then title): the list's
 * weights become 0, 1, 2… and the products whose weight changed get a new version (and a
 * revision, so that their revisions stay one a version).
 */
async function moveProduct(
  db: Db,
  request: FastifyRequest,
  id: string,
  direction: 'up' | 'down',
  expected: number,
): Promise<{ ok: true; product: ProductRecord } | { ok: false; current: ProductRecord }> {
  return db.transaction().execute(async (trx) => {
    const before = await products.findRequired(trx, id, true);
    if (before.version !== expected) return { ok: false, current: before };
    const c = catalogDb(trx);
    const order = await c
      .selectFrom('api_products')
      .select(['id', 'uuid', 'title', 'weight'])
      .orderBy('weight')
      .orderBy('title')
      .orderBy('id')
      .forUpdate()
      .execute();
    const at = order.findIndex((p) => p.id === before.rowId);
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= order.length)
      throw new HttpError(409, E.edgeOfList, { code: 'edge_of_list', pointer: '/direction' });
    [order[at], order[to]] = [order[to]!, order[at]!];
    const now = new Date();
    const actor = actorOf(request);
    for (const [weight, p] of order.entries()) {
      if (p.weight === weight) continue;
      await c
        .updateTable('api_products')
        .set((eb) => ({ weight, edit_version: eb('edit_version', '+', 1), edited_at: now, changed: now }))
        .where('id', '=', p.id)
        .execute();
      await products.storeRevision(trx, actor, (await findRecord(trx, p.uuid))!);
      await recordAudit(trx, actor, {
        action: 'product.reordered',
        targetType: 'api_product',
        targetId: p.uuid,
        targetLabel: p.title,
        before: { weight: p.weight },
        after: { weight },
      });
    }
    return { ok: true, product: (await findRecord(trx, id))! };
  });
}

/** First path segments of the web app's pages ('admin', 'apiproduct', 'documentation', …). */
const WEB_TOPS = new Set(
  WEB_ROUTE_PATTERNS.map((p) => p.split('/')[1] ?? '')
    .filter((s) => s && !s.startsWith(':'))
    .map((s) => s.toLowerCase()),
);

/**
 * Refuses an alias another product has, or one that names a page of the portal: the web app's
 * pages and the server's API paths, and the basic pages' addresses (a product's alias is also its
 * `path.alias`, `/<alias>`).
 */
async function checkAlias(trx: Db, alias: string) {
  const path = `/${alias}`;
  if (
    WEB_TOPS.has(alias) ||
    isWebRoute(path) ||
    API_PREFIXES.some((p) => p.replace(/\/$/, '') === path || path.startsWith(p))
  )
    throw invalid(E.aliasReserved, '/alias');
  const page = await sql`select 1 from page_aliases where alias = ${path}`.execute(trx);
  if (page.rows.length) throw invalid(E.aliasReserved, '/alias');
  const taken = await catalogDb(trx)
    .selectFrom('api_products')
    .select('id')
    .where('alias', '=', alias)
    .executeTakeFirst();
  if (taken) throw new HttpError(409, E.aliasTaken, { code: 'alias_taken', pointer: '/alias' });
}

type CreateInput = z.infer<typeof createSchema>;

/**
 * Creates a product as the console made it (`console_created`, `edited_at`: export-content writes
 * it to content/catalog/console.yaml and the content import leaves it alone); its image is the
 * one generated from its title until a file gives it another. Its first revision and audit entry
 * are the component's.
 */
function createProduct(db: Db, request: FastifyRequest, input: CreateInput): Promise<ProductRecord> {
  return products.create(db, actorOf(request), async (trx) => {
    // Two creations of one alias: the second waits and finds it taken.
    await sql`select pg_advisory_xact_lock(hashtext('portico:product-alias'))`.execute(trx);
    await checkAlias(trx, input.alias);
    const { alias, productVersion, weight, ...rest } = input;
    const fields: ProductFields = { ...rest, weight: weight ?? 0 };
    const { categoryId, successorId, relatedIds } = await resolveReferences(trx, -1, fields);
    const c = catalogDb(trx);
    const last = await c
      .selectFrom('api_products')
      .select((eb) => eb.fn.max('weight').as('weight'))
      .executeTakeFirst();
    const now = new Date();
    const row = await c
      .insertInto('api_products')
      .values({
        alias,
        title: fields.title,
        label: fields.label,
        version: productVersion,
        description: cleanHtml(fields.description),
        weight: weight ?? Number(last?.weight ?? -1) + 1,
        category_id: categoryId,
        commercial: fields.commercial,
        deprecated: fields.deprecated,
        successor_id: successorId,
        retired: fields.retired,
        image_url: generatedImageUrl(alias),
        image_alt: fields.title,
        console_created: true,
        edited_at: now,
        created: now,
        changed: now,
      })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    await replaceItems(trx, 'product_features', row.id, fields.features);
    await replaceItems(trx, 'product_advantages', row.id, fields.advantages);
    if (relatedIds.length)
      await c
        .insertInto('related_products')
        .values(relatedIds.map((r, i) => ({ product_id: row.id, related_product_id: r, weight: i })))
        .execute();
    await indexProducts(trx);
    return row.uuid;
  });
}

type Params = { Params: { id: string } };

/** The console's product routes (README.md 'Console: API products'). */
export async function consoleProductRoutes(app: FastifyInstance): Promise<void> {
  app.get('/admin-api/catalog/products', async (request, reply) => {
    requireManager(request);
    const rows = await productQuery(app.db).orderBy('p.weight').orderBy('p.title').orderBy('p.id').execute();
    reply.header('Cache-Control', 'no-store');
    return {
      data: rows.map((p): ConsoleProductListItem => ({
        id: p.uuid,
        alias: p.alias,
        title: p.title,
        productVersion: p.version,
        label: p.label,
        weight: p.weight,
        category: p.category_name,
        commercial: p.commercial,
        deprecated: p.deprecated,
        retired: p.retired,
        successor:
          p.successor_uuid && p.successor_title && p.successor_alias
            ? { id: p.successor_uuid, title: p.successor_title, alias: p.successor_alias }
            : null,
        version: p.edit_version,
        editedAt: p.edited_at ? new Date(p.edited_at).toISOString() : null,
      })),
    };
  });

  app.get('/admin-api/catalog/categories', async (request, reply) => {
    requireManager(request);
    const rows = await catalogDb(app.db)
      .selectFrom('product_categories')
      .select(['uuid', 'name'])
      .orderBy('weight')
      .orderBy('name')
      .execute();
    reply.header('Cache-Control', 'no-store');
    return { data: rows.map((r) => ({ id: r.uuid, name: r.name })) };
  });

  // GET, PATCH and DELETE of one product, its revisions and restore: the component's routes.
  versionedRoutes(app, products, '/admin-api/catalog/products', (body) => {
    const { version, ...input } = parseBody(saveSchema, body);
    return { version, input };
  });

  app.post('/admin-api/catalog/products', async (request, reply) => {
    requireManager(request);
    const input = parseBody(createSchema, request.body);
    return products.send(reply, await createProduct(app.db, request, input), 201);
  });

  // The product's translations (decision 063): its title and description (HTML, sanitized alike).
  translationRoutes(app, {
    entityType: 'api_product',
    base: '/admin-api/catalog/products',
    search: PRODUCT_SEARCH,
    role: 'api_manager',
    messages: { forbidden: M.managersOnly, notFound: E.notFound },
    async find(db, id) {
      const p = await findRecord(db, id);
      return p && { ref: p.item.id, label: p.item.title };
    },
    fields: PRODUCT_TRANSLATION_FIELDS,
  });

  app.post<Params>('/admin-api/catalog/products/:id/move', async (request, reply) => {
    requireManager(request);
    const { direction, version } = parseBody(moveSchema, request.body);
    const expected = expectedVersion(request, version);
    const outcome = await moveProduct(app.db, request, request.params.id, direction, expected);
    if (!outcome.ok) return products.conflict(reply, outcome.current, outcome.current.fields);
    return products.send(reply, outcome.product);
  });
}
