import type { Db } from '../db/client.ts';
import { sizedPromiseCache, type SizedPromiseCache } from '../lib/sized-promise-cache.ts';
import { parseJsonInPieces } from '../lib/text-pieces.ts';
import { documentTextChunks } from './document-texts.ts';

type Obj = Record<string, unknown>;

/**
 * Parsed stored documents kept in memory, all instances of the portal process together, bounded by
 * the size of their JSON text (a parsed document takes a few times that on the heap). One big
 * document is held once, whoever asked for it (sandbox, reference).
 */
export const DOCUMENT_CACHE_CHARS = 96 * 1024 * 1024;

/**
 * One stored document, parsed. What a reader works out of it (the sandbox's router and compiled
 * operations, gateway/documents.ts) it keeps beside it, keyed by this object, so that it goes when
 * the document leaves the cache.
 */
export interface StoredDocument {
  id: number;
  hash: string;
  doc: Obj;
  /** The length of its JSON text: its size in the cache. */
  chars: number;
}

const stores = new WeakMap<Db, SizedPromiseCache<StoredDocument | undefined>>();

function storeOf(db: Db) {
  let store = stores.get(db);
  if (!store) {
    store = sizedPromiseCache<StoredDocument | undefined>({
      maxSize: DOCUMENT_CACHE_CHARS,
      // Sized once loaded (an entry still loading counts as small); one bigger than the whole
      // budget is kept alone.
      sizeOf: (entry) => Math.min(entry.chars, DOCUMENT_CACHE_CHARS),
    });
    stores.set(db, store);
  }
  return store;
}

/**
 * The stored document of a documentation, parsed once per content hash and shared (LRU by size).
 * The text is read a row at a time and parsed a piece at a time from its rows (decisions 031 and
 * 038), with turns of the event loop in between: GitHub's 7 MB parsed whole held the server for
 * 30-90 ms.
 */
export function storedDocument(db: Db, id: number, hash: string | null): Promise<StoredDocument | undefined> {
  return storeOf(db).get(`${id}:${hash ?? ''}`, async () => {
    // The rows are parsed as they are, never joined: joining them is one fresh copy of the whole
    // text in one turn (49 ms of a bench:large turn for Kubernetes' 4 MB).
    const rows: string[] = [];
    let chars = 0;
    for await (const row of documentTextChunks(db, id, 'converted')) {
      rows.push(row);
      chars += row.length;
    }
    if (!chars) return undefined;
    const doc = await parseJsonInPieces(rows);
    if (typeof doc !== 'object' || doc === null) return undefined;
    return { id, hash: hash ?? '', doc: doc as Obj, chars };
  });
}

/** Forgets every parsed document of this database (the sandbox's cache clear). */
export function clearStoredDocuments(db: Db): void {
  storeOf(db).clear();
}
