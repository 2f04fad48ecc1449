import os from 'node:os';
import { BACKGROUND_NICENESS, backgroundResourceLimits } from '../lib/thread-priority.ts';
import { nextTurn } from '../lib/turns.ts';
import { Piscina } from 'piscina';
import { TEXT_CHUNK_CHARS } from './document-texts.ts';
import { OpenApiImportError } from './problems.ts';
import type { SharedText } from '../lib/text-pieces.ts';
import type { PreparedDocument, ProcessOptions } from './process.ts';
import type { OperationSearchEntry } from './search-entries.ts';
import type { WorkerAnswer } from './worker.ts';

/**
 * The worker threads that import documents (decision 017) and generate the sandbox's validators
 * (decision 032): parsing, validating, converting and indexing GitHub's 13 MB description takes
 * seconds of CPU, which on the main thread would stop every request meanwhile. At most two threads
 * (the portal's machine may have two cores). Once started, one thread is kept for as long as the
 * process runs (about 45 MB with its modules loaded), so that a sandbox call never waits for a
 * thread to start and load them again (half a second to two seconds; decision 039); a second one
 * is kept a minute after its last task. Piscina unrefs idle threads, so they never keep a process
 * alive.
 */
let pool: Piscina | undefined;

function workers(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./worker.ts', import.meta.url).href,
    minThreads: 1,
    maxThreads: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
    idleTimeout: 60_000,
    // Below the thread that answers requests when both want a core (decision 066).
    niceIncrement: BACKGROUND_NICENESS,
    resourceLimits: backgroundResourceLimits(),
  });
  return pool;
}

/**
 * A task in a worker thread. Its answer is copied into this thread (structured clone) in the turn
 * of the event loop it arrives in, which for a big document's operations and index is tens of
 * milliseconds: what the caller does next gets a turn of its own.
 */
async function run(task: unknown, options?: Parameters<Piscina['run']>[1]): Promise<unknown> {
  const answer: unknown = await workers().run(task, options);
  await nextTurn();
  return answer;
}

/**
 * processOpenApi (process.ts) in a worker thread, answering the stored form: the same result but
 * for the converted object, which stays in the worker, and its text, which comes back in shared
 * memory in pieces of one stored row when longer. Throws OpenApiImportError as it does.
 */
export async function prepareDocument(
  source: string,
  options: ProcessOptions,
  /**
   * The source's UTF-8 bytes when the caller has them and needs them no more: moved to the worker
   * instead of the text being copied there (prepareUploadedDocument).
   */
  utf8?: Buffer,
): Promise<PreparedDocument> {
  if (utf8 !== undefined && movable(utf8)) return (await prepareUploadedDocument(utf8, options)).prepared;
  return answered((await run({ source, options, pieceChars: TEXT_CHUNK_CHARS })) as WorkerAnswer).prepared;
}

/** Bytes that are the whole of their ArrayBuffer, which can then be moved to another thread. */
const movable = (utf8: Buffer) =>
  utf8.byteOffset === 0 && utf8.buffer instanceof ArrayBuffer && utf8.buffer.byteLength === utf8.byteLength;

/**
 * An upload (its UTF-8 bytes, which the caller needs no more) processed in a worker thread, as
 * prepareDocument, and its text as decoded there: this thread never decodes it (decision 061;
 * decoding GitHub's 13 MB held a turn of the event loop, and the text took 13-26 MB of its heap).
 * The bytes are moved, not copied, when they are the whole of their ArrayBuffer (then detached
 * here); the text comes back in shared memory in pieces of one stored row when longer.
 */
export async function prepareUploadedDocument(
  utf8: Buffer,
  options: ProcessOptions,
): Promise<{ prepared: PreparedDocument; source: string | SharedText }> {
  // A copy of its own otherwise (a small upload: Node's pooled buffers share their ArrayBuffer).
  const bytes = movable(utf8) ? new Uint8Array(utf8.buffer as ArrayBuffer) : new Uint8Array(utf8);
  const answer = answered(
    (await run(
      { utf8: bytes, options, pieceChars: TEXT_CHUNK_CHARS },
      { transferList: [bytes.buffer as ArrayBuffer] },
    )) as WorkerAnswer,
  );
  return { prepared: answer.prepared, source: answer.source! };
}

function answered(answer: WorkerAnswer): Extract<WorkerAnswer, { ok: true }> {
  if (!answer.ok) throw new OpenApiImportError(answer.summary, answer.problems);
  return answer;
}

/**
 * The operations of a stored document (its JSON text, in the pieces it is stored in) as the site
 * search indexes them, in a worker.
 */
export async function documentSearchEntries(chunks: string[]): Promise<OperationSearchEntry[]> {
  return (await run({ chunks }, { name: 'searchEntries' })) as OperationSearchEntry[];
}

/**
 * Another module's task in the same threads (the sandbox's validator code, decision 032): the
 * export `name` of the module at `filename` (a file URL), called with `task`. Each thread loads
 * that module on its first such task, not the import pipeline.
 */
export async function runInDocumentWorker<T>(filename: URL, name: string, task: unknown): Promise<T> {
  return (await run(task, { filename: filename.href, name })) as T;
}

/** Ends the worker threads (they start again when needed). */
export async function closeDocumentWorkers(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
