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
 * is kept a minute after its last task. A thread that a big task left holding a big heap is
 * replaced by a fresh, warmed one (decision 073). Piscina unrefs idle threads, so they never keep
 * a process alive.
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
 * A thread whose heap holds more than this after a task is replaced by a fresh one once the pool
 * has been idle for RETIRE_WHEN_IDLE_MS (decision 073). At rest a thread holds 35-55 MB of heap
 * pages with the import pipeline and the validator generator loaded; parsing GitHub's 13 MB
 * description grows it past 120 MB, and V8 keeps those pages for as long as the process runs.
 */
export const RETIRED_THREAD_HEAP_BYTES = 96 * 1024 * 1024;

/**
 * How long the pool must have had no task before a grown thread is replaced: starting a thread
 * takes CPU (its modules load again), which during an import's writes or a burst of first sandbox
 * calls lengthened `/healthz`'s answers (bench/README.md, decision 073).
 */
export const RETIRE_WHEN_IDLE_MS = 10_000;

/** What each new thread loads first (keepDocumentWorkersWarm), so no first call waits for it. */
const warmUps: { filename: URL; name: string }[] = [];

/** Pools whose threads were replaced and that are finishing the tasks they had. */
const retiring = new Set<Promise<void>>();

/** Tasks sent and not yet answered, and the timer of a replacement waiting for none. */
let running = 0;
let retirement: NodeJS.Timeout | undefined;

/**
 * After a task (when no replacement is waiting already): when one of the pool's threads holds more
 * than RETIRED_THREAD_HEAP_BYTES, the pool is replaced once it has been idle for RETIRE_WHEN_IDLE_MS
 * (each task that ends meanwhile starts the wait again). The next tasks go to a new pool, whose
 * first thread starts at once and loads the warm-ups; the old one finishes what it has and ends
 * its threads, which gives their memory back to the system.
 */
async function retireGrownThreads(p: Piscina): Promise<void> {
  const heaps = await Promise.all(
    p.threads.map((thread) =>
      thread.getHeapStatistics().then(
        (s) => s.total_physical_size,
        () => 0,
      ),
    ),
  );
  if (pool !== p || !heaps.some((bytes) => bytes > RETIRED_THREAD_HEAP_BYTES)) return;
  scheduleRetirement(p);
}

function scheduleRetirement(p: Piscina): void {
  clearTimeout(retirement);
  retirement = setTimeout(() => {
    retirement = undefined;
    if (pool !== p) return;
    if (running) return scheduleRetirement(p);
    pool = undefined;
    // Nothing runs in it any more, so its close cannot time out; were it to fail, nothing is lost.
    const closing = p
      .close()
      .catch(() => {})
      .finally(() => retiring.delete(closing));
    retiring.add(closing);
    const next = workers();
    for (const { filename, name } of warmUps)
      void next.run(null, { filename: filename.href, name }).catch(() => {});
  }, RETIRE_WHEN_IDLE_MS);
  retirement.unref();
}

/**
 * A task in a worker thread. Its answer is copied into this thread (structured clone) in the turn
 * of the event loop it arrives in, which for a big document's operations and index is tens of
 * milliseconds: what the caller does next gets a turn of its own.
 */
async function run(task: unknown, options?: Parameters<Piscina['run']>[1]): Promise<unknown> {
  const p = workers();
  running++;
  let answer: unknown;
  try {
    answer = await p.run(task, options);
  } finally {
    running--;
  }
  // A replacement already waiting waits again from this task's end; otherwise, did a thread grow?
  if (retirement && pool === p) scheduleRetirement(p);
  else void retireGrownThreads(p);
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

/**
 * Runs the export `name` of the module at `filename` (called with null) in the thread now, and
 * first in every thread that replaces it (decision 073): what a first call must not wait for
 * (the sandbox's validator generator, decision 039). Answers the first run's answer.
 */
export async function keepDocumentWorkersWarm<T>(filename: URL, name: string): Promise<T> {
  if (!warmUps.some((w) => w.filename.href === filename.href && w.name === name))
    warmUps.push({ filename, name });
  return runInDocumentWorker<T>(filename, name, null);
}

/** The ids of the pool's threads now (none before the first task). */
export function documentWorkerThreadIds(): number[] {
  return pool?.threads.map((thread) => thread.threadId) ?? [];
}

/** Ends the worker threads (they start again when needed). */
export async function closeDocumentWorkers(): Promise<void> {
  const p = pool;
  pool = undefined;
  clearTimeout(retirement);
  retirement = undefined;
  await Promise.all([p?.close(), ...retiring]);
}
