import {
  PAGE_STATES,
  type PageFields,
  type PageListItem,
  type PageState,
} from '@portico/contracts/console-pages';
import { isWebRoute } from '@portico/contracts/web-routes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import { pageParam, searchParam } from '../../lib/console-edits.ts';
import { publishAtOf, versioned, versionedRoutes, whereState } from '../../lib/versioned-content.ts';
import { badRequest, HttpError } from '../../lib/errors.ts';
import { API_PREFIXES } from '../../plugins/web-app.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf } from '../audit/service.ts';
import { refuseLinksTo } from '../content/service.ts';
import { parseBody } from '../../lib/validation.ts';
import { translationRoutes } from '../../lib/translations.ts';
import { PAGE_TRANSLATION_FIELDS, renderMarkdown } from './importer.ts';
import { normalizeAlias, PAGE_SEARCH, pagesRepo, type PageInput } from './repo.ts';
import { pagesDb } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * Basic pages edited in the provider console (README.md 'Console'): content editors and
 * administrators list, create, update, publish and delete the pages; every save stores a revision
 * and raises the page's version, and an update that started from an older version is refused with
 * 409 and what differs. Articles work the same way (modules/content/console.ts).
 */

const M = en.console.pages;
const VERSION_NEEDED = en.console.content.errors.versionNeeded;
const ROLE = 'content_editor';

/** The lock the pages import takes (importer.ts): console saves and imports never interleave. */
const PAGES_LOCK = sql`select pg_advisory_xact_lock(hashtext('portico:pages-content'))`;

const FIELD_NAMES = [
  'title',
  'path',
  'aliases',
  'body',
  'imageUrl',
  'imageAlt',
  'scrollspy',
  'googleDriveId',
  'state',
  'publishAt',
] as const satisfies readonly (keyof PageFields)[];

/**
 * First path segments that are no page's: the web app's files (apps/web/public, Vite's assets),
 * the content images and the blog's and redirects' trees (their addresses are the web app's).
 */
const RESERVED_TOP = new Set([
  'assets',
  'images',
  'animation',
  'favicon.svg',
  'blog',
  'blog-images',
  'catalog',
  'news',
  'partner',
  'admin',
]);

const fieldsSchema = z
  .object({
    title: z.string().trim().min(1).max(255),
    path: z.string().trim().min(1).max(255),
    aliases: z.array(z.string().trim().min(1).max(255)).max(20).default([]),
    body: z.string().max(500_000).default(''),
    imageUrl: z
      .string()
      .trim()
      .regex(/^(https:\/\/|\/)/, en.api.httpsOrPath)
      .max(2000)
      .nullable()
      .default(null),
    imageAlt: z.string().trim().max(500).default(''),
    scrollspy: z.boolean().default(false),
    googleDriveId: z
      .string()
      .trim()
      .max(200)
      .regex(/^[A-Za-z0-9_-]*$/, en.api.documentId)
      .nullable()
      .default(null)
      .transform((v) => v || null),
    state: z.enum(PAGE_STATES).default('draft'),
    publishAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .strict();
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();

interface PageRecord {
  id: number;
  uuid: string;
  version: number;
  created: Date;
  changed: Date;
  editedAt: Date | null;
  sourceFile: string | null;
  sourceHash: string | null;
  authorId: number | null;
  fields: PageFields;
}

function pageQuery(db: Db) {
  return pagesDb(db)
    .selectFrom('pages as p')
    .select([
      'p.id',
      'p.uuid',
      'p.version',
      'p.alias',
      'p.title',
      'p.body_markdown',
      'p.body_html',
      'p.image_url',
      'p.image_alt',
      'p.scrollspy_visible',
      'p.google_drive_id',
      'p.published',
      'p.publish_at',
      'p.created',
      'p.changed',
      'p.edited_at',
      'p.source_file',
      'p.source_hash',
      'p.author_id',
    ])
    .select(
      sql<string[]>`coalesce((select array_agg(pa.alias order by pa.alias) from page_aliases pa
        where pa.page_id = p.id and pa.alias <> p.alias), '{}')`.as('aliases'),
    );
}
type PageQueryRow = Awaited<ReturnType<ReturnType<typeof pageQuery>['executeTakeFirstOrThrow']>>;

function stateOf(published: boolean, publishAt: Date | null): PageState {
  if (published) return 'published';
  return publishAt ? 'scheduled' : 'draft';
}

function recordOf(r: PageQueryRow): PageRecord {
  const publishAt = r.publish_at ? new Date(r.publish_at) : null;
  return {
    id: r.id,
    uuid: r.uuid,
    version: r.version,
    created: new Date(r.created),
    changed: new Date(r.changed),
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    sourceFile: r.source_file,
    sourceHash: r.source_hash,
    authorId: r.author_id,
    fields: {
      title: r.title,
      path: r.alias,
      aliases: r.aliases,
      // Rows imported before migration 0277 have no Markdown until the next import: HTML is Markdown too.
      body: r.body_markdown ?? r.body_html,
      imageUrl: r.image_url,
      imageAlt: r.image_alt ?? '',
      scrollspy: r.scrollspy_visible,
      googleDriveId: r.google_drive_id,
      state: stateOf(r.published, publishAt),
      publishAt: !r.published && publishAt ? publishAt.toISOString() : null,
    },
  };
}

async function findPage(db: Db, uuid: string, lock = false): Promise<PageRecord | undefined> {
  if (!UUID.test(uuid)) return undefined;
  let q = pageQuery(db).where('p.uuid', '=', uuid.toLowerCase());
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? recordOf(row) : undefined;
}

function pageJson(p: PageRecord) {
  return {
    id: p.uuid,
    version: p.version,
    created: p.created.toISOString(),
    changed: p.changed.toISOString(),
    editedAt: p.editedAt?.toISOString() ?? null,
    sourceFile: p.sourceFile,
    ...p.fields,
  };
}

const invalid = (message: string, pointer: string) =>
  new HttpError(400, message, { code: 'invalid_input', pointer });

/**
 * A path a page may have: a path alias (repo.ts) that no API, no page of the web app, no file and
 * no article answers, and no other page has. Returns it normalized.
 */
async function checkPath(trx: Db, raw: string, pointer: string, pageId: number | undefined): Promise<string> {
  const alias = normalizeAlias(raw);
  if (!alias || !raw.startsWith('/')) throw invalid(M.errors.pathInvalid, pointer);
  const top = alias.split('/')[1] ?? '';
  if (
    API_PREFIXES.some((p) => alias === p.replace(/\/$/, '') || alias.startsWith(p)) ||
    RESERVED_TOP.has(top) ||
    isWebRoute(alias)
  )
    throw invalid(M.errors.pathReserved, pointer);
  let page = pagesDb(trx).selectFrom('page_aliases').select('page_id').where('alias', '=', alias);
  if (pageId !== undefined) page = page.where('page_id', '<>', pageId);
  const article = await sql`select 1 from articles where path = ${alias}`.execute(trx);
  if ((await page.executeTakeFirst()) || article.rows.length) throw invalid(M.errors.pathTaken, pointer);
  return alias;
}

/** Checks fields against the database and turns them into the repo's input. */
async function toInput(trx: Db, fields: PageFields, existing: PageRecord | undefined): Promise<PageInput> {
  const path = await checkPath(trx, fields.path, '/path', existing?.id);
  const aliases = [path];
  for (const [i, raw] of fields.aliases.entries()) {
    const alias = await checkPath(trx, raw, `/aliases/${i}`, existing?.id);
    if (!aliases.includes(alias)) aliases.push(alias);
  }
  const markdown = fields.body.trim();
  const body = renderMarkdown(markdown).trim();
  if (!body && !fields.googleDriveId) throw invalid(M.errors.bodyNeeded, '/body');
  return {
    aliases,
    title: fields.title,
    body,
    bodyMarkdown: markdown,
    image: fields.imageUrl ? { url: fields.imageUrl, alt: fields.imageAlt } : null,
    authorId: existing?.authorId ?? null,
    googleDriveId: fields.googleDriveId,
    scrollspyVisible: fields.scrollspy,
    published: fields.state === 'published',
    publishAt: publishAtOf(fields),
    // The file's hash stays: the import tells an edited page by edited_at (README 'Console').
    sourceHash: existing?.sourceHash ?? null,
    sourceFile: existing?.sourceFile ?? null,
  };
}

/** The addresses a page answers: its path and its other aliases (stored normalized). */
const addressesOf = (p: PageRecord) => [p.fields.path, ...p.fields.aliases];

/** Audit values: the fields less the body (its length instead), and the version. */
function auditValue(p: PageRecord) {
  const { body, ...rest } = p.fields;
  return { ...rest, bodyLength: body.length, version: p.version };
}

/** Pages as versioned content (lib/versioned-content.ts). */
export const pageContent = versioned<PageFields, PageRecord>({
  kind: 'page',
  role: ROLE,
  messages: {
    forbidden: M.forbidden,
    notFound: M.list.notFound,
    stale: M.errors.stale,
    versionNeeded: VERSION_NEEDED,
    noRevision: en.console.content.errors.noRevision,
  },
  lock: PAGES_LOCK,
  find: findPage,
  ref: (p) => p.id,
  id: (p) => p.uuid,
  json: pageJson,
  fieldNames: FIELD_NAMES,
  lineFields: ['body', 'aliases'],
  async store(trx, fields, before) {
    const input = await toInput(trx, fields, before);
    await pagesRepo(trx).replace(before.id, input, { editedAt: new Date() });
    // An address the page gives up must be one no article or FAQ text links to (content/links.ts).
    const given = addressesOf(before).filter((a) => !input.aliases.includes(a));
    await refuseLinksTo(trx, given, given.includes(before.fields.path) ? '/path' : '/aliases');
  },
  async remove(trx, p) {
    await pagesRepo(trx).remove(p.id);
    await refuseLinksTo(trx, addressesOf(p));
  },
  publishes: (fields, before) => fields.state === 'published' && before.fields.state !== 'published',
  audit: {
    targetType: 'page',
    label: (p) => p.fields.title,
    value: auditValue,
    created: 'page.created',
    updated: 'page.updated',
    published: 'page.published',
    restored: 'page.restored',
    deleted: 'page.deleted',
  },
  schedule: {
    table: 'pages',
    what: 'scheduled page publication',
    published: (trx, ids) => pagesRepo(trx).reindex(ids),
  },
});

/** Publishes the scheduled pages whose time has come, once (lib/versioned-content.ts). */
export const publishDuePages = (db: Db) => pageContent.publishDue(db);

/** The console's page routes (README.md 'Console'). */
export async function consolePageRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);
  const BASE = '/admin-api/content/pages';

  app.get<{ Querystring: Record<string, unknown> }>(BASE, async (request, reply) => {
    guard(request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 20, 100) || 20;
    const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
    const state = q.state;
    if (state !== undefined && state !== '' && !(PAGE_STATES as readonly unknown[]).includes(state))
      throw badRequest(`state must be one of ${PAGE_STATES.join(', ')}.`, 'state');
    const search = searchParam(q.q);
    let qb = pageQuery(app.db).where(whereState(state, 'p'));
    if (search) {
      const like = `%${escapeLike(search.toLowerCase())}%`;
      qb = qb.where(sql<boolean>`(lower(p.title) like ${like} or p.alias like ${like})`);
    }
    const [rows, count] = await Promise.all([
      qb.orderBy('p.changed', 'desc').orderBy('p.id', 'desc').limit(limit).offset(offset).execute(),
      qb
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    reply.header('Cache-Control', 'no-store');
    return {
      data: rows.map((r): PageListItem => {
        const p = recordOf(r);
        return {
          id: p.uuid,
          title: p.fields.title,
          path: p.fields.path,
          state: p.fields.state,
          publishAt: p.fields.publishAt,
          version: p.version,
          changed: p.changed.toISOString(),
        };
      }),
      meta: { count: Number(count.n) },
    };
  });

  app.post(BASE, async (request, reply) => {
    guard(request);
    const fields = parseBody(fieldsSchema, request.body);
    const page = await pageContent.create(app.db, actorOf(request), async (trx) => {
      const { uuid } = await pagesRepo(trx).create(await toInput(trx, fields, undefined), {
        editedAt: new Date(),
      });
      return uuid;
    });
    return pageContent.send(reply, page, 201);
  });

  versionedRoutes(app, pageContent, BASE, (body) => {
    const { version, ...input } = parseBody(saveSchema, body);
    return { version, input };
  });

  // The page's translations (decision 063): title and body, rendered and sanitized as a save's.
  translationRoutes(app, {
    entityType: 'page',
    base: BASE,
    search: PAGE_SEARCH,
    role: ROLE,
    messages: { forbidden: M.forbidden, notFound: M.list.notFound },
    async find(db, id) {
      const p = await findPage(db, id);
      return p && { ref: p.uuid, label: p.fields.title };
    },
    fields: PAGE_TRANSLATION_FIELDS,
  });
}
