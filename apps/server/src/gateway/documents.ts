import { nextTurn } from '../lib/turns.ts';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.ts';
import { parseJsonInPieces } from '../lib/text-pieces.ts';
import { documentTextChunks } from '../modules/catalog/document-texts.ts';
import { runInDocumentWorker } from '../modules/catalog/openapi/index.ts';
import { cutOperationSlice, operationSlice } from '../modules/catalog/openapi/slice.ts';
import { CompiledApi, type MatchedOperation } from './compiled-api.ts';
import type { OpenApiDocument } from './openapi.ts';
import type { ValidatorCode } from './validator-code.ts';

/** The columns of the catalog's `api_documentations` table that the gateway reads. */
interface ApiDocumentationsTable {
  id: number;
  alias: string;
  converted: OpenApiDocument | null;
  content_hash: string | null;
}

type Obj = Record<string, unknown>;

/**
 * Parsed stored documents kept in memory, all instances of the portal process together, bounded by
 * the size of their JSON text (a parsed document takes a few times that on the heap). One big
 * document is held once, whoever asked for it (sandbox, reference).
 */
export const DOCUMENT_CACHE_CHARS = 96 * 1024 * 1024;
/** Compiled operations kept per document (each is a small dereferenced slice). */
const OPERATIONS_PER_DOCUMENT = 200;

/** One stored document, parsed, with what was worked out of it so far. */
export interface StoredDocument {
  id: number;
  hash: string;
  doc: Obj;
  /**
   * Routes every method and path of the document (its operations as stored, `$ref`s kept), built
   * a slice of the paths at a time.
   */
  router?: Promise<CompiledApi>;
  /**
   * Per-operation APIs compiled from dereferenced slices, by "METHOD template": the validators
   * generated in a worker and evaluated here (decision 032). Calls arriving meanwhile wait for the
   * same promise: one compilation per operation and content hash.
   */
  operations: LRUCache<string, Promise<CompiledApi>>;
}

const stores = new WeakMap<Db, LRUCache<string, Promise<StoredDocument | undefined>>>();

function storeOf(db: Db) {
  let store = stores.get(db);
  if (!store) {
    store = new LRUCache<string, Promise<StoredDocument | undefined>>({
      maxSize: DOCUMENT_CACHE_CHARS,
      // Sized once loaded; an entry still loading counts as small.
      sizeCalculation: () => 1,
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
  const store = storeOf(db);
  const key = `${id}:${hash ?? ''}`;
  const hit = store.get(key);
  if (hit) return hit;
  async function load(): Promise<{ entry: StoredDocument; chars: number } | undefined> {
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
    const entry: StoredDocument = {
      id,
      hash: hash ?? '',
      doc: doc as Obj,
      operations: new LRUCache({ max: OPERATIONS_PER_DOCUMENT }),
    };
    return { entry, chars };
  }
  const loading: Promise<StoredDocument | undefined> = load().then((loaded) => {
    // Set again with its real size now that it is known (evicts others beyond the budget).
    if (loaded && store.get(key) === loading) {
      store.set(key, loading, { size: Math.max(1, Math.min(loaded.chars, DOCUMENT_CACHE_CHARS)) });
    }
    return loaded?.entry;
  });
  store.set(key, loading);
  loading.catch(() => store.delete(key));
  return loading;
}

/** An imported API as the sandbox sees it: routing on the whole document, the rest per operation. */
export interface SandboxApi {
  /** The operation for a method and path, 'allowed' when only the method is wrong, or undefined. */
  match: CompiledApi['match'];
  /**
   * The matched operation compiled from its dereferenced slice (validation, mock answers, security
   * schemes), with the match redone in it.
   */
  resolve(
    matched: MatchedOperation,
    method: string,
    path: string,
    request?: Parameters<CompiledApi['match']>[2],
  ): Promise<{ api: CompiledApi; matched: MatchedOperation }>;
}

const SLICE_TASK = new URL('./slice-task.ts', import.meta.url);

/**
 * Starts the document worker thread and loads into it what the sandbox's first call of an
 * operation needs (the slice task's module, validator-code.ts warmUp): called once the server
 * listens, in the background (decision 039). Answers the id of the thread that is kept for it.
 */
export function warmSandboxWorker(): Promise<number> {
  return runInDocumentWorker<number>(SLICE_TASK, 'warmUp', null);
}

/**
 * One operation made ready for the sandbox: its dereferenced slice, with every validator it can
 * need generated as standalone code in a worker and evaluated here. Should the worker fail, the
 * validators are compiled here on first use, as before decision 032.
 */
async function compileOperation(
  doc: Obj,
  matched: MatchedOperation,
  onSchemaError: (what: string, err: unknown) => void,
  log?: FastifyBaseLogger,
): Promise<CompiledApi> {
  // The slice is cut here (a quick walk) and dereferenced in a worker with its validators' code
  // (decision 038); should the worker fail, it is dereferenced here, as before.
  let ready: { slice: OpenApiDocument; code?: ValidatorCode; codeError?: string };
  try {
    ready = await runInDocumentWorker(
      SLICE_TASK,
      'operationSliceAndCode',
      cutOperationSlice(doc, matched.method, matched.template),
    );
  } catch (err) {
    const slice = (await operationSlice(doc, matched.method, matched.template)) as OpenApiDocument;
    ready = { slice, codeError: String((err as Error)?.message ?? err) };
  }
  const { slice, code } = ready;
  const api = new CompiledApi(slice, onSchemaError);
  try {
    if (!code) throw new Error(ready.codeError ?? 'no validator code');
    // Evaluating the code (a few ms per module) and the calls that waited for it (their
    // validation and answer) each get a turn of the event loop of their own.
    await nextTurn();
    await api.adopt(code, nextTurn);
    await nextTurn();
  } catch (err) {
    log?.warn({ err }, 'sandbox: validators not generated in a worker; compiled on first use instead');
  }
  return api;
}

/**
 * Imported APIs by alias: every request checks the alias's current hash (one indexed lookup, so
 * every instance sees a re-import at once); the document is parsed once per hash and each called
 * operation is resolved (dereferenced slice) and compiled on first use.
 */
export function createDocumentCache(db: Db, log?: FastifyBaseLogger) {
  const catalog = db.withTables<{ api_documentations: ApiDocumentationsTable }>();

  function sandboxApi(alias: string, entry: StoredDocument, router: CompiledApi): SandboxApi {
    const onSchemaError = (what: string, err: unknown) =>
      log?.warn({ alias, err }, `sandbox: a schema of ${what} cannot be compiled; it is not validated`);
    return {
      match: (method, path, request) => router.match(method, path, request),
      async resolve(matched, method, path, request) {
        const key = `${matched.method} ${matched.template}`;
        let compiled = entry.operations.get(key);
        if (!compiled) {
          compiled = compileOperation(entry.doc, matched, onSchemaError, log);
          entry.operations.set(key, compiled);
          compiled.catch(() => entry.operations.delete(key));
        }
        const api = await compiled;
        const again = api.match(method, path, request);
        // The slice holds that one operation: it matches as the whole document did.
        return { api, matched: again && !('allowed' in again) ? again : matched };
      },
    };
  }

  return {
    async get(alias: string): Promise<SandboxApi | undefined> {
      let row: { id: number; content_hash: string | null } | undefined;
      try {
        row = await catalog
          .selectFrom('api_documentations')
          .select(['id', 'content_hash'])
          .where('alias', '=', alias)
          .executeTakeFirst();
      } catch (err) {
        // No catalog table (yet): no API is imported.
        if ((err as { code?: unknown }).code === '42P01') return undefined;
        throw err;
      }
      if (!row) return undefined;
      const entry = await storedDocument(db, row.id, row.content_hash ?? `id:${row.id}`);
      if (!entry) return undefined;
      entry.router ??= CompiledApi.router(entry.doc as OpenApiDocument);
      return sandboxApi(alias, entry, await entry.router);
    },
    clear(): void {
      storeOf(db).clear();
    },
  };
}
