import { PAGE_STATES, type PageFields, type PageState } from '@portico/contracts/console-pages';
import { isWebRoute } from '@portico/contracts/web-routes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import {
  deleteVersion,
  etagOf,
  expectedVersion,
  fieldChanges,
  pageParam,
  sendConflict,
  UUID,
  type FieldChange,
} from '../../lib/console-edits.ts';
import { badRequest, HttpError, notFound } from '../../lib/errors.ts';
import { API_PREFIXES } from '../../plugins/web-app.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit, type AuditActor } from '../audit/service.ts';
import { parseBody } from '../../lib/validation.ts';
import { renderMarkdown } from './importer.ts';
import { normalizeAlias, pagesRepo, type PageInput } from './repo.ts';
import { pagesDb } from './tables.ts';

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
      .regex(/^(https:\/\/|\/)/, 'must be an https URL or a path starting with /')
      .max(2000)
      .nullable()
      .default(null),
    imageAlt: z.string().trim().max(500).default(''),
    scrollspy: z.boolean().default(false),
    googleDriveId: z
      .string()
      .trim()
      .max(200)
      .regex(/^[A-Za-z0-9_-]*$/, 'must be a document id of letters, digits, _ and -')
      .nullable()
      .default(null)
      .transform((v) => v || null),
    state: z.enum(PAGE_STATES).default('draft'),
  })
  .strict();
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();
const restoreSchema = z.object({ version: z.number().int().positive().optional() }).strict();

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

function recordOf(r: PageQueryRow): PageRecord {
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
      state: r.published ? 'published' : 'draft',
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

const changesOf = (from: PageFields, to: PageFields): FieldChange<keyof PageFields>[] =>
  fieldChanges(from, to, FIELD_NAMES, ['body', 'aliases']);

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
    // The file's hash stays: the import tells an edited page by edited_at (README 'Console').
    sourceHash: existing?.sourceHash ?? null,
    sourceFile: existing?.sourceFile ?? null,
  };
}

async function storeRevision(trx: Db, actor: AuditActor, page: PageRecord): Promise<void> {
  await pagesDb(trx)
    .insertInto('page_revisions')
    .values({
      page_id: page.id,
      version: page.version,
      author_id: actor.id,
      author_email: actor.email,
      fields: JSON.stringify(page.fields),
    })
    .execute();
}

/** Audit values: the fields less the body (its length instead), and the version. */
function auditValue(p: PageRecord) {
  const { body, ...rest } = p.fields;
  return { ...rest, bodyLength: body.length, version: p.version };
}

type SaveOutcome = { ok: true; page: PageRecord } | { ok: false; current: PageRecord };

/** Saves `fields` over the page `uuid` if it is still at `expected`; audited as `action`. */
function saveOver(
  db: Db,
  request: FastifyRequest,
  uuid: string,
  fields: PageFields,
  expected: number | 'any',
  action: (before: PageRecord) => string,
): Promise<SaveOutcome> {
  return db.transaction().execute(async (trx) => {
    await PAGES_LOCK.execute(trx);
    const before = await findPage(trx, uuid, true);
    if (!before) throw notFound(M.list.notFound);
    if (expected !== 'any' && before.version !== expected) return { ok: false, current: before };
    const input = await toInput(trx, fields, before);
    await pagesRepo(trx).replace(before.id, input, { editedAt: new Date() });
    const after = (await findPage(trx, uuid))!;
    const actor = actorOf(request);
    await storeRevision(trx, actor, after);
    await recordAudit(trx, actor, {
      action: action(before),
      targetType: 'page',
      targetId: after.uuid,
      targetLabel: after.fields.title,
      before: auditValue(before),
      after: auditValue(after),
    });
    return { ok: true, page: after };
  });
}

function conflict(reply: FastifyReply, current: PageRecord, mine: PageFields) {
  const message = M.errors.stale.replace('{{version}}', String(current.version));
  return sendConflict(reply, message, pageJson(current), changesOf(mine, current.fields));
}

function sendPage(reply: FastifyReply, page: PageRecord, status = 200) {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('ETag', etagOf(page.version))
    .send({ data: pageJson(page) });
}

async function findRevision(db: Db, page: PageRecord, raw: string) {
  if (!/^\d{1,9}$/.test(raw)) throw notFound(en.console.content.errors.noRevision);
  const row = await pagesDb(db)
    .selectFrom('page_revisions')
    .select(['version', 'author_email', 'created', 'fields'])
    .where('page_id', '=', page.id)
    .where('version', '=', Number(raw))
    .executeTakeFirst();
  if (!row) throw notFound(en.console.content.errors.noRevision);
  const stored = typeof row.fields === 'string' ? (JSON.parse(row.fields) as unknown) : row.fields;
  return {
    version: row.version,
    author: row.author_email,
    created: new Date(row.created).toISOString(),
    fields: stored as PageFields,
  };
}

type Params = { Params: { id: string } };
type RevisionParams = { Params: { id: string; version: string } };

/** The console's page routes (README.md 'Console'). */
export async function consolePageRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);
  const found = async (uuid: string) => {
    const p = await findPage(app.db, uuid);
    if (!p) throw notFound(M.list.notFound);
    return p;
  };
  const BASE = '/admin-api/content/pages';

  app.get<{ Querystring: Record<string, unknown> }>(BASE, async (request, reply) => {
    guard(request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 20, 100) || 20;
    const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
    const state = q.state;
    if (state !== undefined && state !== '' && !(PAGE_STATES as readonly unknown[]).includes(state))
      throw badRequest(`state must be one of ${PAGE_STATES.join(', ')}.`, 'state');
    const search = q.q;
    if (search !== undefined && (typeof search !== 'string' || search.length > 200))
      throw badRequest('q must be a text of at most 200 characters.', 'q');
    let qb = pageQuery(app.db);
    if (state) qb = qb.where('p.published', '=', (state as PageState) === 'published');
    if (typeof search === 'string' && search.trim()) {
      const like = `%${escapeLike(search.trim().toLowerCase())}%`;
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
      data: rows.map((r) => {
        const p = recordOf(r);
        return {
          id: p.uuid,
          title: p.fields.title,
          path: p.fields.path,
          state: p.fields.state,
          version: p.version,
          changed: p.changed.toISOString(),
        };
      }),
      meta: { count: Number(count.n) },
    };
  });

  app.get<Params>(`${BASE}/:id`, async (request, reply) => {
    guard(request);
    const p = await found(request.params.id);
    reply.header('Cache-Control', 'no-store').header('ETag', etagOf(p.version));
    return { data: pageJson(p) };
  });

  app.post(BASE, async (request, reply) => {
    guard(request);
    const fields = parseBody(fieldsSchema, request.body);
    const page = await app.db.transaction().execute(async (trx) => {
      await PAGES_LOCK.execute(trx);
      const input = await toInput(trx, fields, undefined);
      const { uuid } = await pagesRepo(trx).create(input, { editedAt: new Date() });
      const created = (await findPage(trx, uuid))!;
      const actor = actorOf(request);
      await storeRevision(trx, actor, created);
      await recordAudit(trx, actor, {
        action: 'page.created',
        targetType: 'page',
        targetId: created.uuid,
        targetLabel: created.fields.title,
        after: auditValue(created),
      });
      return created;
    });
    return sendPage(reply, page, 201);
  });

  app.patch<Params>(`${BASE}/:id`, async (request, reply) => {
    guard(request);
    const { version, ...fields } = parseBody(saveSchema, request.body);
    const expected = expectedVersion(request, version, VERSION_NEEDED);
    const outcome = await saveOver(app.db, request, request.params.id, fields, expected, (before) =>
      fields.state === 'published' && before.fields.state !== 'published' ? 'page.published' : 'page.updated',
    );
    if (!outcome.ok) return conflict(reply, outcome.current, fields);
    return sendPage(reply, outcome.page);
  });

  app.delete<Params>(`${BASE}/:id`, async (request, reply) => {
    guard(request);
    const expected = deleteVersion(request, VERSION_NEEDED);
    const stale = await app.db.transaction().execute(async (trx) => {
      await PAGES_LOCK.execute(trx);
      const before = await findPage(trx, request.params.id, true);
      if (!before) throw notFound(M.list.notFound);
      if (expected !== 'any' && expected !== before.version) return before;
      await pagesRepo(trx).remove(before.id);
      await recordAudit(trx, actorOf(request), {
        action: 'page.deleted',
        targetType: 'page',
        targetId: before.uuid,
        targetLabel: before.fields.title,
        before: auditValue(before),
      });
      return undefined;
    });
    if (stale) return conflict(reply, stale, stale.fields);
    return reply.code(204).send();
  });

  app.get<Params>(`${BASE}/:id/revisions`, async (request, reply) => {
    guard(request);
    const p = await found(request.params.id);
    const rows = await pagesDb(app.db)
      .selectFrom('page_revisions')
      .select(['version', 'author_email', 'created'])
      .where('page_id', '=', p.id)
      .orderBy('version', 'desc')
      .execute();
    reply.header('Cache-Control', 'no-store');
    return {
      data: rows.map((r) => ({
        version: r.version,
        author: r.author_email,
        created: new Date(r.created).toISOString(),
        current: r.version === p.version,
      })),
      meta: { version: p.version },
    };
  });

  app.get<RevisionParams>(`${BASE}/:id/revisions/:version`, async (request, reply) => {
    guard(request);
    const p = await found(request.params.id);
    const revision = await findRevision(app.db, p, request.params.version);
    reply.header('Cache-Control', 'no-store');
    // From the revision to the current version: what restoring it would undo.
    return {
      data: { ...revision, changes: changesOf(revision.fields, p.fields) },
      meta: { version: p.version },
    };
  });

  app.post<RevisionParams>(`${BASE}/:id/revisions/:version/restore`, async (request, reply) => {
    guard(request);
    const { version } = parseBody(restoreSchema, request.body);
    const expected = expectedVersion(request, version, VERSION_NEEDED);
    const p = await found(request.params.id);
    const revision = await findRevision(app.db, p, request.params.version);
    const outcome = await saveOver(app.db, request, p.uuid, revision.fields, expected, () => 'page.restored');
    if (!outcome.ok) return conflict(reply, outcome.current, revision.fields);
    return sendPage(reply, outcome.page);
  });
}
