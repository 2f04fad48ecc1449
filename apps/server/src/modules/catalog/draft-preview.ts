import path from 'node:path';
import type { Db } from '../../db/client.ts';
import { sizedPromiseCache, type SizedPromiseCache } from '../../lib/sized-promise-cache.ts';
import { parseJsonInPieces, sharedTextPieces, type SharedText } from '../../lib/text-pieces.ts';
import { nextTurn } from '../../lib/turns.ts';
import { prepareDocument, type PreparedDocument } from '../../openapi/index.ts';
import type { Obj } from '../../openapi/operations.ts';
import { catalogDb } from './tables.ts';
import { operationDetailOf } from './downloads.ts';

/**
 * The documentation of a draft before it is published (issue 27): the same answers as the
 * published reference's (`/api/apidocs/:alias/index` and `/operations/:key`), made by the same
 * code from the draft's document as the importer converts it. Nothing is stored: a draft's
 * converted document and operation index are those its upload worked out (kept here), or are
 * worked out again in the worker pool when asked for after a restart or once they left this cache.
 */

interface DraftDocument {
  /** The operation index (OperationIndex) as JSON, as `/api/apidocs/:alias/index` sends it. */
  indexText: string;
  contentHash: string;
  /** The length of the converted text: its size in the cache. */
  chars: number;
  /** The converted document parsed, once its first operation is asked for. */
  doc: () => Promise<Obj>;
}

/** Documents of drafts, per database, bounded by the size of their converted texts. */
const DRAFT_CACHE_CHARS = 64 * 1024 * 1024;

const stores = new WeakMap<Db, SizedPromiseCache<DraftDocument>>();

const sizeOf = (chars: number) => Math.min(chars, DRAFT_CACHE_CHARS);

function storeOf(db: Db) {
  let store = stores.get(db);
  if (!store) {
    store = sizedPromiseCache<DraftDocument>({
      maxSize: DRAFT_CACHE_CHARS,
      sizeOf: (found) => sizeOf(found.chars),
    });
    stores.set(db, store);
  }
  return store;
}

/**
 * The pieces of a text from the worker (a SharedText when longer than a stored row), decoded one
 * at a time with a turn of the event loop between: a big document's are megabytes.
 */
async function decoded(text: string | SharedText): Promise<string[]> {
  if (typeof text === 'string') return [text];
  const out: string[] = [];
  for (const piece of sharedTextPieces(text)) {
    out.push(piece);
    await nextTurn();
  }
  return out;
}

async function draftDocument(processed: PreparedDocument): Promise<DraftDocument> {
  // The converted text stays as the worker handed it (UTF-8 in shared memory when long) until an
  // operation is asked for.
  const converted = processed.convertedText;
  let parsed: Promise<Obj> | undefined;
  return {
    indexText: (await decoded(processed.operationIndexText)).join(''),
    contentHash: processed.contentHash,
    chars: converted.length,
    // Parsed a piece at a time (turns of the event loop between), as stored documents are.
    doc: () =>
      (parsed ??= decoded(converted).then(async (pieces) => (await parseJsonInPieces(pieces)) as Obj)),
  };
}

/** What the preview needs of a draft's row: never its source, read only when it is processed. */
export interface PreviewedDraft {
  uuid: string;
  documentation_alias: string;
  source_filename: string | null;
}

/** A draft of `alias` by uuid, without its source (a big document's is megabytes). */
export async function findPreviewedDraft(
  db: Db,
  alias: string,
  id: string,
): Promise<PreviewedDraft | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  return catalogDb(db)
    .selectFrom('api_drafts')
    .select(['uuid', 'documentation_alias', 'source_filename'])
    .where('uuid', '=', id.toLowerCase())
    .where('documentation_alias', '=', alias)
    .executeTakeFirst();
}

async function sourceOf(db: Db, uuid: string): Promise<string> {
  const row = await catalogDb(db)
    .selectFrom('api_drafts')
    .select('source')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  return row.source;
}

/** The upload's processed document kept for the draft's preview: no second processing. */
export function rememberDraftDocument(db: Db, uuid: string, processed: PreparedDocument): void {
  storeOf(db).set(uuid, draftDocument(processed), sizeOf(processed.convertedText.length));
}

/** A discarded draft's document is not kept any longer. */
export function forgetDraftDocument(db: Db, uuid: string): void {
  storeOf(db).delete(uuid);
}

/** The draft's converted document and index: kept, else the draft's source processed again. */
function documentOf(db: Db, draft: PreviewedDraft, publicUrl: string): Promise<DraftDocument> {
  // The draft's source was checked on upload: processed with the same options, in the worker pool.
  return storeOf(db).get(draft.uuid, async () => {
    const processed = await prepareDocument(await sourceOf(db, draft.uuid), {
      alias: draft.documentation_alias,
      publicUrl,
      filename: path.basename(draft.source_filename ?? draft.documentation_alias),
    });
    return draftDocument(processed);
  });
}

/** The draft's operation index as JSON text, the published reference's index answer. */
export async function draftIndexText(db: Db, draft: PreviewedDraft, publicUrl: string): Promise<string> {
  return (await documentOf(db, draft, publicUrl)).indexText;
}

/**
 * One operation's details in the draft, as the published reference's `/operations/:key` answers
 * them (downloads.ts operationDetailOf: the same slice, worker and cache, keyed by the draft's
 * content hash), or undefined for a key the draft does not have.
 */
export async function draftOperationText(
  db: Db,
  draft: PreviewedDraft,
  publicUrl: string,
  key: string,
): Promise<string | undefined> {
  const found = await documentOf(db, draft, publicUrl);
  return operationDetailOf(
    `draft:${draft.uuid}:${found.contentHash}`,
    async () => ({ doc: await found.doc() }),
    key,
  );
}

/** Forgets the drafts' documents kept for this database (as a restart does). */
export function clearDraftDocuments(db: Db): void {
  storeOf(db).clear();
}
