import { backgroundResourceLimits } from '../lib/thread-priority.ts';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type {
  ErrorFields,
  Opened,
  Reply,
  Request,
  Result,
  Statement,
  WorkerOptions,
} from './pglite-worker.ts';

/**
 * The embedded database in its own thread (db/pglite-worker.ts, decisions 054 and 060) as a `pg`
 * pool for Kysely's own PostgresDialect. Every client is a connection the worker knows its
 * statements by; they are sent without a mutex here, all those of one turn in one message, and the
 * worker runs them in PGlite's order: a transaction's statements run alone while it is open, the
 * others wait for its end, as PGlite does in-process.
 */

/**
 * Statements that may write, counted as they start and end, on this thread: everything but a plain
 * SELECT outside a transaction, and every transaction from its BEGIN to its end. Only for the
 * embedded database, which one process owns (db/data-versions.ts).
 */
export type WriteCounter = { started: number; done: number };

const READS = /^\s*select\b/i;
const BEGIN = /^\s*(?:begin|start transaction)\b/i;
const END = /^\s*(?:commit|rollback)\s*$/i;

/** The worker's error as an Error with PGlite's fields (code, detail, constraint…). */
const databaseError = ({ message, fields }: ErrorFields) => Object.assign(new Error(message), fields);

export class PGliteWorkerPool implements PostgresPool {
  readonly options = {};
  readonly writes: WriteCounter = { started: 0, done: 0 };
  readonly #pending = new Map<number, { resolve(result: Result): void; reject(err: Error): void }>();
  #outbox: Request[] = [];
  #ids = 0;
  #connections = 0;
  /** Why no more statements can run (the worker stopped or was closed). */
  #stopped: Error | undefined;
  /** Set once end() began: the worker stays referenced until it has ended. */
  #closing = false;
  readonly #exited: Promise<unknown>;

  private readonly worker: Worker;

  private constructor(worker: Worker) {
    this.worker = worker;
    // Idle, the worker keeps no process alive; while it answers, it does (ref in #send()).
    worker.unref();
    this.#exited = once(worker, 'exit').catch(() => {});
    worker.on('message', (replies: Reply[]) => {
      for (const reply of replies) {
        const waiting = this.#pending.get(reply.id);
        this.#pending.delete(reply.id);
        if ('result' in reply) waiting?.resolve(reply.result);
        else waiting?.reject(databaseError(reply.error));
      }
      if (!this.#pending.size && !this.#closing) worker.unref();
    });
    const stop = (err: Error) => {
      this.#stopped ??= err;
      for (const waiting of this.#pending.values()) waiting.reject(err);
      this.#pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`The embedded database's thread ended (exit code ${code}).`)));
  }

  /** Starts the worker and opens PGlite in it; rejects with PGlite's error when it cannot. */
  static async open(options: WorkerOptions, onError?: (err: Error) => void): Promise<PGliteWorkerPool> {
    const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
      workerData: options,
      resourceLimits: backgroundResourceLimits(),
    });
    const [opened] = (await once(worker, 'message')) as [Opened];
    if (!opened.opened) {
      await worker.terminate();
      throw databaseError(opened.error);
    }
    if (onError) worker.on('error', onError);
    return new PGliteWorkerPool(worker);
  }

  /** The limits of the thread's heap (decision 069: its young generation is kept small). */
  get resourceLimits(): Worker['resourceLimits'] {
    return this.worker.resourceLimits;
  }

  #send(statement: Statement | { conn?: never }): Promise<Result> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    return new Promise((resolve, reject) => {
      if (!this.#pending.size) this.worker.ref();
      const id = ++this.#ids;
      this.#pending.set(id, { resolve, reject });
      // The statements of this turn leave together once it ends.
      if (this.#outbox.push({ ...statement, id }) === 1)
        setImmediate(() => {
          this.worker.postMessage(this.#outbox);
          this.#outbox = [];
        });
    });
  }

  /**
   * The same database for writes to tables no change counter tracks (db/client.ts
   * `uncountedWriter`): its statements are not counted as writes, so they leave a read of the
   * counters valid. End it by ending this pool.
   */
  uncounted(): PostgresPool {
    return { options: this.options, connect: () => this.connect(false), end: async () => {} };
  }

  async connect(counts = true): Promise<PostgresPoolClient> {
    const conn = ++this.#connections;
    let inTransaction = false;
    return {
      query: (async (sql: string, params: readonly unknown[]) => {
        const inside = inTransaction;
        const ends = inside && END.test(sql);
        const counted = counts && !inside && !READS.test(sql);
        if (counted) this.writes.started++;
        try {
          const result = await this.#send({ conn, sql, params });
          inTransaction = inside ? !ends : BEGIN.test(sql);
          return result as PostgresQueryResult<unknown>;
        } finally {
          // A COMMIT or ROLLBACK ends the transaction even when it fails.
          if (ends) inTransaction = false;
          if ((counted || (counts && inside)) && !inTransaction) this.writes.done++;
        }
      }) as PostgresPoolClient['query'],
      release() {},
    };
  }

  /** Closes PGlite (it writes what it holds) and waits for the thread to end. Safe to call twice. */
  async end(): Promise<void> {
    if (!this.#stopped) {
      this.#closing = true;
      this.worker.ref();
      await this.#send({});
      this.#stopped = new Error('The embedded database is closed.');
    }
    await this.#exited;
  }
}
