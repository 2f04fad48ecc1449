import { ARTICLE_STATES, type ArticleFields, type ArticleState } from '@portico/contracts/console-content';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import { runInBackground } from '../../lib/background-task.ts';
import {
  deleteVersion,
  etagOf,
  expectedVersion as expectedVersionOf,
  fieldChanges as changesOf,
  pageParam,
  searchParam,
  sendConflict as sendConflictOf,
  UUID,
  type FieldChange as AnyFieldChange,
} from '../../lib/console-edits.ts';
import { badRequest, HttpError, notFound } from '../../lib/errors.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/service.ts';
import { normalizeAlias, renderMarkdown } from '../pages/service.ts';
import { parseBody } from '../../lib/validation.ts';
import { contentRepo } from './repo.ts';
import { contentDb } from './tables.ts';

/**
 * Articles edited in the provider console (README.md 'Console'): content editors and
 * administrators list, create, update, schedule, publish and delete articles; every save stores a
 * revision and raises the article's version, and an update that started from an older version is
 * refused with 409 and what differs.
 */

const M = en.console.content;
const ROLE = 'content_editor';
/** How often each instance looks for scheduled articles whose time has come. */
const SCHEDULER_INTERVAL_MS = 1000;

const FIELD_NAMES = [
  'title',
  'path',
  'description',
  'body',
  'category',
  'imageUrl',
  'imageAlt',
  'internal',
  'scrollspy',
  'state',
  'publishAt',
] as const satisfies readonly (keyof ArticleFields)[];

const fieldsSchema = z
  .object({
    title: z.string().trim().min(1).max(255),
    path: z.string().trim().max(255).nullable().default(null),
    description: z.string().trim().max(2000).default(''),
    body: z.string().max(500_000).default(''),
    category: z.string().regex(UUID, M.errors.categoryUnknown).nullable().default(null),
    imageUrl: z
      .string()
      .trim()
      .regex(/^(https:\/\/|\/)/, 'must be an https URL or a path starting with /')
      .max(2000)
      .nullable()
      .default(null),
    imageAlt: z.string().trim().max(500).default(''),
    internal: z.boolean().default(false),
    scrollspy: z.boolean().default(false),
    state: z.enum(ARTICLE_STATES).default('draft'),
    publishAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .strict();
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();
const restoreSchema = z.object({ version: z.number().int().positive().optional() }).strict();

interface ArticleRecord {
  id: number;
  uuid: string;
  version: number;
  created: Date;
  changed: Date;
  editedAt: Date | null;
  sourceFile: string | null;
  authorId: number | null;
  fields: ArticleFields;
}

function stateOf(published: boolean, publishAt: Date | null): ArticleState {
  if (published) return 'published';
  return publishAt ? 'scheduled' : 'draft';
}

function articleQuery(db: Db) {
  return contentDb(db)
    .selectFrom('articles as a')
    .leftJoin('news_categories as c', 'c.id', 'a.category_id')
    .select([
      'a.id',
      'a.uuid',
      'a.version',
      'a.title',
      'a.path',
      'a.description',
      'a.body_markdown',
      'a.body_html',
      'a.image_url',
      'a.image_alt',
      'a.internal',
      'a.scrollspy_visible',
      'a.published',
      'a.publish_at',
      'a.created',
      'a.changed',
      'a.edited_at',
      'a.source_file',
      'a.author_id',
      'c.uuid as category_uuid',
      'c.name as category_name',
    ]);
}
type ArticleQueryRow = Awaited<ReturnType<ReturnType<typeof articleQuery>['executeTakeFirstOrThrow']>>;

function recordOf(r: ArticleQueryRow): ArticleRecord {
  const publishAt = r.publish_at ? new Date(r.publish_at) : null;
  return {
    id: r.id,
    uuid: r.uuid,
    version: r.version,
    created: new Date(r.created),
    changed: new Date(r.changed),
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    sourceFile: r.source_file,
    authorId: r.author_id,
    fields: {
      title: r.title,
      path: r.path,
      description: r.description,
      // Articles imported before migration 0274 have no Markdown yet: their HTML is Markdown too.
      body: r.body_markdown ?? r.body_html,
      category: r.category_uuid,
      imageUrl: r.image_url,
      imageAlt: r.image_alt ?? '',
      internal: r.internal,
      scrollspy: r.scrollspy_visible,
      state: stateOf(r.published, publishAt),
      publishAt: !r.published && publishAt ? publishAt.toISOString() : null,
    },
  };
}

async function findArticle(db: Db, uuid: string): Promise<ArticleRecord | undefined> {
  if (!UUID.test(uuid)) return undefined;
  const row = await articleQuery(db).where('a.uuid', '=', uuid.toLowerCase()).executeTakeFirst();
  return row ? recordOf(row) : undefined;
}

function articleJson(a: ArticleRecord) {
  return {
    id: a.uuid,
    version: a.version,
    created: a.created.toISOString(),
    changed: a.changed.toISOString(),
    editedAt: a.editedAt?.toISOString() ?? null,
    sourceFile: a.sourceFile,
    ...a.fields,
  };
}

export type FieldChange = AnyFieldChange<keyof ArticleFields>;

/** What differs from `from` to `to`, field by field (lines of the body, words elsewhere). */
export function fieldChanges(from: ArticleFields, to: ArticleFields): FieldChange[] {
  return changesOf(from, to, FIELD_NAMES, ['body']);
}

/** The version an update started from: the `version` attribute, else the If-Match header. */
function expectedVersion(request: FastifyRequest, bodyVersion: number | undefined): number {
  return expectedVersionOf(request, bodyVersion, M.errors.versionNeeded);
}

/** Checks fields against the database and turns them into the repo's input. */
async function toInput(trx: Db, fields: ArticleFields, existing: ArticleRecord | undefined) {
  let path: string | null = null;
  if (fields.path) {
    path = normalizeAlias(fields.path) ?? null;
    if (!path || !fields.path.startsWith('/') || !path.startsWith('/blog/') || path === '/blog/')
      throw new HttpError(400, M.errors.pathInvalid, { code: 'invalid_input', pointer: '/path' });
    let taken = contentDb(trx).selectFrom('articles').select('id').where('path', '=', path);
    if (existing) taken = taken.where('id', '<>', existing.id);
    if (await taken.executeTakeFirst())
      throw new HttpError(400, M.errors.pathTaken, { code: 'invalid_input', pointer: '/path' });
  }
  let categoryId: number | null = null;
  if (fields.category) {
    const c = await contentDb(trx)
      .selectFrom('news_categories')
      .select('id')
      .where('uuid', '=', fields.category.toLowerCase())
      .executeTakeFirst();
    if (!c)
      throw new HttpError(400, M.errors.categoryUnknown, { code: 'invalid_input', pointer: '/category' });
    categoryId = c.id;
  }
  let publishAt: Date | null = null;
  if (fields.state === 'scheduled') {
    publishAt = fields.publishAt ? new Date(fields.publishAt) : null;
    if (!publishAt || publishAt.getTime() <= Date.now())
      throw new HttpError(400, M.errors.publishAtNeeded, { code: 'invalid_input', pointer: '/publishAt' });
  }
  const markdown = fields.body.trim();
  return {
    title: fields.title,
    path,
    description: fields.description,
    body: renderMarkdown(markdown).trim(),
    bodyMarkdown: markdown,
    image: fields.imageUrl ? { url: fields.imageUrl, alt: fields.imageAlt } : null,
    categoryId,
    authorId: existing?.authorId ?? null,
    published: fields.state === 'published',
    publishAt,
    internal: fields.internal,
    scrollspyVisible: fields.scrollspy,
    created: existing?.created ?? new Date(),
    sourceFile: existing?.sourceFile ?? null,
    // The file's hash stays: the import tells an edited article by edited_at (README 'Console').
    sourceHash: existing
      ? ((
          await contentDb(trx)
            .selectFrom('articles')
            .select('source_hash')
            .where('id', '=', existing.id)
            .executeTakeFirst()
        )?.source_hash ?? null)
      : null,
  };
}

async function storeRevision(trx: Db, actor: AuditActor, article: ArticleRecord): Promise<void> {
  await contentDb(trx)
    .insertInto('article_revisions')
    .values({
      article_id: article.id,
      version: article.version,
      author_id: actor.id,
      author_email: actor.email,
      fields: JSON.stringify(article.fields),
    })
    .execute();
}

/** Audit values: the fields less the body (its length instead), and the version. */
function auditValue(a: ArticleRecord) {
  const { body, ...rest } = a.fields;
  return { ...rest, bodyLength: body.length, version: a.version };
}

type SaveOutcome = { ok: true; article: ArticleRecord } | { ok: false; current: ArticleRecord };

/** Saves `fields` over the article `uuid` if it is still at `expected`; audited as `action`. */
async function saveOver(
  db: Db,
  request: FastifyRequest,
  uuid: string,
  fields: ArticleFields,
  expected: number | 'any',
  action: (before: ArticleRecord) => string,
): Promise<SaveOutcome> {
  return db.transaction().execute(async (trx) => {
    const locked = UUID.test(uuid)
      ? await contentDb(trx)
          .selectFrom('articles')
          .select(['id', 'version'])
          .where('uuid', '=', uuid.toLowerCase())
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!locked) throw notFound(M.articles.notFound);
    const before = (await findArticle(trx, uuid))!;
    if (expected !== 'any' && locked.version !== expected) return { ok: false, current: before };
    const input = await toInput(trx, fields, before);
    await contentRepo(trx).saveArticle(input, { id: before.id }, { editedAt: new Date() });
    const after = (await findArticle(trx, uuid))!;
    const actor = actorOf(request);
    await storeRevision(trx, actor, after);
    await recordAudit(trx, actor, {
      action: action(before),
      targetType: 'article',
      targetId: after.uuid,
      targetLabel: after.fields.title,
      before: auditValue(before),
      after: auditValue(after),
    });
    return { ok: true, article: after };
  });
}

function sendConflict(reply: FastifyReply, current: ArticleRecord, mine: ArticleFields) {
  const message = M.errors.stale.replace('{{version}}', String(current.version));
  return sendConflictOf(reply, message, articleJson(current), fieldChanges(mine, current.fields));
}

/**
 * Publishes the scheduled articles whose time has come, once: the UPDATE takes each row's lock,
 * and an instance that comes second finds the row no longer unpublished. Search rows, a revision
 * and the audit entry are written in the same transaction; the data-version trigger of `articles`
 * makes every instance's cached answers stale.
 */
export async function publishDueArticles(db: Db): Promise<string[]> {
  // Looked up first: an UPDATE, even of no row, fires the statement trigger that raises the
  // content data version, and every cached blog answer would expire each second.
  const due = await contentDb(db)
    .selectFrom('articles')
    .select('id')
    .where('published', '=', false)
    .where('publish_at', '<=', sql<Date>`now()`)
    .limit(1)
    .executeTakeFirst();
  if (!due) return [];
  return db.transaction().execute(async (trx) => {
    const due = await contentDb(trx)
      .updateTable('articles')
      .set((eb) => ({
        published: true,
        publish_at: null,
        changed: new Date(),
        version: eb('version', '+', 1),
      }))
      .where('published', '=', false)
      .where('publish_at', '<=', sql<Date>`now()`)
      .returning(['id', 'uuid'])
      .execute();
    if (due.length === 0) return [];
    await contentRepo(trx).reindexArticles(due.map((d) => d.id));
    for (const d of due) {
      const after = (await findArticle(trx, d.uuid))!;
      await storeRevision(trx, SYSTEM_ACTOR, after);
      await recordAudit(trx, SYSTEM_ACTOR, {
        action: 'article.published',
        targetType: 'article',
        targetId: after.uuid,
        targetLabel: after.fields.title,
        after: auditValue(after),
      });
    }
    return due.map((d) => d.uuid);
  });
}

type Params = { Params: { id: string } };
type RevisionParams = { Params: { id: string; version: string } };

async function findRevision(db: Db, article: ArticleRecord, raw: string) {
  if (!/^\d{1,9}$/.test(raw)) throw notFound(M.errors.noRevision);
  const row = await contentDb(db)
    .selectFrom('article_revisions')
    .select(['version', 'author_email', 'created', 'fields'])
    .where('article_id', '=', article.id)
    .where('version', '=', Number(raw))
    .executeTakeFirst();
  if (!row) throw notFound(M.errors.noRevision);
  const stored = typeof row.fields === 'string' ? (JSON.parse(row.fields) as unknown) : row.fields;
  return {
    version: row.version,
    author: row.author_email,
    created: new Date(row.created).toISOString(),
    fields: stored as ArticleFields,
  };
}

/** The console's article routes (README.md 'Console'). */
export async function consoleArticleRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);
  const found = async (uuid: string) => {
    const a = await findArticle(app.db, uuid);
    if (!a) throw notFound(M.articles.notFound);
    return a;
  };

  runInBackground(app, SCHEDULER_INTERVAL_MS, 'scheduled article publication', async () => {
    await publishDueArticles(app.db);
  });

  app.get<{ Querystring: Record<string, unknown> }>('/admin-api/content/articles', async (request, reply) => {
    guard(request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 20, 100) || 20;
    const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
    const state = q.state;
    if (state !== undefined && state !== '' && !(ARTICLE_STATES as readonly unknown[]).includes(state))
      throw badRequest(`state must be one of ${ARTICLE_STATES.join(', ')}.`, 'state');
    const search = searchParam(q.q);
    let qb = articleQuery(app.db);
    if (state === 'published') qb = qb.where('a.published', '=', true);
    if (state === 'scheduled') qb = qb.where('a.published', '=', false).where('a.publish_at', 'is not', null);
    if (state === 'draft') qb = qb.where('a.published', '=', false).where('a.publish_at', 'is', null);
    if (search) qb = qb.where(sql<boolean>`lower(a.title) like ${`%${escapeLike(search.toLowerCase())}%`}`);
    const [rows, count] = await Promise.all([
      qb.orderBy('a.changed', 'desc').orderBy('a.id', 'desc').limit(limit).offset(offset).execute(),
      qb
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    reply.header('Cache-Control', 'no-store');
    return {
      data: rows.map((r) => {
        const a = articleJson(recordOf(r));
        return {
          id: a.id,
          title: a.title,
          path: a.path,
          state: a.state,
          publishAt: a.publishAt,
          version: a.version,
          changed: a.changed,
          category: r.category_name,
        };
      }),
      meta: { count: Number(count.n) },
    };
  });

  app.get('/admin-api/content/categories', async (request, reply) => {
    guard(request);
    const rows = await contentDb(app.db)
      .selectFrom('news_categories')
      .select(['uuid', 'name'])
      .orderBy('weight')
      .orderBy('name')
      .execute();
    reply.header('Cache-Control', 'no-store');
    return { data: rows.map((r) => ({ id: r.uuid, name: r.name })) };
  });

  app.get<Params>('/admin-api/content/articles/:id', async (request, reply) => {
    guard(request);
    const a = await found(request.params.id);
    reply.header('Cache-Control', 'no-store').header('ETag', etagOf(a.version));
    return { data: articleJson(a) };
  });

  app.post('/admin-api/content/articles', async (request, reply) => {
    guard(request);
    const fields = parseBody(fieldsSchema, request.body) as ArticleFields;
    const article = await app.db.transaction().execute(async (trx) => {
      const input = await toInput(trx, fields, undefined);
      const { uuid } = await contentRepo(trx).saveArticle(input, undefined, { editedAt: new Date() });
      const created = (await findArticle(trx, uuid))!;
      const actor = actorOf(request);
      await storeRevision(trx, actor, created);
      await recordAudit(trx, actor, {
        action: 'article.created',
        targetType: 'article',
        targetId: created.uuid,
        targetLabel: created.fields.title,
        after: auditValue(created),
      });
      return created;
    });
    return reply
      .code(201)
      .header('Cache-Control', 'no-store')
      .header('ETag', etagOf(article.version))
      .send({ data: articleJson(article) });
  });

  app.patch<Params>('/admin-api/content/articles/:id', async (request, reply) => {
    guard(request);
    const { version, ...rest } = parseBody(saveSchema, request.body);
    const fields = rest as ArticleFields;
    const expected = expectedVersion(request, version);
    const outcome = await saveOver(app.db, request, request.params.id, fields, expected, (before) =>
      fields.state === 'published' && before.fields.state !== 'published'
        ? 'article.published'
        : 'article.updated',
    );
    if (!outcome.ok) return sendConflict(reply, outcome.current, fields);
    return reply
      .header('Cache-Control', 'no-store')
      .header('ETag', etagOf(outcome.article.version))
      .send({ data: articleJson(outcome.article) });
  });

  app.delete<Params>('/admin-api/content/articles/:id', async (request, reply) => {
    guard(request);
    const expected = deleteVersion(request, M.errors.versionNeeded);
    const outcome = await app.db.transaction().execute(async (trx) => {
      const locked = UUID.test(request.params.id)
        ? await contentDb(trx)
            .selectFrom('articles')
            .select(['id', 'version'])
            .where('uuid', '=', request.params.id.toLowerCase())
            .forUpdate()
            .executeTakeFirst()
        : undefined;
      if (!locked) throw notFound(M.articles.notFound);
      const before = (await findArticle(trx, request.params.id))!;
      if (expected !== 'any' && expected !== locked.version) return before;
      await contentRepo(trx).deleteArticles([before.id]);
      await recordAudit(trx, actorOf(request), {
        action: 'article.deleted',
        targetType: 'article',
        targetId: before.uuid,
        targetLabel: before.fields.title,
        before: auditValue(before),
      });
      return undefined;
    });
    if (outcome) return sendConflict(reply, outcome, outcome.fields);
    return reply.code(204).send();
  });

  app.get<Params>('/admin-api/content/articles/:id/revisions', async (request, reply) => {
    guard(request);
    const a = await found(request.params.id);
    const rows = await contentDb(app.db)
      .selectFrom('article_revisions')
      .select(['version', 'author_email', 'created'])
      .where('article_id', '=', a.id)
      .orderBy('version', 'desc')
      .execute();
    reply.header('Cache-Control', 'no-store');
    return {
      data: rows.map((r) => ({
        version: r.version,
        author: r.author_email,
        created: new Date(r.created).toISOString(),
        current: r.version === a.version,
      })),
      meta: { version: a.version },
    };
  });

  app.get<RevisionParams>('/admin-api/content/articles/:id/revisions/:version', async (request, reply) => {
    guard(request);
    const a = await found(request.params.id);
    const revision = await findRevision(app.db, a, request.params.version);
    reply.header('Cache-Control', 'no-store');
    // From the revision to the current version: what restoring it would undo.
    return {
      data: { ...revision, changes: fieldChanges(revision.fields, a.fields) },
      meta: { version: a.version },
    };
  });

  app.post<RevisionParams>(
    '/admin-api/content/articles/:id/revisions/:version/restore',
    async (request, reply) => {
      guard(request);
      const { version } = parseBody(restoreSchema, request.body);
      const expected = expectedVersion(request, version);
      const a = await found(request.params.id);
      const revision = await findRevision(app.db, a, request.params.version);
      const outcome = await saveOver(
        app.db,
        request,
        a.uuid,
        revision.fields,
        expected,
        () => 'article.restored',
      );
      if (!outcome.ok) return sendConflict(reply, outcome.current, revision.fields);
      return reply
        .header('Cache-Control', 'no-store')
        .header('ETag', etagOf(outcome.article.version))
        .send({ data: articleJson(outcome.article) });
    },
  );
}
