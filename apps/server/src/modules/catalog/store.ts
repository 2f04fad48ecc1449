import { sql } from 'kysely';
import { inTransaction, type Db } from '../../db/client.ts';
import {
  documentTextChunks,
  readDocumentText,
  storedInRows,
  TEXT_CHUNK_CHARS,
  writeDocumentTexts,
} from '../../openapi/document-texts.ts';
import { sharedTextPieces, splitText, type SharedText } from '../../lib/text-pieces.ts';
import { prepareDocument, sandboxUrl, type PreparedDocument } from '../../openapi/index.ts';
import { grantDocumentScopes } from './scopes.ts';
import { en } from '@portico/contracts/messages';
import { catalogDb } from './tables.ts';
import { normalizeAlias } from './versions.ts';

/** The plan a documentation shows when none was given (spec B 2.12). */
export const DEFAULT_PLAN = en.catalog.defaultPlan;

/** Documentation aliases are URL path segments (/sandbox/<alias>, /documentation/<alias>). */
const DOC_ALIAS = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export interface DocumentationInput {
  alias: string;
  /** A SharedText (an upload decoded in the worker pool, decision 061) comes with `processed`. */
  source: string | SharedText;
  filename?: string;
  /** Defaults to the document's info.title. */
  title?: string;
  apiId?: string | null;
  /** Defaults to the document's info.version. */
  version?: string | null;
  deprecated?: boolean;
  plan?: string;
  tour?: unknown;
  botEnabled?: boolean;
  botUrl?: string | null;
  /** The source already processed for this alias and PUBLIC_URL (the import command does it first). */
  processed?: PreparedDocument;
}

export interface SavedDocumentation {
  id: number;
  uuid: string;
  alias: string;
  title: string;
  status: 'created' | 'updated' | 'unchanged';
  processed: PreparedDocument | undefined;
}

export class DocumentationInputError extends Error {}

/** The alias as stored (normalized, lower-case); throws DocumentationInputError when it is not valid. */
export function checkDocumentationAlias(input: string): string {
  const alias = normalizeAlias(input).toLowerCase();
  if (!DOC_ALIAS.test(alias)) {
    throw new DocumentationInputError(
      `'${input}' is not a valid documentation alias: use lower-case letters, digits, '.', '_' and '-'.`,
    );
  }
  return alias;
}

/**
 * Imports one OpenAPI document as a documentation (upsert by alias). The document is processed
 * (openapi/process.ts: throws OpenApiImportError) unless the stored source and sandbox URL are
 * the same as before, so a re-import of unchanged content costs one query.
 */
export async function saveDocumentation(
  db: Db,
  input: DocumentationInput,
  publicUrl: string,
): Promise<SavedDocumentation> {
  const alias = checkDocumentationAlias(input.alias);
  const c = catalogDb(db);
  const existing = await c
    .selectFrom('api_documentations')
    .select([
      'id',
      'uuid',
      'source',
      'title',
      'version',
      'plan',
      'plan_edited_at',
      sql<string | null>`converted->'servers'->0->>'url'`.as('server'),
    ])
    .where('alias', '=', alias)
    .executeTakeFirst();
  const sameDocument =
    existing &&
    existing.server === sandboxUrl(publicUrl, alias) &&
    (await sameSource(db, existing, input.source));
  const processed = sameDocument ? undefined : (input.processed ?? (await prepare(input, alias, publicUrl)));

  const title = input.title ?? processed?.info.title ?? existing?.title ?? alias;
  const meta = {
    title,
    api_id: input.apiId ?? null,
    version: input.version ?? processed?.info.version ?? existing?.version ?? null,
    deprecated: input.deprecated ?? false,
    // A plan set in the console stays (README 'Console: API products').
    plan: existing?.plan_edited_at ? existing.plan : (input.plan ?? DEFAULT_PLAN),
    tour: input.tour === undefined || input.tour === null ? null : JSON.stringify(input.tour),
    bot_enabled: input.botEnabled ?? false,
    bot_url: input.botUrl ?? null,
  };
  const documentColumns = processed
    ? {
        ...textColumns(input.source, processed),
        source_format: processed.sourceFormat,
        source_filename: input.filename ?? null,
        source_spec_version: processed.sourceSpecVersion,
        operation_count: processed.operations.operationCount,
        content_hash: processed.contentHash,
      }
    : {};

  if (existing) {
    await inTransaction(db, async (trx) => {
      await catalogDb(trx)
        .updateTable('api_documentations')
        .set({ ...meta, ...documentColumns, changed: new Date() })
        .where('id', '=', existing.id)
        .execute();
      if (processed) {
        await writeDocumentTexts(trx, existing.id, {
          source: input.source,
          converted: processed.convertedText,
          operation_index: processed.operationIndexText,
        });
      }
    });
    return {
      id: existing.id,
      uuid: existing.uuid,
      alias,
      title,
      status: processed ? 'updated' : 'unchanged',
      processed,
    };
  }
  const created = await inTransaction(db, async (trx) => {
    const row = await catalogDb(trx)
      .insertInto('api_documentations')
      .values({
        alias,
        ...meta,
        ...textColumns(input.source, processed!),
        source_format: processed!.sourceFormat,
        source_filename: input.filename ?? null,
        source_spec_version: processed!.sourceSpecVersion,
        operation_count: processed!.operations.operationCount,
        content_hash: processed!.contentHash,
      })
      .onConflict((oc) => oc.column('alias').doNothing())
      .returning(['id', 'uuid'])
      .executeTakeFirst();
    if (row) {
      await writeDocumentTexts(trx, row.id, {
        source: input.source,
        converted: processed!.convertedText,
        operation_index: processed!.operationIndexText,
      });
    }
    return row;
  });
  if (!created) {
    // Another instance imported the same alias at the same moment: theirs stands.
    return saveDocumentation(db, input, publicUrl);
  }
  return { id: created.id, uuid: created.uuid, alias, title, status: 'created', processed };
}

/**
 * Whether a documentation's stored source is `source`, compared a row at a time (no whole copy of
 * either on this thread: an upload's text is a SharedText, decoded a piece at a time).
 */
async function sameSource(
  db: Db,
  existing: { id: number; source: string | null },
  source: string | SharedText,
): Promise<boolean> {
  if (existing.source !== null) return typeof source === 'string' && existing.source === source;
  const mine: Iterator<string> =
    typeof source === 'string' ? splitText(source, TEXT_CHUNK_CHARS).values() : sharedTextPieces(source);
  // The rows and the pieces are usually cut at the same places, but need not be: what is left of
  // a piece is compared with the next row.
  let pending = '';
  let stored = 0;
  for await (const row of documentTextChunks(db, existing.id, 'source')) {
    stored += row.length;
    if (stored > source.length) return false;
    for (let at = 0; at < row.length;) {
      if (!pending) {
        const next = mine.next();
        if (next.done) return false;
        pending = next.value;
      }
      const take = Math.min(pending.length, row.length - at);
      if (row.slice(at, at + take) !== pending.slice(0, take)) return false;
      at += take;
      pending = pending.slice(take);
    }
  }
  return stored === source.length && !pending;
}

/** The source processed in the worker pool; an upload's SharedText always comes processed. */
function prepare(input: DocumentationInput, alias: string, publicUrl: string): Promise<PreparedDocument> {
  if (typeof input.source !== 'string')
    throw new Error('an uploaded source comes with its processed document');
  return prepareDocument(input.source, { alias, publicUrl, filename: input.filename });
}

/**
 * The columns of the texts: each text itself, or, for a text kept in rows (document-texts.ts), null
 * for the source and the operation index and the digest for the converted document (what SQL
 * reads of it). A SharedText is longer than a row: kept in rows.
 */
function textColumns(source: string | SharedText, processed: PreparedDocument) {
  const inColumn = (text: string | SharedText) =>
    typeof text === 'string' && !storedInRows(text) ? text : null;
  return {
    source: inColumn(source),
    converted: inColumn(processed.convertedText) ?? processed.digestText,
    operation_index: inColumn(processed.operationIndexText),
  };
}

/**
 * Links a documentation to a product (kept when already linked) and adds the OAuth scopes its
 * document asks for to the product's, which subscriptions grant.
 */
export async function linkDocumentation(db: Db, productId: number, documentationId: number, weight = 0) {
  await catalogDb(db)
    .insertInto('api_product_documentations')
    .values({ product_id: productId, documentation_id: documentationId, weight })
    .onConflict((oc) => oc.columns(['product_id', 'documentation_id']).doUpdateSet({ weight }))
    .execute();
  await grantDocumentScopes(db, productId, documentationId);
}

/**
 * Points every stored document at the current PUBLIC_URL when it changed since the import (the
 * sandbox server and OAuth URLs are part of the converted document). Returns how many changed.
 */
export async function repointDocuments(db: Db, publicUrl: string): Promise<number> {
  const c = catalogDb(db);
  const all = await c
    .selectFrom('api_documentations')
    .select(['id', 'alias', sql<string | null>`converted->'servers'->0->>'url'`.as('server')])
    .execute();
  let n = 0;
  for (const stale of all) {
    if (stale.server === sandboxUrl(publicUrl, stale.alias)) continue;
    const row = await c
      .selectFrom('api_documentations')
      .select(['alias', 'source', 'source_filename'])
      .where('id', '=', stale.id)
      .executeTakeFirstOrThrow();
    const source = row.source ?? (await readDocumentText(db, stale.id, 'source')) ?? '';
    const processed = await prepareDocument(source, {
      alias: row.alias,
      publicUrl,
      filename: row.source_filename ?? undefined,
    });
    const texts = textColumns(source, processed);
    await inTransaction(db, async (trx) => {
      await catalogDb(trx)
        .updateTable('api_documentations')
        .set({
          // The source stays as it is; the texts made from it change.
          converted: texts.converted,
          operation_index: texts.operation_index,
          operation_count: processed.operations.operationCount,
          content_hash: processed.contentHash,
        })
        .where('id', '=', stale.id)
        .execute();
      await writeDocumentTexts(trx, stale.id, {
        converted: processed.convertedText,
        operation_index: processed.operationIndexText,
      });
    });
    n++;
  }
  return n;
}
