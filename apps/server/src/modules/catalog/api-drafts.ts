import path from 'node:path';
import type {
  ApiChangeSummary,
  ApiDraft,
  ApiListItem,
  DraftOperation,
  DraftScope,
} from '@portico/contracts/api-drafts';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { Selectable } from 'kysely';
import { inTransaction, type Db } from '../../db/client.ts';
import { readDocumentText } from '../../openapi/document-texts.ts';
import type { DraftComparison } from '../../openapi/diff-task.ts';
import { runInDocumentWorker } from '../../openapi/index.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { forgetDraftDocument, rememberDraftDocument } from './draft-preview.ts';
import { importApi, prepareApiImport } from './import-api.ts';
import { changelogHtml } from './changelog-html.ts';
import { catalogDb, type ApiDraftsTable } from './tables.ts';

const M = en.console.apis;
const COMPARE_TASK = new URL('../../openapi/diff-task.ts', import.meta.url);

/** What a draft keeps besides its document (api_drafts.review). */
export interface DraftReview {
  summary: ApiChangeSummary;
  operations: DraftOperation[];
  scopes: DraftScope[];
  changelogText: string;
}

export type DraftRow = Selectable<ApiDraftsTable>;

/** The published documentation of an alias: its row, product and converted document's text. */
export async function publishedApi(db: Db, alias: string) {
  const c = catalogDb(db);
  const row = await c
    .selectFrom('api_documentations')
    .select([
      'id',
      'alias',
      'title',
      'version',
      'converted',
      'content_hash',
      'api_id',
      'deprecated',
      'plan',
      'tour',
      'bot_enabled',
      'bot_url',
    ])
    .where('alias', '=', alias)
    .executeTakeFirst();
  if (!row) return undefined;
  const product = await c
    .selectFrom('api_product_documentations as pd')
    .innerJoin('api_products as p', 'p.id', 'pd.product_id')
    .select(['p.id', 'p.alias', 'p.title'])
    .where('pd.documentation_id', '=', row.id)
    .orderBy('pd.weight')
    .orderBy('p.id')
    .executeTakeFirst();
  return { ...row, product };
}

/** The converted text of a published documentation: kept in rows when long, else its column. */
async function convertedText(db: Db, doc: { id: number; converted: unknown }): Promise<string | null> {
  const rows = await readDocumentText(db, doc.id, 'converted');
  if (rows !== undefined) return rows;
  return doc.converted === null ? null : JSON.stringify(doc.converted);
}

/**
 * A new version (or a new API) as a draft: checked as the importer checks it (OpenApiImportError
 * with every problem and its line), compared with the published version in a worker thread, and
 * stored beside it. The published document is not touched.
 */
export async function createDraft(
  db: Db,
  actor: AuditActor,
  input: {
    alias: string;
    product: string | undefined;
    filename: string | undefined;
    text: string;
    utf8: Buffer;
  },
  publicUrl: string,
): Promise<DraftRow> {
  const published = await publishedApi(db, input.alias);
  const productAlias = published?.product?.alias ?? input.product;
  const file = { name: input.filename ?? input.alias, text: input.text };
  const prepared = await prepareApiImport(
    file,
    { product: productAlias ?? input.alias, alias: input.alias },
    publicUrl,
    {
      utf8: input.utf8,
    },
  );
  const previous = published ? await convertedText(db, published) : null;
  const comparison = await runInDocumentWorker<DraftComparison>(COMPARE_TASK, 'compareDraft', {
    source: input.text,
    options: { alias: prepared.alias, publicUrl, filename: path.basename(file.name) },
    published: previous,
  });
  const info = prepared.processed.info;
  const title = info.title ?? published?.title ?? input.alias;
  const review: DraftReview = {
    ...comparison,
    changelogText: changelogText(info.version, comparison.summary),
  };
  const draft = await db.transaction().execute(async (trx) => {
    const row = await catalogDb(trx)
      .insertInto('api_drafts')
      .values({
        documentation_alias: prepared.alias,
        product_alias: productAlias!,
        title,
        from_version: published?.version ?? null,
        to_version: info.version,
        source: input.text,
        source_filename: input.filename ?? null,
        source_spec_version: prepared.processed.sourceSpecVersion,
        review: JSON.stringify(review),
        created_by: actor.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, actor, {
      action: 'api.draft_uploaded',
      targetType: 'api',
      targetId: prepared.alias,
      targetLabel: title,
      after: {
        draft: row.uuid,
        fromVersion: row.from_version,
        toVersion: row.to_version,
        added: comparison.summary.added.length,
        removed: comparison.summary.removed.length,
        changed: comparison.summary.changed.length,
        breaking: comparison.summary.breakingCount,
      },
    });
    return row;
  });
  // The preview of the draft's documentation reads what was just worked out (draft-preview.ts).
  rememberDraftDocument(db, draft.uuid, prepared.processed);
  return draft;
}

/** The changelog entry a summary pre-fills (Markdown): what was added, removed and changed. */
export function changelogText(version: string | null, summary: ApiChangeSummary): string {
  const line = (op: { endpoint: string; summary: string | null }) =>
    `- \`${op.endpoint}\`${op.summary ? ` ${op.summary}` : ''}`;
  const parts: string[] = [format(M.changelogHeader, { version: version ?? '' }).trim()];
  if (summary.added.length) parts.push([M.changelogAdded, ...summary.added.map(line)].join('\n'));
  if (summary.removed.length) parts.push([M.changelogRemoved, ...summary.removed.map(line)].join('\n'));
  if (summary.changed.length) {
    parts.push(
      [
        M.changelogChanged,
        ...summary.changed.map(
          (op) =>
            `${line(op)}: ${op.changes.map((c) => (c.breaking ? `${c.text} (${M.breaking.toLowerCase()})` : c.text)).join('; ')}`,
        ),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

export async function findDraft(db: Db, alias: string, id: string): Promise<DraftRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return catalogDb(db)
    .selectFrom('api_drafts')
    .selectAll()
    .where('uuid', '=', id.toLowerCase())
    .where('documentation_alias', '=', alias)
    .executeTakeFirst();
}

export const reviewOf = (row: DraftRow): DraftReview =>
  (typeof row.review === 'string' ? JSON.parse(row.review) : row.review) as DraftReview;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function draftAnswer(db: Db, row: DraftRow): Promise<ApiDraft> {
  const review = reviewOf(row);
  const product = await catalogDb(db)
    .selectFrom('api_products')
    .select('title')
    .where('alias', '=', row.product_alias)
    .executeTakeFirst();
  return {
    id: row.uuid,
    alias: row.documentation_alias,
    title: row.title,
    product: { alias: row.product_alias, title: product?.title ?? null },
    status: row.published_at ? 'published' : 'draft',
    fromVersion: row.from_version,
    toVersion: row.to_version,
    sourceSpecVersion: row.source_spec_version,
    filename: row.source_filename,
    createdAt: iso(row.created)!,
    publishedAt: iso(row.published_at),
    summary: review.summary,
    operations: review.operations,
    scopes: review.scopes,
    changelogText: review.changelogText,
  };
}

export class DraftStateError extends Error {}
/** A draft that is not there (any more): discarded meanwhile. */
export class DraftGoneError extends Error {}

/**
 * Publishes a draft the way the import does (importApi: the documentation replaced, its scopes
 * granted, search synced; the catalog's counters tell every cache and the sandbox), records the
 * changelog entry and the audit entry and marks the draft published, all in one transaction: a
 * failure anywhere leaves the published API, its changelog and the audit log as they were. A
 * second publish of the same draft finds it published and changes nothing more.
 */
export async function publishDraft(
  db: Db,
  actor: AuditActor,
  row: DraftRow,
  input: { changelog: string; version: string | undefined },
  publicUrl: string,
): Promise<DraftRow> {
  if (row.published_at) throw new DraftStateError(M.alreadyPublished);
  const before = await publishedApi(db, row.documentation_alias);
  // The documentation keeps what the catalog says of it besides the document: its title, API id,
  // deprecation, plan, tour and chat bot (an import would reset them to the document's or defaults).
  const kept = before
    ? {
        title: before.title,
        apiId: before.api_id ?? undefined,
        deprecated: before.deprecated,
        plan: before.plan,
        kept: { tour: before.tour, botEnabled: before.bot_enabled, botUrl: before.bot_url },
      }
    : {};
  const prepared = await prepareApiImport(
    { name: row.source_filename ?? row.documentation_alias, text: row.source },
    { product: row.product_alias, alias: row.documentation_alias, ...kept },
    publicUrl,
  );
  const review = reviewOf(row);
  const version = input.version ?? row.to_version ?? new Date().toISOString().slice(0, 10);
  return db.transaction().execute(async (trx) => {
    const c = catalogDb(trx);
    // The draft is claimed first: a second publish waits for this one's row lock, then finds it
    // published and changes nothing.
    const claimed = await c
      .updateTable('api_drafts')
      .set({ published_at: new Date(), published_by: actor.id })
      .where('id', '=', row.id)
      .where('published_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) {
      // Published meanwhile, or discarded meanwhile (discardDraft).
      const still = await c.selectFrom('api_drafts').select('id').where('id', '=', row.id).executeTakeFirst();
      throw still ? new DraftStateError(M.alreadyPublished) : new DraftGoneError(M.errors.noSuchDraft);
    }
    const result = await importApi(trx, prepared);
    const entry = await c
      .insertInto('change_log_entries')
      .values({
        product_id: result.product.id,
        version,
        release_date: new Date().toISOString().slice(0, 10),
        notes: changelogHtml(input.changelog),
        notes_markdown: input.changelog,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The entry is the console's: the content import leaves this changelog alone from now on.
    await c
      .updateTable('api_products')
      .set({ changelog_edited_at: new Date() })
      .where('id', '=', result.product.id)
      .execute();
    const updated = await c
      .updateTable('api_drafts')
      .set({ change_log_entry_id: entry.id })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const { summary } = review;
    await recordAudit(trx, actor, {
      action: 'api.published',
      targetType: 'api',
      targetId: row.documentation_alias,
      targetLabel: result.documentation.title,
      before: before ? { version: before.version, contentHash: before.content_hash } : null,
      after: {
        version,
        contentHash: result.documentation.processed?.contentHash ?? before?.content_hash ?? null,
        draft: row.uuid,
        summary: {
          added: summary.added.map((op) => op.endpoint),
          removed: summary.removed.map((op) => op.endpoint),
          changed: summary.changed.map((op) => ({
            endpoint: op.endpoint,
            changes: op.changes.map((ch) => ch.text),
            breaking: op.breaking,
          })),
          breakingCount: summary.breakingCount,
        },
      },
    });
    return updated;
  });
}

/**
 * Discards a draft that was never published: its row goes, with the audit entry
 * `api.draft_discarded` in the same transaction, and the preview forgets its document. A published
 * draft stays (its changelog entry and notices point at it): DraftStateError. The delete only takes
 * a row still unpublished, so a publication running at the same time either wins (the draft stays,
 * published) or finds nothing to publish.
 */
export async function discardDraft(db: Db, actor: AuditActor, row: DraftRow): Promise<void> {
  if (row.published_at) throw new DraftStateError(M.discardPublished);
  await inTransaction(db, async (trx) => {
    const c = catalogDb(trx);
    const gone = await c
      .deleteFrom('api_drafts')
      .where('id', '=', row.id)
      .where('published_at', 'is', null)
      .returning('uuid')
      .executeTakeFirst();
    if (!gone) {
      const still = await c.selectFrom('api_drafts').select('id').where('id', '=', row.id).executeTakeFirst();
      if (still) throw new DraftStateError(M.discardPublished);
      throw new DraftGoneError(M.errors.noSuchDraft);
    }
    await recordAudit(trx, actor, {
      action: 'api.draft_discarded',
      targetType: 'api',
      targetId: row.documentation_alias,
      targetLabel: row.title,
      before: {
        draft: row.uuid,
        fromVersion: row.from_version,
        toVersion: row.to_version,
        filename: row.source_filename,
      },
    });
  });
  forgetDraftDocument(db, row.uuid);
}

/** The catalog's APIs with their product, changelog versions and drafts (the console's list). */
export async function listApis(db: Db): Promise<ApiListItem[]> {
  const c = catalogDb(db);
  const docs = await c
    .selectFrom('api_documentations as d')
    .leftJoin('api_product_documentations as pd', 'pd.documentation_id', 'd.id')
    .leftJoin('api_products as p', 'p.id', 'pd.product_id')
    .select([
      'd.alias',
      'd.title',
      'd.version',
      'd.operation_count',
      'p.id as product_id',
      'p.alias as product_alias',
      'p.title as product_title',
    ])
    .orderBy('d.title')
    .orderBy('d.alias')
    .execute();
  const productIds = [...new Set(docs.map((d) => d.product_id).filter((id): id is number => id !== null))];
  const versions = productIds.length
    ? await c
        .selectFrom('change_log_entries')
        .select(['product_id', 'version', 'release_date'])
        .where('product_id', 'in', productIds)
        .orderBy('release_date', 'desc')
        .orderBy('id', 'desc')
        .execute()
    : [];
  const drafts = await c
    .selectFrom('api_drafts')
    .select(['uuid', 'documentation_alias', 'to_version', 'published_at', 'created'])
    .orderBy('created', 'desc')
    .execute();
  const seen = new Set<string>();
  const out: ApiListItem[] = [];
  for (const d of docs) {
    // A documentation in several products is listed once, with its first product.
    if (seen.has(d.alias)) continue;
    seen.add(d.alias);
    out.push({
      alias: d.alias,
      title: d.title,
      version: d.version,
      operationCount: d.operation_count,
      product: d.product_alias && d.product_title ? { alias: d.product_alias, title: d.product_title } : null,
      versions: versions
        .filter((v) => v.product_id === d.product_id)
        .map((v) => ({
          version: v.version,
          releaseDate: v.release_date === null ? null : new Date(v.release_date).toISOString().slice(0, 10),
        })),
      drafts: drafts
        .filter((r) => r.documentation_alias === d.alias)
        .map((r) => ({
          id: r.uuid,
          toVersion: r.to_version,
          status: r.published_at ? 'published' : 'draft',
          createdAt: iso(r.created)!,
        })),
    });
  }
  return out;
}
