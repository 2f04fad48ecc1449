import { Worker } from 'node:worker_threads';
import {
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { ErrorFields, Opened, Reply, Request, WorkerOptions } from './pglite-worker.ts';

/**
 * Kysely's dialect for the embedded database in its own thread (db/pglite-worker.ts, decision
 * 054). Every connection is a name the worker knows its statements by; they are sent at once (no
 * mutex here) and the worker runs them in PGlite's order, so a transaction's statements run alone
 * while it is open and the others wait for its end, as PGlite does in-process.
 */

/**
 * Statements that may write, counted as they start and end, on this thread: everything but a plain
 * SELECT outside a transaction, and every transaction from its BEGIN to its end. Only for the
 * embedded database, which one process owns (db/data-versions.ts).
 */
export interface WriteCounter {
  started: number;
  done: number;
}

/** The worker thread that owns PGlite, and the statements waiting for its answers. */
export class PGliteWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve(reply: Reply & { ok: true }): void; reject(err: Error): void }
  >();
  #nextId = 1;
  /** Why no more statements can run (the worker stopped or was closed). */
  #stopped: Error | undefined;
  #exited: Promise<void>;
  /** Set once close() began: the worker stays referenced until it has ended. */
  #closing = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
    // Idle, the worker keeps no process alive; while it answers, it does (ref in send()).
    worker.unref();
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (reply: Reply) => {
      const waiting = this.#pending.get(reply.id);
      if (!waiting) return;
      this.#pending.delete(reply.id);
      if (!this.#pending.size && !this.#closing) worker.unref();
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(databaseError(reply.error));
    });
    worker.on('error', (err) => this.#stop(err));
    worker.on('exit', (code) =>
      this.#stop(new Error(`The embedded database's thread ended (exit code ${code}).`)),
    );
  }

  /** Starts the worker and opens PGlite in it; rejects with PGlite's error when it cannot. */
  static async open(options: WorkerOptions, onError?: (err: Error) => void): Promise<PGliteWorker> {
    const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData: options });
    const exited = (code: number) => new Error(`The embedded database's thread ended (exit code ${code}).`);
    let listeners: { message(m: Opened): void; error(e: Error): void; exit(code: number): void } | undefined;
    const opened = await new Promise<Opened>((resolve, reject) => {
      listeners = { message: resolve, error: reject, exit: (code) => reject(exited(code)) };
      worker.once('message', listeners.message).once('error', listeners.error).once('exit', listeners.exit);
    }).finally(() => {
      // Only ours: the worker's own listeners start and stop its message port.
      worker.off('message', listeners!.message).off('error', listeners!.error).off('exit', listeners!.exit);
    });
    if (!opened.opened) {
      await worker.terminate();
      throw databaseError(opened.error);
    }
    const link = new PGliteWorker(worker);
    if (onError) worker.on('error', onError);
    return link;
  }

  #stop(err: Error): void {
    this.#stopped ??= err;
    for (const waiting of this.#pending.values()) waiting.reject(err);
    this.#pending.clear();
  }

  send(request: WithoutId<Request>): Promise<Reply & { ok: true }> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (!this.#pending.size) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id });
    });
  }

  /** Closes PGlite (it writes what it holds) and waits for the thread to end. Safe to call twice. */
  async close(): Promise<void> {
    if (!this.#stopped) {
      this.#closing = true;
      this.#worker.ref();
      await this.send({ op: 'close' });
      this.#stopped = new Error('The embedded database is closed.');
    }
    await this.#exited;
  }
}

/** The worker's error as an Error with PGlite's fields (code, detail, constraint…). */
function databaseError({ message, fields }: ErrorFields): Error {
  return Object.assign(new Error(message), fields);
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

const READS = /^\s*select\b/i;

class WorkerConnection implements DatabaseConnection {
  static #next = 1;
  readonly #id = WorkerConnection.#next++;
  readonly #link: PGliteWorker;
  readonly #writes: WriteCounter;
  #inTransaction = false;

  constructor(link: PGliteWorker, writes: WriteCounter) {
    this.#link = link;
    this.#writes = writes;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const counted = !this.#inTransaction && !READS.test(query.sql);
    if (counted) this.#writes.started++;
    try {
      const { rows, affectedRows } = await this.#link.send({
        op: 'query',
        conn: this.#id,
        sql: query.sql,
        params: query.parameters,
      });
      return {
        rows: (rows ?? []) as R[],
        numAffectedRows: affectedRows != null ? BigInt(affectedRows) : undefined,
      };
    } catch (err) {
      // The caller's stack, under the worker's message.
      if (err instanceof Error)
        err.stack = `${err.name}: ${err.message}\n${new Error().stack?.split('\n').slice(1).join('\n')}`;
      throw err;
    } finally {
      if (counted) this.#writes.done++;
    }
  }

  // eslint-disable-next-line require-yield -- part of the interface; nothing here streams.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by the embedded database.');
  }

  async begin(): Promise<void> {
    this.#writes.started++;
    try {
      await this.#link.send({ op: 'begin', conn: this.#id });
      this.#inTransaction = true;
    } catch (err) {
      this.#writes.done++;
      throw err;
    }
  }

  async end(op: 'commit' | 'rollback'): Promise<void> {
    if (!this.#inTransaction) return;
    try {
      await this.#link.send({ op, conn: this.#id });
    } finally {
      this.#inTransaction = false;
      this.#writes.done++;
    }
  }
}

class WorkerDriver implements Driver {
  readonly #link: PGliteWorker;
  readonly #writes: WriteCounter;

  constructor(link: PGliteWorker, writes: WriteCounter) {
    this.#link = link;
    this.#writes = writes;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WorkerConnection(this.#link, this.#writes);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as WorkerConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as WorkerConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as WorkerConnection).end('rollback');
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.#link.close();
  }
}

/** PostgreSQL's SQL and migrations (its advisory lock works on PGlite too), statements to the worker. */
export class PGliteWorkerDialect implements Dialect {
  readonly #link: PGliteWorker;
  readonly #writes: WriteCounter;

  constructor(link: PGliteWorker, writes: WriteCounter) {
    this.#link = link;
    this.#writes = writes;
  }

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new WorkerDriver(this.#link, this.#writes);
  }

  createIntrospector(db: Parameters<Dialect['createIntrospector']>[0]) {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
