import type { CategoryFields, FaqCategory, NewsCategory } from '@portico/contracts/console-content';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import { translationRoutes, translationsOf } from '../../lib/translations.ts';
import { parseBody } from '../../lib/validation.ts';
import { versioned, versionedRoutes, type Versioned } from '../../lib/versioned-content.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { contentDb } from './tables.ts';
import { CATEGORY_TRANSLATION_FIELDS } from './translatable.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * News (blog) and FAQ categories edited in the provider console as versioned content (README.md
 * 'Console: categories', docs/decisions/048-versioned-content.md item 5): content editors and
 * administrators list, add, rename, move and delete them; every save, rename, move and restore
 * raises the category's version and stores a revision (`content_revisions`, kinds
 * `news_category` and `faq_category`), a stale save is a 409 with what differs, and a save that
 * names no version is a 428. A category that still holds articles or questions is not deleted.
 */

const M = en.console.content;
const ROLE = 'content_editor';
const WEIGHT = z.number().int().min(-1_000_000).max(1_000_000);
const NAME = z.string().trim().min(1).max(255);

const createSchema = z.object({ name: NAME }).strict();
const saveSchema = z
  .object({ name: NAME, weight: WEIGHT.optional(), version: z.number().int().positive().optional() })
  .strict();
const orderSchema = z.object({ ids: z.array(z.string().regex(UUID)).min(1).max(1000) }).strict();

/** What a save sends: a name, and a place unless it keeps its own. */
export interface CategoryInput {
  name: string;
  weight?: number | undefined;
}

/** A category as the component holds it: its row, its fields and how many items it holds. */
export interface CategoryRecord {
  rowId: number;
  uuid: string;
  version: number;
  changed: Date;
  count: number;
  fields: CategoryFields;
}

/** One kind of category: its table, the items filed under it, its routes and its words. */
interface CategoryKind {
  kind: 'news_category' | 'faq_category';
  /** The two tables have the same columns (id, uuid, name, weight, version, changed). */
  table: 'news_categories' | 'faq_categories';
  /** The items filed under a category (both have `category_id`). */
  items: 'articles' | 'faqs';
  base: string;
  /** The lock the content import takes: saves, creations and imports one at a time. */
  lock: string;
  messages: {
    notFound: string;
    taken: string;
    notEmpty: string;
    stale: string;
    orderIds: string;
  };
}

const NEWS: CategoryKind = {
  kind: 'news_category',
  table: 'news_categories',
  items: 'articles',
  base: '/admin-api/content/categories',
  lock: 'portico:blog-content',
  messages: {
    notFound: M.newsCategoryErrors.notFound,
    taken: M.newsCategoryErrors.taken,
    notEmpty: M.newsCategoryErrors.notEmpty,
    stale: M.newsCategoryErrors.stale,
    orderIds: M.newsCategoryErrors.orderIds,
  },
};

const FAQ: CategoryKind = {
  kind: 'faq_category',
  table: 'faq_categories',
  items: 'faqs',
  base: '/admin-api/content/faq-categories',
  lock: 'portico:blog-content',
  messages: {
    notFound: M.faqErrors.categoryNotFound,
    taken: M.faqErrors.categoryTaken,
    notEmpty: M.faqErrors.categoryNotEmpty,
    stale: M.faqErrors.categoryStale,
    orderIds: M.faqErrors.orderIds,
  },
};

// The two tables (and the two item tables) have the same columns: typed as the FAQ's.
const tableOf = (k: CategoryKind) => k.table as 'faq_categories';
const itemsOf = (k: CategoryKind) => k.items as 'faqs';

const invalid = (message: string, pointer: string) =>
  new HttpError(400, message, { code: 'invalid_input', pointer });

function categoryQuery(db: Db, k: CategoryKind) {
  return contentDb(db)
    .selectFrom(`${tableOf(k)} as c`)
    .leftJoin(`${itemsOf(k)} as i`, 'i.category_id', 'c.id')
    .select((eb) => [
      'c.id',
      'c.uuid',
      'c.name',
      'c.weight',
      'c.version',
      'c.changed',
      eb.fn.count<string>('i.id').as('count'),
    ])
    .groupBy(['c.id', 'c.uuid', 'c.name', 'c.weight', 'c.version', 'c.changed']);
}
type CategoryRow = Awaited<ReturnType<ReturnType<typeof categoryQuery>['executeTakeFirstOrThrow']>>;

const recordOf = (r: CategoryRow): CategoryRecord => ({
  rowId: r.id,
  uuid: r.uuid,
  version: r.version,
  changed: new Date(r.changed),
  count: Number(r.count),
  fields: { name: r.name, weight: r.weight },
});

async function findCategory(db: Db, k: CategoryKind, id: string, lock: boolean) {
  if (!UUID.test(id)) return undefined;
  if (lock) {
    const row = await contentDb(db)
      .selectFrom(tableOf(k))
      .select('id')
      .where('uuid', '=', id.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
  }
  const row = await categoryQuery(db, k).where('c.uuid', '=', id.toLowerCase()).executeTakeFirst();
  return row ? recordOf(row) : undefined;
}

function categoryJson(k: CategoryKind, r: CategoryRecord): FaqCategory | NewsCategory {
  const base = { id: r.uuid, ...r.fields, version: r.version, changed: r.changed.toISOString() };
  return k === FAQ ? { ...base, questions: r.count } : { ...base, articles: r.count };
}

async function nameTaken(trx: Db, k: CategoryKind, name: string, except?: number): Promise<void> {
  let q = contentDb(trx)
    .selectFrom(tableOf(k))
    .select('id')
    .where(sql<boolean>`lower(name) = ${name.toLowerCase()}`);
  if (except !== undefined) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst()) throw invalid(k.messages.taken, '/name');
}

const lockOf = (k: CategoryKind) => sql`select pg_advisory_xact_lock(hashtext(${k.lock}))`;

/** The versioned-content component of one kind of category. */
function categoryComponent(k: CategoryKind) {
  return versioned<CategoryFields, CategoryRecord, CategoryInput>({
    kind: k.kind,
    role: ROLE,
    messages: {
      forbidden: M.forbidden,
      notFound: k.messages.notFound,
      stale: k.messages.stale,
      versionNeeded: M.errors.versionNeeded,
      noRevision: M.errors.noRevision,
    },
    // Saves, creations and the kind's import one at a time: a name is checked once.
    lock: lockOf(k),
    find: (db, id, lock) => findCategory(db, k, id, lock),
    ref: (r) => r.rowId,
    id: (r) => r.uuid,
    json: (r) => categoryJson(k, r),
    fieldNames: ['name', 'weight'],
    async store(trx, input, before) {
      await nameTaken(trx, k, input.name, before.rowId);
      await contentDb(trx)
        .updateTable(tableOf(k))
        .set((eb) => ({
          name: input.name,
          weight: input.weight ?? before.fields.weight,
          version: eb('version', '+', 1),
          changed: new Date(),
        }))
        .where('id', '=', before.rowId)
        .execute();
    },
    async remove(trx, before) {
      if (before.count > 0)
        throw new HttpError(
          409,
          format(k.messages.notEmpty, { name: before.fields.name, count: before.count }),
          { code: 'category_not_empty' },
        );
      await contentDb(trx).deleteFrom(tableOf(k)).where('id', '=', before.rowId).execute();
      await translationsOf(trx).removeItems(k.kind, [before.uuid]);
    },
    sentFields: (input, current) => ({
      name: input.name,
      weight: input.weight ?? current.fields.weight,
    }),
    audit: {
      targetType: k.kind,
      label: (r) => r.fields.name,
      value: (r) => ({ ...r.fields, version: r.version }),
      created: `${k.kind}.created`,
      updated: `${k.kind}.updated`,
      restored: `${k.kind}.restored`,
      deleted: `${k.kind}.deleted`,
    },
    saveAction: (input, before) =>
      input.name !== before.fields.name
        ? `${k.kind}.renamed`
        : input.weight !== undefined && input.weight !== before.fields.weight
          ? `${k.kind}.reordered`
          : undefined,
  });
}

/** The kind's categories in their order (weight, then name). */
async function categoryList(db: Db, k: CategoryKind) {
  const rows = await categoryQuery(db, k).orderBy('c.weight').orderBy('c.name').orderBy('c.id').execute();
  return rows.map((r) => categoryJson(k, recordOf(r)));
}

/**
 * Gives the listed categories the weights 0, 1, … in that order: each one whose weight changed
 * gets a new version and a revision (its revisions stay one a version); one audit entry.
 */
async function reorder(
  db: Db,
  request: FastifyRequest,
  k: CategoryKind,
  component: Versioned<CategoryFields, CategoryRecord, CategoryInput>,
  ids: readonly string[],
): Promise<void> {
  const wanted = ids.map((id) => id.toLowerCase());
  if (new Set(wanted).size !== wanted.length) throw invalid(k.messages.orderIds, '/ids');
  const actor = actorOf(request);
  await db.transaction().execute(async (trx) => {
    await lockOf(k).execute(trx);
    const c = contentDb(trx);
    const rows = await c
      .selectFrom(tableOf(k))
      .select(['id', 'uuid', 'weight'])
      .where('uuid', 'in', wanted)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (rows.length !== wanted.length) throw invalid(k.messages.orderIds, '/ids');
    const byUuid = new Map(rows.map((r) => [r.uuid, r]));
    const ordered = wanted.map((u) => byUuid.get(u)!);
    if (ordered.every((r, weight) => r.weight === weight)) return;
    for (const [weight, r] of ordered.entries()) {
      if (r.weight === weight) continue;
      await c
        .updateTable(tableOf(k))
        .set((eb) => ({ weight, version: eb('version', '+', 1), changed: new Date() }))
        .where('id', '=', r.id)
        .execute();
      await component.storeRevision(trx, actor, (await findCategory(trx, k, r.uuid, false))!);
    }
    await recordAudit(trx, actor, {
      action: `${k.kind}.reordered`,
      targetType: k.kind,
      before: { order: [...rows].sort((a, b) => a.weight - b.weight || a.id - b.id).map((r) => r.uuid) },
      after: { order: ordered.map((r) => r.uuid) },
    });
  });
}

/** The routes of one kind of category (README.md 'Console: categories'). */
function categoryRoutes(app: FastifyInstance, k: CategoryKind): void {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);
  const component = categoryComponent(k);

  app.get(k.base, async (request, reply) => {
    guard(request);
    reply.header('Cache-Control', 'no-store');
    return { data: await categoryList(app.db, k) };
  });

  app.post(k.base, async (request, reply) => {
    guard(request);
    const { name } = parseBody(createSchema, request.body);
    const created = await component.create(app.db, actorOf(request), async (trx) => {
      await nameTaken(trx, k, name);
      const last = await contentDb(trx)
        .selectFrom(tableOf(k))
        .select((eb) => eb.fn.max('weight').as('w'))
        .executeTakeFirst();
      const weight = last?.w === null || last?.w === undefined ? 0 : Number(last.w) + 1;
      const row = await contentDb(trx)
        .insertInto(tableOf(k))
        .values({ name, weight })
        .returning('uuid')
        .executeTakeFirstOrThrow();
      return row.uuid;
    });
    return component.send(reply, created, 201);
  });

  // Declared before the /:id routes of the same method: 'reorder' is no id.
  app.post(`${k.base}/reorder`, async (request, reply) => {
    guard(request);
    const { ids } = parseBody(orderSchema, request.body);
    await reorder(app.db, request, k, component, ids);
    return reply.code(204).send();
  });

  versionedRoutes(app, component, k.base, (body) => {
    const { version, ...input } = parseBody(saveSchema, body);
    return { version, input };
  });

  // The category's name in other languages (decision 063). Categories are not in the site search:
  // no search rows.
  translationRoutes(app, {
    entityType: k.kind,
    base: k.base,
    role: ROLE,
    messages: { forbidden: M.forbidden, notFound: k.messages.notFound },
    async find(db, id) {
      const c = await findCategory(db, k, id, false);
      return c && { ref: c.uuid, label: c.fields.name };
    },
    fields: CATEGORY_TRANSLATION_FIELDS,
  });
}

/** The console's news and FAQ category routes. */
export async function consoleCategoryRoutes(app: FastifyInstance): Promise<void> {
  categoryRoutes(app, NEWS);
  categoryRoutes(app, FAQ);
}
