import {
  CHANGELOG_NOTES_MAX,
  CHANGELOG_VERSION_MAX,
  type ChangelogEntryFields,
  type ConsoleChangelogEntry,
} from '@portico/contracts/console-products';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { parseBody } from '../../lib/validation.ts';
import { versioned, versionedRoutes } from '../../lib/versioned-content.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf } from '../audit/service.ts';
import { catalogAdapter, type CatalogRecord } from './console-versioned.ts';
import { changelogHtml } from './changelog-html.ts';
import { catalogDb } from './tables.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * A product's changelog edited in the provider console (issue 27, README.md 'Console: API
 * products'): API managers and administrators list, add, edit and delete the entries the product
 * page lists under Changelog. Notes are written in Markdown and stored with their HTML (sanitized
 * like the content files'). Entries are versioned content (lib/versioned-content.ts, kind
 * `changelog_entry`): every save raises the entry's version (a stale one is a 409 with what
 * differs, none a 428) and stores a revision, to compare and restore; it is audited in its
 * transaction and stamps the product's `changelog_edited_at`, so the content import leaves that
 * changelog alone and `export-content` writes it to the product's file.
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

/** Audit values: the fields with the notes' length instead of their text, and the version. */
const auditValue = (r: Row) => ({
  entry: r.uuid,
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

/** An entry as the component holds it: the console's entry, its fields and its product. */
type EntryRecord = CatalogRecord<ChangelogEntryFields, ConsoleChangelogEntry> & {
  row: Row;
  product: { id: number; uuid: string; title: string };
};

/** The component's id of an entry: its product's uuid and its own (the routes name both). */
const entryKey = (productId: string, entryId: string) => `${productId}/${entryId}`;

async function findEntry(db: Db, key: string, lock: boolean): Promise<EntryRecord | undefined> {
  const [productId = '', entryId = ''] = key.split('/');
  const product = await productOf(db, productId);
  if (!UUID.test(entryId)) return undefined;
  let query = catalogDb(db)
    .selectFrom('change_log_entries as e')
    .select(COLUMNS)
    .where('e.product_id', '=', product.id)
    .where('e.uuid', '=', entryId.toLowerCase());
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const item = entryJson(row);
  return {
    rowId: row.id,
    item,
    version: row.edit_version,
    fields: { releaseVersion: item.releaseVersion, releaseDate: item.releaseDate, notes: item.notes },
    row,
    product,
  };
}

/** Changelog entries as versioned content (docs/decisions/048-versioned-content.md item 5). */
const changelog = versioned<ChangelogEntryFields, EntryRecord>({
  ...catalogAdapter<ChangelogEntryFields, ConsoleChangelogEntry>(
    'changelog_entry',
    { notFound: E.changelogNotFound, stale: E.changelogStale, versionNeeded: E.changelogVersionNeeded },
    ['releaseVersion', 'releaseDate', 'notes'],
  ),
  find: findEntry,
  // The audit names the product, as it always has; the entry is in its before and after.
  id: (r) => r.product.uuid,
  async store(trx, fields, before) {
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
      .where('id', '=', before.rowId)
      .execute();
    await touchProduct(trx, before.product.id);
  },
  async remove(trx, before) {
    await catalogDb(trx).deleteFrom('change_log_entries').where('id', '=', before.rowId).execute();
    await touchProduct(trx, before.product.id);
  },
  audit: {
    targetType: 'api_product',
    label: (r) => `${r.product.title} ${r.row.version}`,
    value: (r) => auditValue(r.row),
    created: 'changelog.created',
    updated: 'changelog.updated',
    restored: 'changelog.restored',
    deleted: 'changelog.deleted',
  },
});

/**
 * Deletes the revisions of a product's changelog entries: called by the product's delete, whose
 * entries go with it (content_revisions has no foreign key).
 */
export async function removeChangelogRevisions(trx: Db, productId: number): Promise<void> {
  const entries = await catalogDb(trx)
    .selectFrom('change_log_entries')
    .select('id')
    .where('product_id', '=', productId)
    .execute();
  for (const e of entries) await changelog.removeRevisions(trx, e.id);
}

type ProductParams = { Params: { productId: string } };
const BASE = '/admin-api/catalog/products/:productId/changelog';

/** The console's changelog routes (README.md 'Console: API products'). */
export async function consoleChangelogRoutes(app: FastifyInstance): Promise<void> {
  app.get<ProductParams>(BASE, async (request, reply) => {
    requireManager(request);
    const product = await productOf(app.db, request.params.productId);
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

  app.post<ProductParams>(BASE, async (request, reply) => {
    requireManager(request);
    const fields = parseBody(fieldsSchema, request.body);
    const entry = await changelog.create(app.db, actorOf(request), async (trx) => {
      const product = await productOf(trx, request.params.productId);
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
      return entryKey(product.uuid, created.uuid);
    });
    return changelog.send(reply, entry, 201);
  });

  versionedRoutes(
    app,
    changelog,
    BASE,
    (body) => {
      const { version, ...input } = parseBody(saveSchema, body);
      return { version, input };
    },
    { idOf: (params) => entryKey(params.productId ?? '', params.id ?? '') },
  );
}
