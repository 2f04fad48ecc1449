import {
  FAQ_STATES,
  type FaqFields,
  type FaqListItem,
  type FaqQuestion,
} from '@portico/contracts/console-content';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { publishAtOf, versioned, versionedRoutes, whereState } from '../../lib/versioned-content.ts';
import { renderMarkdown } from '../pages/service.ts';
import { translationRoutes } from '../../lib/translations.ts';
import { parseBody } from '../../lib/validation.ts';
import { fieldChanges, pageParam, searchParam, type FieldChange } from '../../lib/console-edits.ts';
import { refuseBrokenLinks } from './links.ts';
import { contentRepo, FAQ_SEARCH } from './repo.ts';
import { FAQ_TRANSLATION_FIELDS } from './translatable.ts';
import { contentDb } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * The FAQ edited in the provider console (README.md 'Console: FAQ'): content editors and
 * administrators list, create, update, order, publish and delete questions (their categories:
 * category-console.ts).
 * Every save of a question stores a revision and raises its version; an update that started from
 * an older version is refused with 409 and what differs. The public FAQ and the site search show
 * each change at once (same transaction).
 */

const M = en.console.content;
const E = M.faqErrors;
const ROLE = 'content_editor';
const BASE = '/admin-api/content/faqs';

const FIELD_NAMES = [
  'question',
  'answer',
  'category',
  'weight',
  'state',
  'publishAt',
] as const satisfies readonly (keyof FaqFields)[];

const WEIGHT = z.number().int().min(-1_000_000).max(1_000_000);
const fieldsSchema = z
  .object({
    question: z.string().trim().min(1).max(500),
    answer: z.string().trim().min(1).max(100_000),
    category: z.string().regex(UUID, E.categoryUnknown).nullable().default(null),
    /** Left out: a new question comes last in its category, a saved one keeps its place. */
    weight: WEIGHT.optional(),
    state: z.enum(FAQ_STATES).default('draft'),
    publishAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .strict();
type FieldsInput = z.output<typeof fieldsSchema>;
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();
const orderSchema = z.object({ ids: z.array(z.string().regex(UUID)).min(1).max(1000) }).strict();

interface FaqRecord {
  id: number;
  uuid: string;
  version: number;
  created: Date;
  changed: Date;
  editedAt: Date | null;
  categoryId: number | null;
  categoryName: string | null;
  fields: FaqFields;
}

function faqQuery(db: Db) {
  return contentDb(db)
    .selectFrom('faqs as f')
    .leftJoin('faq_categories as c', 'c.id', 'f.category_id')
    .select([
      'f.id',
      'f.uuid',
      'f.version',
      'f.question',
      'f.answer_markdown',
      'f.answer_html',
      'f.category_id',
      'f.weight',
      'f.published',
      'f.publish_at',
      'f.created',
      'f.changed',
      'f.edited_at',
      'c.uuid as category_uuid',
      'c.name as category_name',
    ]);
}
type FaqQueryRow = Awaited<ReturnType<ReturnType<typeof faqQuery>['executeTakeFirstOrThrow']>>;

function recordOf(r: FaqQueryRow): FaqRecord {
  const publishAt = r.publish_at ? new Date(r.publish_at) : null;
  return {
    id: r.id,
    uuid: r.uuid,
    version: r.version,
    created: new Date(r.created),
    changed: new Date(r.changed),
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    categoryId: r.category_id,
    categoryName: r.category_name,
    fields: {
      question: r.question,
      // Questions imported before migration 0276 have no Markdown yet: their HTML is Markdown too.
      answer: r.answer_markdown ?? r.answer_html,
      category: r.category_uuid,
      weight: r.weight,
      state: r.published ? 'published' : publishAt ? 'scheduled' : 'draft',
      publishAt: !r.published && publishAt ? publishAt.toISOString() : null,
    },
  };
}

async function findFaq(db: Db, uuid: string, lock = false): Promise<FaqRecord | undefined> {
  if (!UUID.test(uuid)) return undefined;
  if (lock) {
    const locked = await contentDb(db)
      .selectFrom('faqs')
      .select('id')
      .where('uuid', '=', uuid.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return undefined;
  }
  const row = await faqQuery(db).where('f.uuid', '=', uuid.toLowerCase()).executeTakeFirst();
  return row ? recordOf(row) : undefined;
}

function faqJson(f: FaqRecord): FaqQuestion {
  return {
    id: f.uuid,
    version: f.version,
    created: f.created.toISOString(),
    changed: f.changed.toISOString(),
    editedAt: f.editedAt?.toISOString() ?? null,
    ...f.fields,
  };
}

/** What differs from `from` to `to`, field by field (lines of the answer, words elsewhere). */
export function faqChanges(from: FaqFields, to: FaqFields): FieldChange<keyof FaqFields>[] {
  return fieldChanges(from, to, FIELD_NAMES, ['answer']);
}

const invalid = (message: string, pointer: string) =>
  new HttpError(400, message, { code: 'invalid_input', pointer });

async function categoryIdOf(trx: Db, uuid: string | null): Promise<number | null> {
  if (!uuid) return null;
  const c = await contentDb(trx)
    .selectFrom('faq_categories')
    .select('id')
    .where('uuid', '=', uuid.toLowerCase())
    .executeTakeFirst();
  if (!c) throw invalid(E.categoryUnknown, '/category');
  return c.id;
}

/** Checks fields against the database and completes them (a new question's place: last). */
async function resolveFields(
  trx: Db,
  input: FieldsInput,
  existing: FaqRecord | undefined,
  contentDir: string,
) {
  const cdb = contentDb(trx);
  const categoryId = await categoryIdOf(trx, input.category);
  let taken = cdb.selectFrom('faqs').select('id').where('question', '=', input.question);
  if (existing) taken = taken.where('id', '<>', existing.id);
  if (await taken.executeTakeFirst()) throw invalid(E.questionTaken, '/question');
  let weight = input.weight;
  if (weight === undefined && existing && existing.categoryId === categoryId) weight = existing.fields.weight;
  if (weight === undefined) {
    const last = await cdb
      .selectFrom('faqs')
      .select((eb) => eb.fn.max('weight').as('w'))
      .where((eb) =>
        categoryId === null ? eb('category_id', 'is', null) : eb('category_id', '=', categoryId),
      )
      .executeTakeFirst();
    weight = last?.w === null || last?.w === undefined ? 0 : Number(last.w) + 1;
  }
  const fields: FaqFields = {
    question: input.question,
    answer: input.answer,
    category: input.category ? input.category.toLowerCase() : null,
    weight,
    state: input.state,
    publishAt: input.state === 'scheduled' ? input.publishAt : null,
  };
  const publishAt = publishAtOf(fields);
  // The import checks every link of faq.yaml, where the export writes these texts (links.ts).
  await refuseBrokenLinks(trx, contentDir, [
    { pointer: '/question', text: fields.question },
    { pointer: '/answer', text: fields.answer },
  ]);
  return {
    fields,
    input: {
      question: fields.question,
      // Rendered and sanitized as the import renders faq.yaml (repo.ts sanitizes before storing).
      answer: renderMarkdown(fields.answer),
      answerMarkdown: fields.answer,
      categoryId,
      weight,
      published: fields.state === 'published',
      publishAt,
    },
  };
}

/** Audit values: the fields less the answer (its length instead), and the version. */
function auditValue(f: FaqRecord) {
  const { answer, ...rest } = f.fields;
  return { ...rest, answerLength: answer.length, version: f.version };
}

/**
 * FAQ questions as versioned content (lib/versioned-content.ts); a save checks its internal links
 * against the database and the image folders of `contentDir` (undefined: a component that only
 * publishes and keeps revisions, and saves nothing).
 */
function faqComponent(contentDir: string | undefined) {
  return versioned<FaqFields, FaqRecord, FieldsInput>({
    kind: 'faq',
    role: ROLE,
    messages: {
      forbidden: M.forbidden,
      notFound: M.faq.notFound,
      stale: E.stale,
      versionNeeded: M.errors.versionNeeded,
      noRevision: M.errors.noRevision,
    },
    find: findFaq,
    ref: (f) => f.id,
    id: (f) => f.uuid,
    json: faqJson,
    fieldNames: FIELD_NAMES,
    lineFields: ['answer'],
    async store(trx, input, before) {
      if (contentDir === undefined) throw new Error('This FAQ component saves nothing');
      const { input: faqInput } = await resolveFields(trx, input, before, contentDir);
      await contentRepo(trx).saveFaq(faqInput, { id: before.id }, { editedAt: new Date() });
    },
    remove: (trx, f) => contentRepo(trx).deleteFaqs([f.id]),
    sentFields: (input, current) => sentFields(input, current),
    // A category deleted since is no category now.
    async restoreInput(db, fields) {
      const category =
        fields.category &&
        (await contentDb(db)
          .selectFrom('faq_categories')
          .select('id')
          .where('uuid', '=', fields.category)
          .executeTakeFirst())
          ? fields.category
          : null;
      return { ...fields, category };
    },
    publishes: (input, before) => input.state === 'published' && before.fields.state !== 'published',
    audit: {
      targetType: 'faq',
      label: (f) => f.fields.question,
      value: auditValue,
      created: 'faq.created',
      updated: 'faq.updated',
      published: 'faq.published',
      restored: 'faq.restored',
      deleted: 'faq.deleted',
    },
    schedule: {
      table: 'faqs',
      what: 'scheduled FAQ publication',
      published: (trx, ids) => contentRepo(trx).reindexFaqs(ids),
    },
  });
}

/** Publishes the scheduled FAQ questions whose time has come, once (lib/versioned-content.ts). */
export const publishDueFaqs = (db: Db) => faqComponent(undefined).publishDue(db);

/** The fields a request sent, completed from the current question where it left them out. */
function sentFields(input: FieldsInput, current: FaqRecord): FaqFields {
  return {
    question: input.question,
    answer: input.answer,
    category: input.category?.toLowerCase() ?? null,
    weight: input.weight ?? current.fields.weight,
    state: input.state,
    publishAt: input.state === 'scheduled' ? input.publishAt : null,
  };
}

/** The ids of an order request: each once, each existing (else 400), in the order given. */
async function orderedRows(
  trx: Db,
  table: 'faqs',
  ids: readonly string[],
): Promise<{ id: number; uuid: string; weight: number }[]> {
  const wanted = ids.map((id) => id.toLowerCase());
  if (new Set(wanted).size !== wanted.length) throw invalid(E.orderIds, '/ids');
  const rows = await contentDb(trx)
    .selectFrom(table)
    .select(['id', 'uuid', 'weight'])
    .where('uuid', 'in', wanted)
    .orderBy('id')
    .forUpdate()
    .execute();
  if (rows.length !== wanted.length) throw invalid(E.orderIds, '/ids');
  const byUuid = new Map(rows.map((r) => [r.uuid, r]));
  return wanted.map((u) => byUuid.get(u)!);
}

/** The console's FAQ routes (README.md 'Console: FAQ'). */
export async function consoleFaqRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);
  const faqContent = faqComponent(app.config.contentDir);
  app.get<{ Querystring: Record<string, unknown> }>(BASE, async (request, reply) => {
    guard(request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 50, 200) || 50;
    const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
    const state = q.state;
    if (state !== undefined && state !== '' && !(FAQ_STATES as readonly unknown[]).includes(state))
      throw badRequest(`state must be one of ${FAQ_STATES.join(', ')}.`, 'state');
    const category = q.category;
    if (
      category !== undefined &&
      category !== '' &&
      (typeof category !== 'string' || (category !== 'none' && !UUID.test(category)))
    )
      throw badRequest('category must be a category id or none.', 'category');
    const search = searchParam(q.q);
    let qb = faqQuery(app.db).where(whereState(state, 'f'));
    if (category === 'none') qb = qb.where('f.category_id', 'is', null);
    else if (typeof category === 'string' && category) qb = qb.where('c.uuid', '=', category.toLowerCase());
    if (search)
      qb = qb.where(sql<boolean>`lower(f.question) like ${`%${escapeLike(search.toLowerCase())}%`}`);
    const [rows, count] = await Promise.all([
      qb
        // The FAQ page's order: categories by weight, the questions of none last (spec B 2.5).
        .orderBy(sql`coalesce(c.weight, 2147483647)`)
        .orderBy('c.id')
        .orderBy('f.weight')
        .orderBy('f.id')
        .limit(limit)
        .offset(offset)
        .execute(),
      qb
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    reply.header('Cache-Control', 'no-store');
    const data: FaqListItem[] = rows.map((r) => {
      const f = recordOf(r);
      return {
        id: f.uuid,
        question: f.fields.question,
        state: f.fields.state,
        category: f.fields.category,
        categoryName: f.categoryName,
        weight: f.fields.weight,
        publishAt: f.fields.publishAt,
        version: f.version,
        changed: f.changed.toISOString(),
      };
    });
    return { data, meta: { count: Number(count.n) } };
  });

  app.post(BASE, async (request, reply) => {
    guard(request);
    const body = parseBody(fieldsSchema, request.body);
    const faq = await faqContent.create(app.db, actorOf(request), async (trx) => {
      const { input } = await resolveFields(trx, body, undefined, app.config.contentDir);
      const { uuid } = await contentRepo(trx).saveFaq(input, undefined, { editedAt: new Date() });
      return uuid;
    });
    return faqContent.send(reply, faq, 201);
  });

  // Declared before /:id routes of the same method: 'reorder' is no id.
  app.post(`${BASE}/reorder`, async (request, reply) => {
    guard(request);
    const { ids } = parseBody(orderSchema, request.body);
    const actor = actorOf(request);
    await app.db.transaction().execute(async (trx) => {
      const rows = await orderedRows(trx, 'faqs', ids);
      const moved = rows.filter((r, weight) => r.weight !== weight);
      for (const [weight, r] of rows.entries()) {
        if (r.weight === weight) continue;
        const updated = await contentDb(trx)
          .updateTable('faqs')
          .set((eb) => ({
            weight,
            changed: new Date(),
            edited_at: new Date(),
            version: eb('version', '+', 1),
          }))
          .where('id', '=', r.id)
          .returning('uuid')
          .executeTakeFirstOrThrow();
        await faqContent.storeRevision(trx, actor, (await findFaq(trx, updated.uuid))!);
      }
      if (moved.length === 0) return;
      await recordAudit(trx, actor, {
        action: 'faq.reordered',
        targetType: 'faq',
        before: { order: [...rows].sort((a, b) => a.weight - b.weight || a.id - b.id).map((r) => r.uuid) },
        after: { order: rows.map((r) => r.uuid) },
      });
    });
    return reply.code(204).send();
  });

  versionedRoutes(app, faqContent, BASE, (body) => {
    const { version, ...input } = parseBody(saveSchema, body);
    return { version, input };
  });

  // The question's translations (decision 063): the answer rendered and sanitized as the save does.
  translationRoutes(app, {
    entityType: 'faq',
    base: BASE,
    search: FAQ_SEARCH,
    role: ROLE,
    messages: { forbidden: M.forbidden, notFound: M.faq.notFound },
    async find(db, id) {
      const f = await findFaq(db, id);
      return f && { ref: f.uuid, label: f.fields.question };
    },
    fields: FAQ_TRANSLATION_FIELDS,
  });
}
