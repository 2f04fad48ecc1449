import { diffLines } from 'diff';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { stringify } from 'yaml';
import { z } from 'zod';
import {
  SITE_DOCUMENT_KEYS,
  type SiteDocument,
  type SiteDocumentChange,
  type SiteDocumentKey,
  type SiteRevision,
  type SiteSaveMode,
} from '@portico/contracts/console-site';
import { en } from '@portico/contracts/messages';
import { blockLayoutSchema, cookiesConsentSchema, type BlockLayout } from '@portico/contracts/site';
import type { Db } from '../../db/client.ts';
import { HttpErrorList } from '../../jsonapi/errors.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import { runInBackground } from '../../lib/background-task.ts';
import { expectedVersion } from '../../lib/console-edits.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { parseBody } from '../../lib/validation.ts';
import { publishAtOf, SCHEDULER_INTERVAL_MS, versioned } from '../../lib/versioned-content.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf } from '../audit/service.ts';
import { defaultConsent } from './defaults.ts';
import { siteTranslationRoutes } from './translations.ts';

/**
 * The site's own texts in the provider console (README.md 'Console'): content editors and
 * administrators read and save the block layout and the cookie popup's texts, each a whole
 * document, published at once or kept as the document's one pending version (a draft, or
 * scheduled: the versioned-content scheduler publishes it when due). Every save raises the
 * document's version and stores a revision; a save that started from an older version is refused
 * with 409 and the difference, line by line, as YAML.
 */

const M = en.console.site;
const ROLE = 'content_editor';

const schemas = {
  'block-layout': blockLayoutSchema,
  'cookies-consent': cookiesConsentSchema,
} as const;

const isKey = (key: string): key is SiteDocumentKey =>
  (SITE_DOCUMENT_KEYS as readonly string[]).includes(key);

/** What an empty install shows: the parsed empty layout, and the spec's cookie texts. */
function fallback(key: SiteDocumentKey): object {
  return key === 'block-layout' ? blockLayoutSchema.parse({}) : defaultConsent();
}

interface Stored {
  key: SiteDocumentKey;
  version: number;
  changed: Date;
  editedAt: Date | null;
  /** The live document: what the site shows. */
  data: object;
  /** The pending document (a draft, or scheduled when `publishAt`), or none. */
  draft: object | null;
  publishAt: Date | null;
  /** The versioned content's fields: the document as edited (the pending one, else the live one). */
  fields: object;
}

const parseJson = (value: unknown): object =>
  (typeof value === 'string' ? JSON.parse(value) : value) as object;

async function findDocument(db: Db, key: SiteDocumentKey, lock = false): Promise<Stored> {
  let q = db
    .selectFrom('site_content')
    .select(['data', 'version', 'updated_at', 'edited_at', 'draft', 'publish_at'])
    .where('key', '=', key);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) {
    const data = fallback(key);
    return {
      key,
      version: 0,
      changed: new Date(0),
      editedAt: null,
      data,
      draft: null,
      publishAt: null,
      fields: data,
    };
  }
  const draft = row.draft === null ? null : parseJson(row.draft);
  return {
    key,
    version: row.version,
    changed: new Date(row.updated_at),
    editedAt: row.edited_at ? new Date(row.edited_at) : null,
    data: row.data,
    draft,
    publishAt: row.publish_at ? new Date(row.publish_at) : null,
    fields: draft ?? row.data,
  };
}

function documentJson(d: Stored): SiteDocument {
  const parse = (data: object) => schemas[d.key].parse(data) as SiteDocument['content'];
  return {
    key: d.key,
    version: d.version,
    changed: d.changed.toISOString(),
    editedAt: d.editedAt?.toISOString() ?? null,
    content: parse(d.data),
    draft: d.draft ? parse(d.draft) : null,
    publishAt: d.publishAt?.toISOString() ?? null,
  };
}

/** What a save does: `content` published, kept as the draft (scheduled at `publishAt`), or the draft dropped. */
interface SaveInput {
  mode: SiteSaveMode | 'discard';
  content: object | null;
  publishAt: Date | null;
}

/**
 * The content checked against the document's schema: every problem at once (422, each with its
 * JSON pointer under /content), and the HTML of banners and Getting Started blocks sanitized.
 */
function checkedContent(key: SiteDocumentKey, content: unknown): object {
  const parsed = schemas[key].safeParse(content, { reportInput: true });
  if (!parsed.success) {
    const entries = parsed.error.issues.map((issue) => ({
      detail: `${issue.path.map(String).join('.') || 'content'}: ${issue.message}`,
      pointer: `/content${issue.path.length ? `/${issue.path.map(String).join('/')}` : ''}`,
    }));
    throw new HttpErrorList(
      422,
      M.invalid.replace('{{problems}}', entries.map((e) => e.detail).join('; ')),
      entries,
      { code: 'invalid_input', issues: parsed.error.issues },
    );
  }
  if (key !== 'block-layout') return parsed.data;
  const layout = parsed.data as BlockLayout;
  return {
    ...layout,
    bottomBanners: layout.bottomBanners.map((b) => ({ ...b, description: cleanHtml(b.description) })),
    gettingStarted: layout.gettingStarted.map((b) => ({ ...b, description: cleanHtml(b.description) })),
  };
}

/**
 * The lines that differ between two versions of a document, as the YAML the files hold. Both are
 * read through the document's schema first: its members in one order (the database's jsonb keeps
 * its own), so only real changes differ.
 */
export function documentChanges(key: SiteDocumentKey, mine: unknown, theirs: unknown): SiteDocumentChange[] {
  const text = (value: unknown) => stringify(schemas[key].parse(value), { lineWidth: 0 });
  return diffLines(text(mine), text(theirs)).map((p) => ({
    value: p.value,
    added: !!p.added,
    removed: !!p.removed,
  }));
}

const modeSchema = z.enum(['publish', 'draft', 'schedule']);
const saveSchema = z
  .object({
    content: z.unknown(),
    version: z.number().int().nonnegative().optional(),
    mode: modeSchema.default('publish'),
    publishAt: z.string().nullable().optional(),
  })
  .strict();
const restoreSchema = z
  .object({
    version: z.number().int().nonnegative().optional(),
    mode: z.enum(['publish', 'draft']).default('publish'),
  })
  .strict();
const discardSchema = z.object({ version: z.number().int().nonnegative().optional() }).strict();

/** The audit's action of a save. */
function actionOf(input: SaveInput, before: Stored): string {
  if (input.mode === 'draft') return 'site_content.draft_saved';
  if (input.mode === 'schedule') return 'site_content.scheduled';
  if (input.mode === 'discard') return 'site_content.draft_discarded';
  return before.draft ? 'site_content.published' : 'site_content.updated';
}

/**
 * The site's documents as versioned content (lib/versioned-content.ts): keyed by their key
 * (`content_revisions.item_key`), never deleted, a document nobody saved yet is version 0 (the
 * first save inserts its row), and what differs is the YAML's lines.
 */
const siteContent = versioned<object, Stored, SaveInput>({
  kind: 'site_content',
  role: ROLE,
  messages: {
    forbidden: en.console.content.forbidden,
    notFound: M.errors.unknownDocument,
    stale: M.errors.stale,
    versionNeeded: M.errors.versionNeeded,
    noRevision: M.errors.noRevision,
  },
  find: (db, key, lock) => (isKey(key) ? findDocument(db, key, lock) : Promise.resolve(undefined)),
  ref: (d) => d.key,
  id: (d) => d.key,
  json: documentJson,
  changes: (from, to, d) => documentChanges(d.key, from, to),
  async store(trx, input, before) {
    if (input.mode === 'discard' && !before.draft) throw new HttpError(409, M.errors.noDraft);
    const now = new Date();
    const content = input.content === null ? null : JSON.stringify(input.content);
    // Published: the content goes live and a pending version goes. Otherwise the live document
    // stays, and the content becomes (or, discarded, stops being) the pending one.
    const live = input.mode === 'publish' ? content! : JSON.stringify(before.data);
    const draft = input.mode === 'draft' || input.mode === 'schedule' ? content : null;
    const publishAt = input.mode === 'schedule' ? input.publishAt : null;
    // The row is locked when it exists; the first save of a document nobody imported is an insert,
    // and of two such saves at once the second finds the row: its save starts again and is told.
    if (before.version === 0) {
      const row = await trx
        .insertInto('site_content')
        .values({ key: before.key, data: live, draft, publish_at: publishAt, version: 1, edited_at: now })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('version')
        .executeTakeFirst();
      if (!row) throw new StaleInsert();
      return;
    }
    await trx
      .updateTable('site_content')
      .set((eb) => ({
        data: live,
        draft,
        publish_at: publishAt,
        version: eb('version', '+', 1),
        edited_at: now,
        updated_at: now,
      }))
      .where('key', '=', before.key)
      .execute();
  },
  sentFields: (input, current) => input.content ?? current.data,
  revisionState: (d) => (d.draft ? (d.publishAt ? 'scheduled' : 'draft') : 'published'),
  audit: {
    targetType: 'site_content',
    label: (d) => d.key,
    value: (d) => ({
      version: d.version,
      content: d.data,
      ...(d.draft ? { draft: d.draft, publishAt: d.publishAt?.toISOString() ?? null } : {}),
    }),
    updated: 'site_content.updated',
    published: 'site_content.published',
    restored: 'site_content.restored',
  },
  // A pending document whose time has come goes live once, on one instance; the table's trigger
  // makes every instance's cached public answers stale.
  schedule: {
    table: 'site_content',
    what: 'publishing the scheduled site texts',
    pending: {
      due: sql<boolean>`draft is not null and publish_at <= now()`,
      publish: sql`data = draft, draft = null, publish_at = null, updated_at = now(), version = version + 1`,
      key: 'key',
    },
  },
});

/** Publishes the site documents whose scheduled version is due, once (lib/versioned-content.ts). */
export const publishDueSiteContent = (db: Db) => siteContent.publishDue(db);

/** Another first save inserted the document meanwhile. */
class StaleInsert extends Error {}

async function saveDocument(
  db: Db,
  request: FastifyRequest,
  key: SiteDocumentKey,
  input: SaveInput,
  expected: number,
  action: (before: Stored) => string,
) {
  try {
    return await siteContent.save(db, actorOf(request), key, input, expected, action);
  } catch (err) {
    if (!(err instanceof StaleInsert)) throw err;
    return { ok: false as const, current: await findDocument(db, key) };
  }
}

type KeyParams = { Params: { key: string } };
type RevisionParams = { Params: { key: string; version: string } };

/** The console's site routes (README.md 'Console'). */
export async function consoleSiteRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, en.console.content.forbidden);
  const keyOf = (raw: string): SiteDocumentKey => {
    if (!isKey(raw)) throw notFound(M.errors.unknownDocument);
    return raw;
  };

  app.get<KeyParams>('/admin-api/site/:key', async (request, reply) => {
    guard(request);
    const document = await findDocument(app.db, keyOf(request.params.key));
    return siteContent.send(reply, document);
  });

  runInBackground(app, SCHEDULER_INTERVAL_MS, 'publishing the scheduled site texts', async () => {
    await siteContent.publishDue(app.db);
  });

  app.put<KeyParams>('/admin-api/site/:key', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const body = parseBody(saveSchema, request.body);
    const expected = expectedVersion(request, body.version, M.errors.versionNeeded);
    const data = checkedContent(key, body.content);
    const publishAt = publishAtOf({
      state: body.mode === 'schedule' ? 'scheduled' : body.mode,
      publishAt: body.publishAt ?? null,
    });
    const input: SaveInput = { mode: body.mode, content: data, publishAt };
    const outcome = await saveDocument(app.db, request, key, input, expected, (before) =>
      actionOf(input, before),
    );
    if (!outcome.ok) return siteContent.conflict(reply, outcome.current, data);
    return siteContent.send(reply, outcome.record);
  });

  // Drops the pending version: the live document stays what the site shows.
  app.delete<KeyParams>('/admin-api/site/:key/draft', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const body = parseBody(discardSchema, request.body ?? {});
    const expected = expectedVersion(request, body.version, M.errors.versionNeeded);
    const input: SaveInput = { mode: 'discard', content: null, publishAt: null };
    const outcome = await saveDocument(app.db, request, key, input, expected, (before) =>
      actionOf(input, before),
    );
    if (!outcome.ok) return siteContent.conflict(reply, outcome.current, outcome.current.fields);
    return siteContent.send(reply, outcome.record);
  });

  app.get<KeyParams>('/admin-api/site/:key/revisions', async (request, reply) => {
    guard(request);
    const document = await findDocument(app.db, keyOf(request.params.key));
    const data: SiteRevision[] = (await siteContent.revisions(app.db, document, 100)).map((r) => ({
      version: r.version,
      author: r.author,
      created: r.created,
      state: r.state ?? null,
    }));
    reply.header('Cache-Control', 'no-store');
    return { data };
  });

  app.get<RevisionParams>('/admin-api/site/:key/revisions/:version', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const current = await findDocument(app.db, key);
    const { fields } = await siteContent.revision(app.db, current, request.params.version);
    reply.header('Cache-Control', 'no-store');
    return {
      data: {
        version: Number(request.params.version),
        content: schemas[key].parse(fields),
        changes: documentChanges(key, current.fields, fields),
      },
    };
  });

  app.post<RevisionParams>('/admin-api/site/:key/revisions/:version/restore', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const body = parseBody(restoreSchema, request.body);
    const expected = expectedVersion(request, body.version, M.errors.versionNeeded);
    const current = await findDocument(app.db, key);
    const revision = await siteContent.revision(app.db, current, request.params.version);
    const data = checkedContent(key, revision.fields);
    const input: SaveInput = { mode: body.mode, content: data, publishAt: null };
    const outcome = await saveDocument(app.db, request, key, input, expected, () => 'site_content.restored');
    if (!outcome.ok) return siteContent.conflict(reply, outcome.current, data);
    return siteContent.send(reply, outcome.record);
  });

  // The documents' translations (decision 064): overlays over the live document's texts.
  siteTranslationRoutes(app, async (db, key) => schemas[key].parse((await findDocument(db, key)).data));
}
