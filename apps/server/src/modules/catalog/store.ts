import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import {
  operationDetail,
  processOpenApi,
  referenceOperations,
  sandboxUrl,
  type ProcessedDocument,
} from './openapi/index.ts';
import { grantDocumentScopes } from './scopes.ts';
import { catalogDb } from './tables.ts';
import { normalizeAlias } from './versions.ts';

/** Documentation aliases are URL path segments (/sandbox/<alias>, /documentation/<alias>). */
export const DOC_ALIAS = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export interface DocumentationInput {
  alias: string;
  source: string;
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
  processed?: ProcessedDocument;
}

export interface SavedDocumentation {
  id: number;
  uuid: string;
  alias: string;
  title: string;
  status: 'created' | 'updated' | 'unchanged';
  processed: ProcessedDocument | undefined;
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
 * Replaces a documentation's stored operation details (the reference reads one row per opened
 * operation). Written in chunks: a large API has over a thousand operations.
 */
export async function writeOperations(db: Db, documentationId: number, converted: Record<string, unknown>) {
  const c = catalogDb(db);
  await c.deleteFrom('api_operations').where('documentation_id', '=', documentationId).execute();
  // Webhooks too: the reference shows their details (openapi/webhooks.ts).
  const rows = referenceOperations(converted).map((op) => ({
    documentation_id: documentationId,
    key: op.key,
    detail: JSON.stringify(operationDetail(converted, op.key)),
  }));
  for (let i = 0; i < rows.length; i += 100) {
    await c
      .insertInto('api_operations')
      .values(rows.slice(i, i + 100))
      .execute();
  }
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
      sql<string | null>`converted->'servers'->0->>'url'`.as('server'),
    ])
    .where('alias', '=', alias)
    .executeTakeFirst();
  const sameDocument =
    existing && existing.source === input.source && existing.server === sandboxUrl(publicUrl, alias);
  const processed = sameDocument
    ? undefined
    : (input.processed ??
      (await processOpenApi(input.source, { alias, publicUrl, filename: input.filename })));

  const title = input.title ?? processed?.info.title ?? existing?.title ?? alias;
  const meta = {
    title,
    api_id: input.apiId ?? null,
    version: input.version ?? processed?.info.version ?? existing?.version ?? null,
    deprecated: input.deprecated ?? false,
    plan: input.plan ?? '100 per hour',
    tour: input.tour === undefined || input.tour === null ? null : JSON.stringify(input.tour),
    bot_enabled: input.botEnabled ?? false,
    bot_url: input.botUrl ?? null,
  };
  const documentColumns = processed
    ? {
        source: input.source,
        source_format: processed.sourceFormat,
        source_filename: input.filename ?? null,
        source_spec_version: processed.sourceSpecVersion,
        converted: JSON.stringify(processed.converted),
        operation_index: JSON.stringify(processed.operationIndex),
        content_hash: processed.contentHash,
      }
    : {};

  if (existing) {
    await db.transaction().execute(async (trx) => {
      await catalogDb(trx)
        .updateTable('api_documentations')
        .set({ ...meta, ...documentColumns, changed: new Date() })
        .where('id', '=', existing.id)
        .execute();
      if (processed) await writeOperations(trx, existing.id, processed.converted);
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
  const created = await db.transaction().execute(async (trx) => {
    const row = await catalogDb(trx)
      .insertInto('api_documentations')
      .values({
        alias,
        ...meta,
        source: input.source,
        source_format: processed!.sourceFormat,
        source_filename: input.filename ?? null,
        source_spec_version: processed!.sourceSpecVersion,
        converted: JSON.stringify(processed!.converted),
        operation_index: JSON.stringify(processed!.operationIndex),
        content_hash: processed!.contentHash,
      })
      .onConflict((oc) => oc.column('alias').doNothing())
      .returning(['id', 'uuid'])
      .executeTakeFirst();
    if (row) await writeOperations(trx, row.id, processed!.converted);
    return row;
  });
  if (!created) {
    // Another instance imported the same alias at the same moment: theirs stands.
    return saveDocumentation(db, input, publicUrl);
  }
  return { id: created.id, uuid: created.uuid, alias, title, status: 'created', processed };
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
    const processed = await processOpenApi(row.source, {
      alias: row.alias,
      publicUrl,
      filename: row.source_filename ?? undefined,
    });
    await db.transaction().execute(async (trx) => {
      await catalogDb(trx)
        .updateTable('api_documentations')
        .set({
          converted: JSON.stringify(processed.converted),
          operation_index: JSON.stringify(processed.operationIndex),
          content_hash: processed.contentHash,
        })
        .where('id', '=', stale.id)
        .execute();
      await writeOperations(trx, stale.id, processed.converted);
    });
    n++;
  }
  return n;
}
