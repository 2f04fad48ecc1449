import { diffLines } from 'diff';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stringify } from 'yaml';
import { z } from 'zod';
import {
  SITE_DOCUMENT_KEYS,
  type SiteDocument,
  type SiteDocumentChange,
  type SiteDocumentKey,
  type SiteRevision,
} from '@portico/contracts/console-site';
import { en } from '@portico/contracts/messages';
import { blockLayoutSchema, cookiesConsentSchema, type BlockLayout } from '@portico/contracts/site';
import type { Db } from '../../db/client.ts';
import { HttpErrorList } from '../../jsonapi/errors.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import { etagOf, expectedVersion, sendConflict } from '../../lib/console-edits.ts';
import { notFound } from '../../lib/errors.ts';
import { parseBody } from '../../lib/validation.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit, type AuditActor } from '../audit/service.ts';
import { defaultConsent } from './defaults.ts';

/**
 * The site's own texts in the provider console (README.md 'Console'): content editors and
 * administrators read and save the block layout and the cookie popup's texts, each a whole
 * document. Every save raises the document's version and stores a revision; a save that started
 * from an older version is refused with 409 and the difference, line by line, as YAML.
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
  data: object;
}

async function findDocument(db: Db, key: SiteDocumentKey, lock = false): Promise<Stored> {
  let q = db
    .selectFrom('site_content')
    .select(['data', 'version', 'updated_at', 'edited_at'])
    .where('key', '=', key);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) return { key, version: 0, changed: new Date(0), editedAt: null, data: fallback(key) };
  return {
    key,
    version: row.version,
    changed: new Date(row.updated_at),
    editedAt: row.edited_at ? new Date(row.edited_at) : null,
    data: row.data,
  };
}

function documentJson(d: Stored): SiteDocument {
  return {
    key: d.key,
    version: d.version,
    changed: d.changed.toISOString(),
    editedAt: d.editedAt?.toISOString() ?? null,
    content: schemas[d.key].parse(d.data) as SiteDocument['content'],
  };
}

/**
 * The content checked against the document's schema: every problem at once (422, each with its
 * JSON pointer under /content), and the HTML of banners and Getting Started blocks sanitized.
 */
function checkedContent(key: SiteDocumentKey, content: unknown): object {
  const parsed = schemas[key].safeParse(content);
  if (!parsed.success) {
    const entries = parsed.error.issues.map((issue) => ({
      detail: `${issue.path.map(String).join('.') || 'content'}: ${issue.message}`,
      pointer: `/content${issue.path.length ? `/${issue.path.map(String).join('/')}` : ''}`,
    }));
    throw new HttpErrorList(
      422,
      M.invalid.replace('{{problems}}', entries.map((e) => e.detail).join('; ')),
      entries,
      { code: 'invalid_input' },
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

const saveSchema = z
  .object({ content: z.unknown(), version: z.number().int().nonnegative().optional() })
  .strict();
const restoreSchema = z.object({ version: z.number().int().nonnegative().optional() }).strict();

type Outcome = { ok: true; document: Stored } | { ok: false; current: Stored };

/** Saves `data` over the document if it is still at `expected`, with its revision and audit entry. */
async function saveDocument(
  db: Db,
  actor: AuditActor,
  key: SiteDocumentKey,
  data: object,
  expected: number,
  action: string,
): Promise<Outcome> {
  return db.transaction().execute(async (trx) => {
    const before = await findDocument(trx, key, true);
    if (before.version !== expected) return { ok: false, current: before };
    const now = new Date();
    const json = JSON.stringify(data);
    // The row is locked above when it exists; the first save of a document nobody imported is an
    // insert, and of two such saves at once the second finds the row and is told.
    const row =
      before.version === 0
        ? await trx
            .insertInto('site_content')
            .values({ key, data: json, version: 1, edited_at: now })
            .onConflict((oc) => oc.column('key').doNothing())
            .returning(['version', 'updated_at'])
            .executeTakeFirst()
        : await trx
            .updateTable('site_content')
            .set((eb) => ({ data: json, version: eb('version', '+', 1), edited_at: now, updated_at: now }))
            .where('key', '=', key)
            .returning(['version', 'updated_at'])
            .executeTakeFirstOrThrow();
    if (!row) return { ok: false, current: await findDocument(trx, key) };
    await trx
      .insertInto('site_content_revisions')
      .values({
        key,
        version: row.version,
        author_id: actor.id,
        author_email: actor.email,
        data: json,
      })
      .execute();
    await recordAudit(trx, actor, {
      action,
      targetType: 'site_content',
      targetId: key,
      targetLabel: key,
      before: { version: before.version, content: before.data },
      after: { version: row.version, content: data },
    });
    return {
      ok: true,
      document: { key, version: row.version, changed: new Date(row.updated_at), editedAt: now, data },
    };
  });
}

function sendSaved(reply: FastifyReply, document: Stored) {
  return reply
    .header('Cache-Control', 'no-store')
    .header('ETag', etagOf(document.version))
    .send({ data: documentJson(document) });
}

function conflict(reply: FastifyReply, current: Stored, mine: unknown) {
  const message = M.errors.stale.replace('{{version}}', String(current.version));
  return sendConflict(
    reply,
    message,
    documentJson(current),
    documentChanges(current.key, mine, current.data),
  );
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
    return sendSaved(reply, document);
  });

  app.put<KeyParams>('/admin-api/site/:key', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const body = parseBody(saveSchema, request.body);
    const expected = expectedVersion(request, body.version, M.errors.versionNeeded);
    const data = checkedContent(key, body.content);
    const outcome = await saveDocument(app.db, actorOf(request), key, data, expected, 'site_content.updated');
    if (!outcome.ok) return conflict(reply, outcome.current, data);
    return sendSaved(reply, outcome.document);
  });

  app.get<KeyParams>('/admin-api/site/:key/revisions', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const rows = await app.db
      .selectFrom('site_content_revisions')
      .select(['version', 'author_email', 'created'])
      .where('key', '=', key)
      .orderBy('version', 'desc')
      .limit(100)
      .execute();
    reply.header('Cache-Control', 'no-store');
    const data: SiteRevision[] = rows.map((r) => ({
      version: r.version,
      author: r.author_email,
      created: new Date(r.created).toISOString(),
    }));
    return { data };
  });

  const findRevision = async (key: SiteDocumentKey, raw: string) => {
    if (!/^\d{1,9}$/.test(raw)) throw notFound(M.errors.noRevision);
    const row = await app.db
      .selectFrom('site_content_revisions')
      .select(['version', 'data'])
      .where('key', '=', key)
      .where('version', '=', Number(raw))
      .executeTakeFirst();
    if (!row) throw notFound(M.errors.noRevision);
    return (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as object;
  };

  app.get<RevisionParams>('/admin-api/site/:key/revisions/:version', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const data = await findRevision(key, request.params.version);
    const current = await findDocument(app.db, key);
    reply.header('Cache-Control', 'no-store');
    return {
      data: {
        version: Number(request.params.version),
        content: schemas[key].parse(data),
        changes: documentChanges(key, current.data, data),
      },
    };
  });

  app.post<RevisionParams>('/admin-api/site/:key/revisions/:version/restore', async (request, reply) => {
    guard(request);
    const key = keyOf(request.params.key);
    const body = parseBody(restoreSchema, request.body);
    const expected = expectedVersion(request, body.version, M.errors.versionNeeded);
    const data = checkedContent(key, await findRevision(key, request.params.version));
    const outcome = await saveDocument(
      app.db,
      actorOf(request),
      key,
      data,
      expected,
      'site_content.restored',
    );
    if (!outcome.ok) return conflict(reply, outcome.current, data);
    return sendSaved(reply, outcome.document);
  });
}
