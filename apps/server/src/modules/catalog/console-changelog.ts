import {
  CHANGELOG_NOTES_MAX,
  CHANGELOG_VERSION_MAX,
  type ChangelogEntryFields,
  type ConsoleChangelogEntry,
} from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  deleteVersion,
  etagOf,
  expectedVersion,
  sendConflict as sendConflictOf,
} from '../../lib/console-edits.ts';
import { notFound } from '../../lib/errors.ts';
import { parseBody } from '../../lib/validation.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { changelogHtml } from './changelog-html.ts';
import { UUID } from './repo.ts';
import { catalogDb } from './tables.ts';

/**
 * A product's changelog edited in the provider console (issue 27, README.md 'Console: API
 * products'): API managers and administrators list, add, edit and delete the entries the product
 * page lists under Changelog. Notes are written in Markdown and stored with their HTML (sanitized
 * like the content files'); every save raises the entry's version (a stale one is a 409), is
 * audited in its transaction and stamps the product's `changelog_edited_at`, so the content import
 * leaves that changelog alone and `export-content` writes it to the product's file.
 */

const M = en.console.products;
const E = M.errors;

const requireManager = (request: FastifyRequest) =>
  requireProviderRole(request, 'api_manager', M.managersOnly);

export { changelogHtml };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: string) => DAY.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

const fieldsSchema = z
  .object({
    releaseVersion: z.string().trim().min(1).max(CHANGELOG_VERSION_MAX),
    releaseDate: z
      .string()
      .trim()
      .nullable()
      .default(null)
      .transform((v) => v || null)
      .refine((v) => v === null || validDay(v), E.releaseDateInvalid),
    notes: z.string().max(CHANGELOG_NOTES_MAX).default(''),
  })
  .strict();
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();

type Row = {
  id: number;
  uuid: string;
  version: string;
  release_date: Date | string | null;
  notes: string;
  notes_markdown: string | null;
  edit_version: number;
  created: Date;
  changed: Date;
};

const dayOf = (d: Date | string | null) =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

function entryJson(r: Row): ConsoleChangelogEntry {
  return {
    id: r.uuid,
    releaseVersion: r.version,
    releaseDate: dayOf(r.release_date),
    // An entry from a content file or an older publication has only its HTML: Markdown keeps it.
    notes: r.notes_markdown ?? r.notes,
    html: r.notes,
    version: r.edit_version,
    created: new Date(r.created).toISOString(),
    changed: new Date(r.changed).toISOString(),
  };
}

const COLUMNS = [
  'e.id',
  'e.uuid',
  'e.version',
  'e.release_date',
  'e.notes',
  'e.notes_markdown',
  'e.edit_version',
  'e.created',
  'e.changed',
] as const;

async function productOf(db: Db, id: string) {
  const product = UUID.test(id)
    ? await catalogDb(db)
        .selectFrom('api_products')
        .select(['id', 'uuid', 'title'])
        .where('uuid', '=', id.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!product) throw notFound(E.notFound);
  return product;
}

async function entryOf(db: Db, productId: number, entryId: string, lock = false): Promise<Row> {
  let query = catalogDb(db)
    .selectFrom('change_log_entries as e')
    .select(COLUMNS)
    .where('e.product_id', '=', productId)
    .where(
      'e.uuid',
      '=',
      UUID.test(entryId) ? entryId.toLowerCase() : '00000000-0000-0000-0000-000000000000',
    );
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(E.changelogNotFound);
  return row;
}

/** Audit values: the fields with the notes' length instead of their text, and the version. */
const auditValue = (r: Row) => ({
  releaseVersion: r.version,
  releaseDate: dayOf(r.release_date),
  notesLength: (r.notes_markdown ?? r.notes).length,
  version: r.edit_version,
});

async function touchProduct(trx: Db, productId: number) {
  const now = new Date();
  await catalogDb(trx)
    .updateTable('api_products')
    .set({ changelog_edited_at: now, changed: now })
    .where('id', '=', productId)
    .execute();
}

function sendConflict(reply: FastifyReply, current: Row, mine: ChangelogEntryFields) {
  const now = entryJson(current);
  const changes = (['releaseVersion', 'releaseDate', 'notes'] as const).flatMap((field) =>
    String(mine[field] ?? '') === String(now[field] ?? '')
      ? []
      : [{ field, before: String(mine[field] ?? ''), after: String(now[field] ?? '') }],
  );
  return sendConflictOf(reply, format(E.changelogStale, { version: current.edit_version }), now, changes);
}

const sendEntry = (reply: FastifyReply, row: Row) =>
  reply
    .header('Cache-Control', 'no-store')
    .header('ETag', etagOf(row.edit_version))
    .send({ data: entryJson(row) });

type ProductParams = { Params: { id: string } };
type EntryParams = { Params: { id: string; entryId: string } };

/** The console's changelog routes (README.md 'Console: API products'). */
export async function consoleChangelogRoutes(app: FastifyInstance): Promise<void> {
  app.get<ProductParams>('/admin-api/catalog/products/:id/changelog', async (request, reply) => {
    requireManager(request);
    const product = await productOf(app.db, request.params.id);
    const rows = await catalogDb(app.db)
      .selectFrom('change_log_entries as e')
      .select(COLUMNS)
      .where('e.product_id', '=', product.id)
      .orderBy('e.release_date', (ob) => ob.desc().nullsFirst())
      .orderBy('e.created', 'desc')
      .orderBy('e.id', 'desc')
      .execute();
    reply.header('Cache-Control', 'no-store');
    return { data: rows.map(entryJson) };
  });

  app.post<ProductParams>('/admin-api/catalog/products/:id/changelog', async (request, reply) => {
    requireManager(request);
    const fields = parseBody(fieldsSchema, request.body);
    const row = await app.db.transaction().execute(async (trx) => {
      const product = await productOf(trx, request.params.id);
      const now = new Date();
      const created = await catalogDb(trx)
        .insertInto('change_log_entries')
        .values({
          product_id: product.id,
          version: fields.releaseVersion,
          release_date: fields.releaseDate,
          notes: changelogHtml(fields.notes),
          notes_markdown: fields.notes,
          created: now,
          changed: now,
        })
        .returning('uuid')
        .executeTakeFirstOrThrow();
      await touchProduct(trx, product.id);
      const entry = await entryOf(trx, product.id, created.uuid);
      await recordAudit(trx, actorOf(request), {
        action: 'changelog.created',
        targetType: 'api_product',
        targetId: product.uuid,
        targetLabel: `${product.title} ${fields.releaseVersion}`,
        after: { entry: entry.uuid, ...auditValue(entry) },
      });
      return entry;
    });
    reply.code(201);
    return sendEntry(reply, row);
  });

  app.patch<EntryParams>('/admin-api/catalog/products/:id/changelog/:entryId', async (request, reply) => {
    requireManager(request);
    const { version, ...fields } = parseBody(saveSchema, request.body);
    const expected = expectedVersion(request, version, E.changelogVersionNeeded);
    const outcome = await app.db.transaction().execute(async (trx) => {
      const product = await productOf(trx, request.params.id);
      const before = await entryOf(trx, product.id, request.params.entryId, true);
      if (before.edit_version !== expected) return { ok: false as const, current: before };
      await catalogDb(trx)
        .updateTable('change_log_entries')
        .set((eb) => ({
          version: fields.releaseVersion,
          release_date: fields.releaseDate,
          notes: changelogHtml(fields.notes),
          notes_markdown: fields.notes,
          edit_version: eb('edit_version', '+', 1),
          changed: new Date(),
        }))
        .where('id', '=', before.id)
        .execute();
      await touchProduct(trx, product.id);
      const after = await entryOf(trx, product.id, before.uuid);
      await recordAudit(trx, actorOf(request), {
        action: 'changelog.updated',
        targetType: 'api_product',
        targetId: product.uuid,
        targetLabel: `${product.title} ${after.version}`,
        before: { entry: before.uuid, ...auditValue(before) },
        after: { entry: after.uuid, ...auditValue(after) },
      });
      return { ok: true as const, entry: after };
    });
    if (!outcome.ok) return sendConflict(reply, outcome.current, fields);
    return sendEntry(reply, outcome.entry);
  });

  app.delete<EntryParams>('/admin-api/catalog/products/:id/changelog/:entryId', async (request, reply) => {
    requireManager(request);
    const expected = deleteVersion(request, E.changelogVersionNeeded);
    const outcome = await app.db.transaction().execute(async (trx) => {
      const product = await productOf(trx, request.params.id);
      const before = await entryOf(trx, product.id, request.params.entryId, true);
      if (expected !== 'any' && before.edit_version !== expected)
        return { ok: false as const, current: before };
      await catalogDb(trx).deleteFrom('change_log_entries').where('id', '=', before.id).execute();
      await touchProduct(trx, product.id);
      await recordAudit(trx, actorOf(request), {
        action: 'changelog.deleted',
        targetType: 'api_product',
        targetId: product.uuid,
        targetLabel: `${product.title} ${before.version}`,
        before: { entry: before.uuid, ...auditValue(before) },
      });
      return { ok: true as const };
    });
    if (!outcome.ok) {
      const current = entryJson(outcome.current);
      return sendConflict(reply, outcome.current, current);
    }
    return reply.code(204).header('Cache-Control', 'no-store').send();
  });
}
