import type { ProviderRole } from '@portico/contracts/provider-roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { actorOf, recordAudit, SYSTEM_ACTOR, type AuditActor } from '../modules/audit/service.ts';
import { requireProviderRole } from '../plugins/session.ts';
import { runInBackground } from './background-task.ts';
import {
  deleteVersion,
  etagOf,
  expectedVersion,
  fieldChanges,
  sendConflict,
  type FieldChange,
} from './console-edits.ts';
import { en } from '@portico/contracts/messages';
import { HttpError, notFound } from './errors.ts';
import { parseBody } from './validation.ts';

/**
 * Versioned content (docs/decisions/048-versioned-content.md): what every item the console edits
 * with versions shares, written once. A domain supplies an adapter (how to find, show, validate,
 * store and remove its items; its audit names and messages; the lock it shares with its import;
 * the provider role) and gets the save path (version check, 409 with the current item and what
 * differs, a revision and an audit entry in the save's transaction), creation, deletion (the
 * item's revisions go with it), the revisions (list, one with its changes, restore) and, for kinds
 * with a published state, the scheduler that publishes what is due once, on one instance.
 *
 * Every revision is a row of `content_revisions` (migration 0281), named by the adapter's `kind`
 * and the item's integer id, or its key for keyed items (the site's texts).
 */

/** What the component needs of an item: its version and its fields as a revision stores them. */
export interface VersionedRecord<F> {
  version: number;
  fields: F;
}

/** How a scheduled item is published (kinds with a published state: `published`, `publish_at`). */
export interface ScheduleSpec {
  /** The item's table: it has `id`, `uuid`, `published`, `publish_at`, `changed` and `version`. */
  table: string;
  /** Runs in the publishing transaction with the published rows' ids (search rows, say). */
  published?: (trx: Db, ids: number[]) => Promise<void>;
  /** Logged when a run fails. */
  what: string;
  /**
   * Items that keep a pending version beside the live one (the site's documents): which rows are
   * due and what publishing them sets (raising `version`), in place of `published = false` and
   * `published = true`; `key` is the column naming an item as the routes do (no `id`, `uuid`).
   */
  pending?: { due: RawBuilder<boolean>; publish: RawBuilder<unknown>; key: string };
}

/** What a save did with its item's document, stored with its revision (`content_revisions.state`). */
export type RevisionState = 'published' | 'draft' | 'scheduled';

export interface VersionedAdapter<F extends object, R extends VersionedRecord<F>, I = F> {
  /** `content_revisions.kind`. */
  kind: string;
  /** Who may read and edit (administrators pass too). */
  role: ProviderRole;
  messages: {
    forbidden: string;
    notFound: string;
    /** The 409's title; `{{version}}` is the current version. */
    stale: string;
    /** The 428 of a save that names no version. */
    versionNeeded: string;
    noRevision: string;
  };
  /** The lock the domain's import takes: saves and imports never interleave. */
  lock?: RawBuilder<unknown>;
  /** Finds an item by the id of its routes; `lock` takes its row's lock for the transaction. */
  find(db: Db, id: string, lock: boolean): Promise<R | undefined>;
  /** What a revision is stored under: the integer id, or the key of a keyed item. */
  ref(record: R): number | string;
  /** The id the routes name the item by (a uuid, a document key): the audit's target id. */
  id(record: R): string;
  /** The item as the routes answer it. */
  json(record: R): object;
  /** Field names in diff order, and those diffed line by line (the rest word by word). */
  fieldNames?: readonly (keyof F & string)[];
  lineFields?: readonly (keyof F & string)[];
  /** What differs from `from` to `to` (of `record`), when the field diff does not fit (the site's YAML). */
  changes?: (from: F, to: F, record: R) => readonly object[];
  /** Checks `input` against the database and stores it over `before`, raising its version. */
  store(trx: Db, input: I, before: R): Promise<void>;
  /** Removes the item (its search rows with it). */
  remove?(trx: Db, record: R): Promise<void>;
  /** The fields a save sent, completed from the current item: what the 409 compares. */
  sentFields?(input: I, current: R): F;
  /** A revision's fields as a restore saves them (what no longer exists left out). */
  restoreInput?(db: Db, fields: F): Promise<I>;
  audit: {
    targetType: string;
    /** The audit's label of an item (its title). */
    label(record: R): string;
    /** The audit's before and after (long texts as their length). */
    value(record: R): object;
    created?: string;
    updated: string;
    /** The action of a save that publishes (an item not published before). */
    published?: string;
    restored: string;
    deleted?: string;
  };
  /** Whether a save of `input` over `before` publishes it (audited as `published`). */
  publishes?(input: I, before: R): boolean;
  /**
   * The audit action of a save of `input` over `before` when the kind has its own (a product
   * retired or deprecated by the save); undefined falls back to `published` or `updated`.
   */
  saveAction?(input: I, before: R): string | undefined;
  /** Published state: the scheduler publishes what is due. */
  schedule?: ScheduleSpec;
  /** Kinds whose fields do not say their state (the site's documents): a revision's state. */
  revisionState?(record: R): RevisionState;
}

export interface RevisionSummary {
  version: number;
  author: string | null;
  created: string;
  /** Only for kinds with `revisionState`. */
  state?: RevisionState | null;
}

export interface Revision<F> extends RevisionSummary {
  fields: F;
}

export type SaveOutcome<R> = { ok: true; record: R } | { ok: false; current: R };

/** How often each instance looks for scheduled items whose time has come. */
export const SCHEDULER_INTERVAL_MS = 1000;

/**
 * The publication date of a save: a scheduled item needs a future `publishAt` (else 400, the
 * articles' message), any other state has none.
 */
export function publishAtOf(fields: { state: string; publishAt: string | null }): Date | null {
  if (fields.state !== 'scheduled') return null;
  const publishAt = fields.publishAt ? new Date(fields.publishAt) : null;
  if (!publishAt || publishAt.getTime() <= Date.now())
    throw new HttpError(400, en.console.content.errors.publishAtNeeded, {
      code: 'invalid_input',
      pointer: '/publishAt',
    });
  return publishAt;
}

/**
 * The lists' filter of a kind with a published state (`published`, `publish_at`): `published`,
 * `scheduled` (unpublished with a publication time), `draft` (neither); no state (undefined or
 * ''), every item. `table` is the alias the list's query gives the item's table, if any.
 */
export function whereState(state: unknown, table?: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  const published = column('published');
  const publishAt = column('publish_at');
  switch (state) {
    case 'published':
      return sql<boolean>`${published} = true`;
    case 'scheduled':
      return sql<boolean>`(${published} = false and ${publishAt} is not null)`;
    case 'draft':
      return sql<boolean>`(${published} = false and ${publishAt} is null)`;
    default:
      return sql<boolean>`true`;
  }
}

/** JSON with each object's keys in order: a revision's fields come back from jsonb in its own order. */
const sortedKeys = (_key: string, value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/** A field's change of a kind with structured fields: its text before and after, and their word diff. */
export type ShownFieldChange<K extends string> = FieldChange<K> & { before: string; after: string };

/**
 * What differs from `from` to `to` for kinds whose fields are lists of objects (the catalog's
 * products and comparison tables): each field as text (JSON when it is not a text), the texts
 * before and after (what their 409 has always answered) with the word diff the console's
 * conflict and revisions panels show.
 */
export function shownChanges<F extends object, K extends keyof F & string>(
  from: F,
  to: F,
  fields: readonly K[],
): ShownFieldChange<K>[] {
  const shown = (item: F) =>
    Object.fromEntries(
      fields.map((f) => [
        f,
        typeof item[f] === 'string' ? item[f] : JSON.stringify(item[f] ?? null, sortedKeys),
      ]),
    ) as Record<K, string>;
  const a = shown(from);
  const b = shown(to);
  return fieldChanges(a, b, fields).map((c) => ({
    field: c.field,
    before: a[c.field],
    after: b[c.field],
    parts: c.parts,
  }));
}

/** The revisions' condition naming one item: its integer id, or its key. */
const itemIs = (ref: number | string) =>
  typeof ref === 'number' ? sql<boolean>`item_id = ${ref}` : sql<boolean>`item_key = ${ref}`;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The component over one adapter: the save path and the revisions, for routes and schedulers. */
export function versioned<F extends object, R extends VersionedRecord<F>, I = F>(
  adapter: VersionedAdapter<F, R, I>,
) {
  const M = adapter.messages;

  const changesOf = (from: F, to: F, record: R): readonly object[] =>
    adapter.changes
      ? adapter.changes(from, to, record)
      : (fieldChanges(from, to, adapter.fieldNames ?? [], adapter.lineFields ?? []) as FieldChange[]);

  async function storeRevision(trx: Db, actor: AuditActor, record: R): Promise<void> {
    const ref = adapter.ref(record);
    await trx
      .insertInto('content_revisions')
      .values({
        kind: adapter.kind,
        item_id: typeof ref === 'number' ? ref : null,
        item_key: typeof ref === 'string' ? ref : null,
        version: record.version,
        author_id: actor.id,
        author_email: actor.email,
        fields: JSON.stringify(record.fields),
        state: adapter.revisionState?.(record) ?? null,
      })
      .execute();
  }

  async function findRequired(db: Db, id: string, lock = false): Promise<R> {
    const record = await adapter.find(db, id, lock);
    if (!record) throw notFound(M.notFound);
    return record;
  }

  async function locked<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      if (adapter.lock) await adapter.lock.execute(trx);
      return fn(trx);
    });
  }

  /**
   * Saves `input` over the item `id` if it is still at `expected` (else the current item), with a
   * revision and an audit entry in the same transaction.
   */
  function save(
    db: Db,
    actor: AuditActor,
    id: string,
    input: I,
    expected: number | 'any',
    action: (before: R) => string,
  ): Promise<SaveOutcome<R>> {
    return locked(db, async (trx) => {
      const before = await findRequired(trx, id, true);
      if (expected !== 'any' && before.version !== expected) return { ok: false, current: before };
      await adapter.store(trx, input, before);
      const after = (await adapter.find(trx, id, false))!;
      await storeRevision(trx, actor, after);
      await recordAudit(trx, actor, {
        action: action(before),
        targetType: adapter.audit.targetType,
        targetId: adapter.id(after),
        targetLabel: adapter.audit.label(after),
        before: adapter.audit.value(before),
        after: adapter.audit.value(after),
      });
      return { ok: true, record: after };
    });
  }

  /** Creates an item (`insert` returns the id of its routes), its first revision and audit entry. */
  function create(db: Db, actor: AuditActor, insert: (trx: Db) => Promise<string>): Promise<R> {
    return locked(db, async (trx) => {
      const id = await insert(trx);
      const created = (await adapter.find(trx, id, false))!;
      await storeRevision(trx, actor, created);
      await recordAudit(trx, actor, {
        action: adapter.audit.created ?? `${adapter.audit.targetType}.created`,
        targetType: adapter.audit.targetType,
        targetId: adapter.id(created),
        targetLabel: adapter.audit.label(created),
        after: adapter.audit.value(created),
      });
      return created;
    });
  }

  /** Deletes the item if it is still at `expected` (else returns it), its revisions with it. */
  function remove(db: Db, actor: AuditActor, id: string, expected: number | 'any'): Promise<R | undefined> {
    const removeItem = adapter.remove;
    if (!removeItem) throw new Error(`${adapter.kind} items are never deleted`);
    return locked(db, async (trx) => {
      const before = await findRequired(trx, id, true);
      if (expected !== 'any' && expected !== before.version) return before;
      await removeItem(trx, before);
      await removeRevisions(trx, adapter.ref(before));
      await recordAudit(trx, actor, {
        action: adapter.audit.deleted ?? `${adapter.audit.targetType}.deleted`,
        targetType: adapter.audit.targetType,
        targetId: adapter.id(before),
        targetLabel: adapter.audit.label(before),
        before: adapter.audit.value(before),
      });
      return undefined;
    });
  }

  async function removeRevisions(trx: Db, ref: number | string): Promise<void> {
    await trx.deleteFrom('content_revisions').where('kind', '=', adapter.kind).where(itemIs(ref)).execute();
  }

  async function revisions(db: Db, record: R, limit?: number): Promise<RevisionSummary[]> {
    let q = db
      .selectFrom('content_revisions')
      .select(['version', 'author_email', 'created', 'state'])
      .where('kind', '=', adapter.kind)
      .where(itemIs(adapter.ref(record)))
      .orderBy('version', 'desc');
    if (limit !== undefined) q = q.limit(limit);
    const rows = await q.execute();
    return rows.map((r) => ({
      version: r.version,
      author: r.author_email,
      created: iso(r.created),
      ...(adapter.revisionState ? { state: r.state } : {}),
    }));
  }

  async function revision(db: Db, record: R, raw: string): Promise<Revision<F>> {
    if (!/^\d{1,9}$/.test(raw)) throw notFound(M.noRevision);
    const row = await db
      .selectFrom('content_revisions')
      .select(['version', 'author_email', 'created', 'fields'])
      .where('kind', '=', adapter.kind)
      .where(itemIs(adapter.ref(record)))
      .where('version', '=', Number(raw))
      .executeTakeFirst();
    if (!row) throw notFound(M.noRevision);
    const stored = typeof row.fields === 'string' ? (JSON.parse(row.fields) as unknown) : row.fields;
    return {
      version: row.version,
      author: row.author_email,
      created: iso(row.created),
      fields: stored as F,
    };
  }

  /** The 409 of a stale save: the current item and what differs from the fields sent. */
  function conflict(reply: FastifyReply, current: R, mine: F) {
    const message = M.stale.replace('{{version}}', String(current.version));
    return sendConflict(
      reply,
      message,
      adapter.json(current) as { version: number },
      changesOf(mine, current.fields, current),
    );
  }

  function send(reply: FastifyReply, record: R, status = 200) {
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .header('ETag', etagOf(record.version))
      .send({ data: adapter.json(record) });
  }

  /**
   * Publishes the scheduled items whose time has come, once: the UPDATE takes each row's lock, and
   * an instance that comes second finds the row no longer unpublished (or its pending version
   * gone). The `published` hook (search rows), a revision and the audit entry (actor: system) are
   * written in the same transaction; the table's data-version trigger makes every instance's
   * cached answers stale. Returns the ids of the routes (uuids, or the keys of keyed items).
   */
  async function publishDue(db: Db): Promise<string[]> {
    const spec = adapter.schedule;
    if (!spec) return [];
    const table = sql.table(spec.table);
    const isDue = spec.pending?.due ?? sql<boolean>`published = false and publish_at <= now()`;
    const publish =
      spec.pending?.publish ??
      sql`published = true, publish_at = null, changed = now(), version = version + 1`;
    const returning = spec.pending
      ? sql`null::integer as id, ${sql.ref(spec.pending.key)} as uuid`
      : sql`id, uuid`;
    // Looked up first: an UPDATE, even of no row, fires the statement trigger that raises the
    // data version, and every cached answer would expire each second.
    const due = await sql`select 1 from ${table} where ${isDue} limit 1`.execute(db);
    if (due.rows.length === 0) return [];
    return db.transaction().execute(async (trx) => {
      const rows = await sql<{ id: number | null; uuid: string }>`update ${table}
        set ${publish} where ${isDue} returning ${returning}`.execute(trx);
      if (rows.rows.length === 0) return [];
      const ids = rows.rows.flatMap((r) => (r.id === null ? [] : [r.id]));
      if (ids.length > 0) await spec.published?.(trx, ids);
      for (const r of rows.rows) {
        const after = (await adapter.find(trx, r.uuid, false))!;
        await storeRevision(trx, SYSTEM_ACTOR, after);
        await recordAudit(trx, SYSTEM_ACTOR, {
          action: adapter.audit.published ?? `${adapter.audit.targetType}.published`,
          targetType: adapter.audit.targetType,
          targetId: adapter.id(after),
          targetLabel: adapter.audit.label(after),
          after: adapter.audit.value(after),
        });
      }
      return rows.rows.map((r) => r.uuid);
    });
  }

  return {
    adapter,
    changesOf,
    storeRevision,
    findRequired,
    save,
    create,
    remove,
    removeRevisions,
    revisions,
    revision,
    conflict,
    send,
    publishDue,
  };
}

export type Versioned<F extends object, R extends VersionedRecord<F>, I = F> = ReturnType<
  typeof versioned<F, R, I>
>;

type Params = { Params: Record<string, string> & { id: string } };
type RevisionParams = { Params: Record<string, string> & { id: string; version: string } };

export interface VersionedRoutesOptions {
  /**
   * The id `find` is given, from the route's parameters (default: `:id`): items nested under
   * another's address (a product's changelog entries, `base` naming `:productId`) name both.
   */
  idOf?(params: Record<string, string>): string;
}

const restoreSchema = z.object({ version: z.number().int().positive().optional() }).strict();

/**
 * The standard routes of a kind whose items are named by id under `base`: GET one (with its ETag),
 * PATCH (the version in the body or If-Match; 428 without; 409 with meta.current and meta.changes),
 * DELETE (If-Match), GET revisions, GET revisions/:version (with what differs from it to the
 * current version), POST revisions/:version/restore; and the scheduler when the kind has one.
 * `parse` reads a PATCH body into the version and the input; `options.idOf` names a nested item
 * from its route's parameters. Lists and creation stay the domain's (`component.create` is their
 * save path).
 */
export function versionedRoutes<F extends object, R extends VersionedRecord<F>, I = F>(
  app: FastifyInstance,
  component: Versioned<F, R, I>,
  base: string,
  parse: (body: unknown) => { version?: number | undefined; input: I },
  options: VersionedRoutesOptions = {},
): void {
  const { adapter } = component;
  const idOf = (request: { params: Params['Params'] }) =>
    options.idOf ? options.idOf(request.params) : request.params.id;
  const M = adapter.messages;
  const guard = (request: FastifyRequest) => requireProviderRole(request, adapter.role, M.forbidden);
  const sent = (input: I, current: R): F => adapter.sentFields?.(input, current) ?? (input as unknown as F);

  if (adapter.schedule) {
    runInBackground(app, SCHEDULER_INTERVAL_MS, adapter.schedule.what, async () => {
      await component.publishDue(app.db);
    });
  }

  app.get<Params>(`${base}/:id`, async (request, reply) => {
    guard(request);
    const record = await component.findRequired(app.db, idOf(request));
    reply.header('Cache-Control', 'no-store').header('ETag', etagOf(record.version));
    return { data: adapter.json(record) };
  });

  app.patch<Params>(`${base}/:id`, async (request, reply) => {
    guard(request);
    const { version, input } = parse(request.body);
    const expected = expectedVersion(request, version, M.versionNeeded);
    const outcome = await component.save(
      app.db,
      actorOf(request),
      idOf(request),
      input,
      expected,
      (before) =>
        adapter.saveAction?.(input, before) ??
        (adapter.audit.published && adapter.publishes?.(input, before)
          ? adapter.audit.published
          : adapter.audit.updated),
    );
    if (!outcome.ok) return component.conflict(reply, outcome.current, sent(input, outcome.current));
    return component.send(reply, outcome.record);
  });

  if (adapter.remove) {
    app.delete<Params>(`${base}/:id`, async (request, reply) => {
      guard(request);
      const expected = deleteVersion(request, M.versionNeeded);
      const stale = await component.remove(app.db, actorOf(request), idOf(request), expected);
      if (stale) return component.conflict(reply, stale, stale.fields);
      return reply.code(204).send();
    });
  }

  app.get<Params>(`${base}/:id/revisions`, async (request, reply) => {
    guard(request);
    const record = await component.findRequired(app.db, idOf(request));
    const rows = await component.revisions(app.db, record);
    reply.header('Cache-Control', 'no-store');
    return {
      data: rows.map((r) => ({ ...r, current: r.version === record.version })),
      meta: { version: record.version },
    };
  });

  app.get<RevisionParams>(`${base}/:id/revisions/:version`, async (request, reply) => {
    guard(request);
    const record = await component.findRequired(app.db, idOf(request));
    const revision = await component.revision(app.db, record, request.params.version);
    reply.header('Cache-Control', 'no-store');
    // From the revision to the current version: what restoring it would undo.
    return {
      data: { ...revision, changes: component.changesOf(revision.fields, record.fields, record) },
      meta: { version: record.version },
    };
  });

  app.post<RevisionParams>(`${base}/:id/revisions/:version/restore`, async (request, reply) => {
    guard(request);
    const { version } = parseBody(restoreSchema, request.body);
    const expected = expectedVersion(request, version, M.versionNeeded);
    const record = await component.findRequired(app.db, idOf(request));
    const revision = await component.revision(app.db, record, request.params.version);
    const input = adapter.restoreInput
      ? await adapter.restoreInput(app.db, revision.fields)
      : (revision.fields as unknown as I);
    const outcome = await component.save(
      app.db,
      actorOf(request),
      idOf(request),
      input,
      expected,
      () => adapter.audit.restored,
    );
    if (!outcome.ok) return component.conflict(reply, outcome.current, revision.fields);
    return component.send(reply, outcome.record);
  });
}
