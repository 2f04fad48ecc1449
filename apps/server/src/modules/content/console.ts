import { ARTICLE_STATES, type ArticleFields, type ArticleState } from '@portico/contracts/console-content';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import {
  fieldChanges as changesOf,
  pageParam,
  searchParam,
  type FieldChange as AnyFieldChange,
} from '../../lib/console-edits.ts';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { publishAtOf, versioned, versionedRoutes, whereState } from '../../lib/versioned-content.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { translationRoutes } from '../../lib/translations.ts';
import { actorOf } from '../audit/service.ts';
import { normalizeAlias, renderMarkdown } from '../pages/service.ts';
import { parseBody } from '../../lib/validation.ts';
import { refuseBrokenLinks, refuseLinksTo } from './links.ts';
import { ARTICLE_SEARCH, contentRepo } from './repo.ts';
import { ARTICLE_TRANSLATION_FIELDS } from './translatable.ts';
import { contentDb } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * Articles edited in the provider console (README.md 'Console'): content editors and
 * administrators list, create, update, schedule, publish and delete articles; every save stores a
 * revision and raises the article's version, and an update that started from an older version is
 * refused with 409 and what differs.
 */

const M = en.console.content;
const ROLE = 'content_editor';

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
      .regex(/^(https:\/\/|\/)/, en.api.httpsOrPath)
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

async function findArticle(db: Db, uuid: string, lock = false): Promise<ArticleRecord | undefined> {
  if (!UUID.test(uuid)) return undefined;
  if (lock) {
    const locked = await contentDb(db)
      .selectFrom('articles')
      .select('id')
      .where('uuid', '=', uuid.toLowerCase())
      .forUpdate()
      .executeTakeFirst();
    if (!locked) return undefined;
  }
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

/** Checks fields against the database and turns them into the repo's input. */
async function toInput(
  trx: Db,
  fields: ArticleFields,
  existing: ArticleRecord | undefined,
  contentDir: string,
) {
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
  const publishAt = publishAtOf(fields);
  const markdown = fields.body.trim();
  // The import checks the body and the image of an article file: so does the console (links.ts).
  await refuseBrokenLinks(trx, contentDir, [
    { pointer: '/body', text: markdown },
    ...(fields.imageUrl?.startsWith('/') ? [{ pointer: '/imageUrl', target: fields.imageUrl }] : []),
  ]);
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

/** Audit values: the fields less the body (its length instead), and the version. */
function auditValue(a: ArticleRecord) {
  const { body, ...rest } = a.fields;
  return { ...rest, bodyLength: body.length, version: a.version };
}

/**
 * Articles as versioned content (lib/versioned-content.ts); a save checks its internal links
 * against the database and the image folders of `contentDir` (undefined: a component that only
 * publishes, and saves nothing).
 */
function articleComponent(contentDir: string | undefined) {
  return versioned<ArticleFields, ArticleRecord>({
    kind: 'article',
    role: ROLE,
    messages: {
      forbidden: M.forbidden,
      notFound: M.articles.notFound,
      stale: M.errors.stale,
      versionNeeded: M.errors.versionNeeded,
      noRevision: M.errors.noRevision,
    },
    find: findArticle,
    ref: (a) => a.id,
    id: (a) => a.uuid,
    json: articleJson,
    fieldNames: FIELD_NAMES,
    lineFields: ['body'],
    async store(trx, fields, before) {
      if (contentDir === undefined) throw new Error('This article component saves nothing');
      const input = await toInput(trx, fields, before, contentDir);
      await contentRepo(trx).saveArticle(input, { id: before.id }, { editedAt: new Date() });
      // A path the article gives up must be one no article or FAQ text links to (links.ts).
      const old = before.fields.path ? normalizeAlias(before.fields.path) : undefined;
      if (old && old !== input.path) await refuseLinksTo(trx, [old], '/path');
    },
    async remove(trx, a) {
      await contentRepo(trx).deleteArticles([a.id]);
      const path = a.fields.path ? normalizeAlias(a.fields.path) : undefined;
      if (path) await refuseLinksTo(trx, [path]);
    },
    // A news category deleted since (category-console.ts) is no category now.
    async restoreInput(db, fields) {
      const category =
        fields.category &&
        (await contentDb(db)
          .selectFrom('news_categories')
          .select('id')
          .where('uuid', '=', fields.category)
          .executeTakeFirst())
          ? fields.category
          : null;
      return { ...fields, category };
    },
    publishes: (fields, before) => fields.state === 'published' && before.fields.state !== 'published',
    audit: {
      targetType: 'article',
      label: (a) => a.fields.title,
      value: auditValue,
      created: 'article.created',
      updated: 'article.updated',
      published: 'article.published',
      restored: 'article.restored',
      deleted: 'article.deleted',
    },
    schedule: {
      table: 'articles',
      what: 'scheduled article publication',
      published: (trx, ids) => contentRepo(trx).reindexArticles(ids),
    },
  });
}

/**
 * Publishes the scheduled articles whose time has come, once (lib/versioned-content.ts
 * `publishDue`): search rows, a revision and the audit entry in the same transaction.
 */
export const publishDueArticles = (db: Db): Promise<string[]> => articleComponent(undefined).publishDue(db);

/** The console's article routes (README.md 'Console'). */
export async function consoleArticleRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);
  const { contentDir } = app.config;
  const articleContent = articleComponent(contentDir);

  app.get<{ Querystring: Record<string, unknown> }>('/admin-api/content/articles', async (request, reply) => {
    guard(request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 20, 100) || 20;
    const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
    const state = q.state;
    if (state !== undefined && state !== '' && !(ARTICLE_STATES as readonly unknown[]).includes(state))
      throw badRequest(`state must be one of ${ARTICLE_STATES.join(', ')}.`, 'state');
    const search = searchParam(q.q);
    let qb = articleQuery(app.db).where(whereState(state, 'a'));
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

  app.post('/admin-api/content/articles', async (request, reply) => {
    guard(request);
    const fields = parseBody(fieldsSchema, request.body) as ArticleFields;
    const article = await articleContent.create(app.db, actorOf(request), async (trx) => {
      const input = await toInput(trx, fields, undefined, contentDir);
      const { uuid } = await contentRepo(trx).saveArticle(input, undefined, { editedAt: new Date() });
      return uuid;
    });
    return articleContent.send(reply, article, 201);
  });

  versionedRoutes(app, articleContent, '/admin-api/content/articles', (body) => {
    const { version, ...rest } = parseBody(saveSchema, body);
    return { version, input: rest as ArticleFields };
  });

  // The article's translations (decision 063): its texts; the body rendered and sanitized as a save's.
  translationRoutes(app, {
    entityType: 'article',
    base: '/admin-api/content/articles',
    search: ARTICLE_SEARCH,
    role: ROLE,
    messages: { forbidden: M.forbidden, notFound: M.articles.notFound },
    async find(db, id) {
      const a = await findArticle(db, id);
      return a && { ref: a.uuid, label: a.fields.title };
    },
    fields: ARTICLE_TRANSLATION_FIELDS,
  });
}
