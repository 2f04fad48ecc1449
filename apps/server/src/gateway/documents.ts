import { nextTurn } from '../lib/turns.ts';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/client.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { keepDocumentWorkersWarm, runInDocumentWorker } from '../openapi/pool.ts';
import { cutOperationSlice, operationSlice } from '../openapi/slice.ts';
import { clearStoredDocuments, storedDocument, type StoredDocument } from '../openapi/stored-document.ts';
import { CompiledApi, type MatchedOperation } from './compiled-api.ts';
import type { ValidatorCode } from './validator-code.ts';

/** The columns of the catalog's `api_documentations` table that the gateway reads. */
interface ApiDocumentationsTable {
  id: number;
  alias: string;
  converted: OpenApiDocument | null;
  content_hash: string | null;
}

type Obj = Record<string, unknown>;

/** Compiled operations kept per document (each is a small dereferenced slice). */
const OPERATIONS_PER_DOCUMENT = 200;

/** What the sandbox worked out of one stored document so far. */
interface Compiled {
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

/** Kept beside each parsed document (openapi/stored-document.ts): it goes when the document goes. */
const compiledOf = new WeakMap<StoredDocument, Compiled>();

function compiled(entry: StoredDocument): Compiled {
  let found = compiledOf.get(entry);
  if (!found) {
    found = { operations: new LRUCache({ max: OPERATIONS_PER_DOCUMENT }) };
    compiledOf.set(entry, found);
  }
  return found;
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
  return keepDocumentWorkersWarm<number>(SLICE_TASK, 'warmUp');
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

/** Aliases whose current row is kept between calls (a bounded map: the catalog's APIs). */
const ALIASES_KEPT = 2_000;

/**
 * Imported APIs by alias. Which document an alias serves now (its row's id and content hash) is
 * looked up once and kept while the `catalog` change counter (decision 018, bumped in the same
 * transaction as any write to `api_documentations`) is unchanged: the caller passes the counters
 * it read after its request arrived, so a re-import committed on any instance applies to the next
 * call everywhere (decision 055). Without counters it is looked up on every call (one indexed
 * lookup). The document is parsed once per hash and each called operation is resolved
 * (dereferenced slice) and compiled on first use.
 */
export function createDocumentCache(db: Db, log?: FastifyBaseLogger) {
  const catalog = db.withTables<{ api_documentations: ApiDocumentationsTable }>();
  const rows = new LRUCache<string, { stamp: string; row: Promise<Row> }>({ max: ALIASES_KEPT });

  function sandboxApi(alias: string, entry: StoredDocument, router: CompiledApi): SandboxApi {
    const onSchemaError = (what: string, err: unknown) =>
      log?.warn({ alias, err }, `sandbox: a schema of ${what} cannot be compiled; it is not validated`);
    return {
      match: (method, path, request) => router.match(method, path, request),
      async resolve(matched, method, path, request) {
        const key = `${matched.method} ${matched.template}`;
        const { operations } = compiled(entry);
        let compiling = operations.get(key);
        if (!compiling) {
          compiling = compileOperation(entry.doc, matched, onSchemaError, log);
          operations.set(key, compiling);
          compiling.catch(() => operations.delete(key));
        }
        const api = await compiling;
        const again = api.match(method, path, request);
        // The slice holds that one operation: it matches as the whole document did.
        return { api, matched: again && !('allowed' in again) ? again : matched };
      },
    };
  }

  type Row = { id: number; content_hash: string | null } | undefined;
  async function lookup(alias: string): Promise<Row> {
    try {
      return await catalog
        .selectFrom('api_documentations')
        .select(['id', 'content_hash'])
        .where('alias', '=', alias)
        .executeTakeFirst();
    } catch (err) {
      // No catalog table (yet): no API is imported.
      if ((err as { code?: unknown }).code === '42P01') return undefined;
      throw err;
    }
  }

  /** The alias's row now: kept while the `catalog` counter of `versions` holds. */
  function currentRow(alias: string, versions: ReadonlyMap<string, string> | undefined): Promise<Row> {
    if (!versions) return lookup(alias);
    const stamp = versions.get('catalog') ?? '';
    const hit = rows.get(alias);
    if (hit && hit.stamp === stamp) return hit.row;
    const row = lookup(alias);
    rows.set(alias, { stamp, row });
    row.catch(() => {
      if (rows.get(alias)?.row === row) rows.delete(alias);
    });
    return row;
  }

  return {
    /**
     * The API of `alias` now. `versions`: the change counters read after the request arrived
     * (`app.dataVersions.forRequest`); the alias's row is kept while their `catalog` counter holds.
     * The parsed document itself stays in the OpenAPI library's cache, bounded by size.
     */
    async get(alias: string, versions?: ReadonlyMap<string, string>): Promise<SandboxApi | undefined> {
      const row = await currentRow(alias, versions);
      if (!row) return undefined;
      const entry = await storedDocument(db, row.id, row.content_hash ?? `id:${row.id}`);
      if (!entry) return undefined;
      const work = compiled(entry);
      work.router ??= CompiledApi.router(entry.doc as OpenApiDocument);
      return sandboxApi(alias, entry, await work.router);
    },
    clear(): void {
      rows.clear();
      clearStoredDocuments(db);
    },
  };
}
