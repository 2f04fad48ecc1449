import { Worker } from 'node:worker_threads';
import type { Db } from '../db/client.ts';
import { BACKGROUND_YOUNG_GENERATION_MB } from '../lib/thread-priority.ts';
import { documentTextChunks } from './document-texts.ts';
import type { DocumentThreadReply, DocumentThreadRequest } from './document-thread-worker.ts';

/**
 * The parsed stored documents live in a thread of their own (decision 070), not on the thread that
 * answers requests: GitHub's 7 MB converted document is about 100 MB of objects, and while the
 * main thread held them, every full collection of its heap marked them (20-30 ms pauses during an
 * import on PostgreSQL) and parsing one there (the sandbox's or the reference's first call after a
 * start) was 100 MB of allocation in pieces. Readers send the thread a task (an export of a module,
 * called with the parsed document and an argument) and get its small answer back: the sandbox's
 * route table and an operation's cut slice, the reference's operation target and slice.
 *
 * The main thread reads the document's rows from the database only when the thread does not hold
 * it (first use, or evicted), and hands them over once for all the calls waiting for it.
 */

/** A task run on a parsed stored document: `name` of the module at `module`, called (doc, args). */
export interface DocumentTask {
  module: URL;
  name: string;
  args: unknown;
}

/**
 * One thread for the process, started on first use; idle, it keeps no process alive (unref), and
 * should it end, the next task starts another.
 */
export class DocumentThread {
  #worker: Worker | undefined;
  #ids = 0;
  #pending = new Map<number, { resolve(reply: DocumentThreadReply): void; reject(err: Error): void }>();
  /** Documents being handed to the thread, by key: one read of the rows for every waiting call. */
  #loading = new Map<string, Promise<boolean>>();

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(new URL('./document-thread-worker.ts', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: BACKGROUND_YOUNG_GENERATION_MB },
    });
    worker.unref();
    worker.on('message', (reply: DocumentThreadReply) => {
      const waiting = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (reply.error !== undefined) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply);
      if (!this.#pending.size) worker.unref();
    });
    const stop = (err: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const waiting of this.#pending.values()) waiting.reject(err);
      this.#pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`The stored documents' thread ended (exit code ${code}).`)));
    this.#worker = worker;
    return worker;
  }

  #send(request: Omit<DocumentThreadRequest, 'id'>): Promise<DocumentThreadReply> {
    const worker = this.#start();
    return new Promise((resolve, reject) => {
      if (!this.#pending.size) worker.ref();
      const id = ++this.#ids;
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }

  /** Hands the document's rows to the thread; false when there is no document (no stored text). */
  #load(key: string, rows: () => Promise<string[]>): Promise<boolean> {
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = (async () => {
        const texts = await rows();
        if (!texts.length) return false;
        return !(await this.#send({ key, rows: texts })).empty;
      })().finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  /**
   * `task` on the document of `key`; `rows` gives its stored text in pieces when the thread does
   * not hold it (none: no document, undefined).
   */
  async run<T>(key: string, rows: () => Promise<string[]>, task: DocumentTask): Promise<T | undefined> {
    const request = { key, task: { module: task.module.href, name: task.name, args: task.args } };
    // A document evicted between its load and the task is loaded again; twice is a thread whose
    // cache cannot hold it (a document larger than the cache), which is an error, not a loop.
    for (let attempt = 0; attempt < 3; attempt++) {
      const reply = await this.#send(request);
      if (!reply.missing) return reply.value as T;
      if (!(await this.#load(key, rows))) return undefined;
    }
    throw new Error(`the stored document ${key} could not be kept in its thread`);
  }

  /** Starts the thread and loads these task modules in it. */
  async warm(modules: readonly URL[]): Promise<void> {
    await this.#send({ key: '', warm: modules.map((m) => m.href) });
  }

  /** Forgets the documents whose keys start with `prefix`. */
  async forget(prefix: string): Promise<void> {
    if (this.#worker) await this.#send({ key: '', forget: prefix });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }
}

const thread = new DocumentThread();

/** Each database's documents apart (tests run several portals, each on its own database). */
const databases = new WeakMap<Db, number>();
let databaseCount = 0;
function prefixOf(db: Db): string {
  let n = databases.get(db);
  if (n === undefined) {
    n = ++databaseCount;
    databases.set(db, n);
  }
  return `${n}:`;
}

/**
 * Runs `task` on the stored (converted) document of a documentation, parsed once per content hash
 * in the stored documents' thread; undefined when the documentation has no stored document.
 */
export function onStoredDocument<T>(
  db: Db,
  id: number,
  hash: string | null,
  task: DocumentTask,
): Promise<T | undefined> {
  const key = `${prefixOf(db)}${id}:${hash ?? `id:${id}`}`;
  return thread.run<T>(
    key,
    async () => {
      const rows: string[] = [];
      for await (const row of documentTextChunks(db, id, 'converted')) rows.push(row);
      return rows;
    },
    task,
  );
}

/**
 * Starts the stored documents' thread and loads task modules there, before a first call needs them
 * (server.ts, once the portal listens: decision 039's warm-up, decision 070).
 */
export function warmDocumentThread(modules: readonly URL[]): Promise<void> {
  return thread.warm(modules);
}

/** Forgets every parsed document of this database (the sandbox's cache clear). */
export function clearStoredDocuments(db: Db): Promise<void> {
  return thread.forget(prefixOf(db));
}
