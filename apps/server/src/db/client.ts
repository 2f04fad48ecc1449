import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { turnBudget } from '../lib/turns.ts';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** Runs `fn` in the caller's transaction when it is given one, else in a new transaction. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** True when this start found and cleared the traces of a crashed owner. */
  recoveredFromCrash: boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Told about connection errors outside any query (PostgreSQL restarted, a backend killed). */
  onConnectionError?: (err: Error) => void;
}

// Return bigint counts and numerics as JS numbers: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/**
 * Statements that may write, counted as they start and end. Only for the embedded database, which
 * one process owns: there, while no write started since a read of the change counters
 * (db/data-versions.ts) and none was under way during it, that read still holds, and the cache of
 * public answers (plugins/http-cache.ts) need not ask again. On PostgreSQL other instances write.
 */
export interface WriteCounter {
  started: number;
  done: number;
}
const counters = new WeakMap<PGlite, WriteCounter>();
const localWriteCounters = new WeakMap<object, WriteCounter>();

/** The write counter of an embedded database, or undefined when other processes may write to it. */
export function localWriteCounter(db: object): WriteCounter | undefined {
  return localWriteCounters.get(db);
}

/** The adapters of embedded databases: a database and its transactions share theirs. */
const embeddedAdapters = new WeakSet<object>();

/**
 * True when `db` (a database or one of its transactions) is the embedded database, whose every
 * statement runs on this thread: a writer that can split its work (the search index) writes
 * smaller statements there. On PostgreSQL a statement is another process's work.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database type: only the executor is read.
export function isEmbeddedDatabase(db: Kysely<any>): boolean {
  return embeddedAdapters.has(db.getExecutor().adapter);
}

/**
 * PostgreSQL's WAL buffers on the embedded database. With the default (4 MB, 1/32 of
 * shared_buffers) a transaction's WAL collects in the buffers and is written to the data folder at
 * COMMIT, on this thread, in one piece: 35 ms for the commit of a search index of Kubernetes'
 * 845 operations. With 256 kB the buffers are written as they fill, by the statements that fill
 * them (a few ms each), and a commit writes what is left (under 1 ms measured). The data written
 * is the same; PGlite runs without fsync (-F) either way.
 */
const EMBEDDED_WAL_BUFFERS = '256kB';

/**
 * A new WAL segment file is not filled with zeros first (`wal_init_zero`): PostgreSQL wrote its
 * 16 MB of zeros through PGlite's file system calls on this thread, 60-95 ms inside whichever
 * statement crossed into the next segment. The zeros only reserve the disk space ahead of time,
 * for crash safety with fsync; PGlite runs without fsync.
 */
const EMBEDDED_WAL_SETTINGS = [`wal_buffers=${EMBEDDED_WAL_BUFFERS}`, 'wal_init_zero=off'];

/** How long a chain of embedded-database statements may hold the event loop before it yields. */
const STATEMENTS_TURN_MS = 10;

/**
 * Called before every statement of the embedded database. PGlite runs postgres on this thread
 * and settles each statement's promise at once, so a chain of awaited statements (an import that
 * writes thousands of search rows in one transaction) runs in microtasks only and never gives
 * the event loop a turn: 1.6 s in one turn for a 3,000-operation document. Once statements have
 * held this turn for STATEMENTS_TURN_MS, the next one waits for a later turn (lib/turns.ts, after
 * the other long tasks waiting), so requests that need no database, /healthz among them, are answered meanwhile
 * (issue 11: no request waits more than 50 ms). A request's own few statements never wait.
 * (4 ms was measured too: shorter import turns, 10 % fewer sandbox calls a second: decision 042.)
 */
const shareTheEventLoop = turnBudget(STATEMENTS_TURN_MS);

/** The statements of `target` (the database or one transaction) wait their turn (shareTheEventLoop). */
function sharingTheEventLoop<T extends Pick<PGlite, 'query' | 'exec'>>(target: T): T {
  const query = target.query.bind(target);
  const exec = target.exec.bind(target);
  target.query = (async (...args: unknown[]) => {
    await shareTheEventLoop();
    return (query as (...a: unknown[]) => Promise<unknown>)(...args);
  }) as T['query'];
  target.exec = (async (...args: unknown[]) => {
    await shareTheEventLoop();
    return (exec as (...a: unknown[]) => Promise<unknown>)(...args);
  }) as T['exec'];
  return target;
}

/** Everything but a plain SELECT may write: other statements, exec() and transactions. */
function countWrites(pglite: PGlite): void {
  const counter: WriteCounter = { started: 0, done: 0 };
  counters.set(pglite, counter);
  const around = async <T>(write: boolean, run: () => Promise<T>): Promise<T> => {
    if (!write) return run();
    counter.started++;
    try {
      return await run();
    } finally {
      counter.done++;
    }
  };
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  const transaction = pglite.transaction.bind(pglite);
  pglite.query = ((text: string, ...rest: unknown[]) =>
    around(!/^\s*select\b/i.test(text), () =>
      (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest),
    )) as typeof pglite.query;
  pglite.exec = ((...args: Parameters<typeof pglite.exec>) =>
    around(true, () => exec(...args))) as typeof pglite.exec;
  pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    around(true, () => transaction((tx) => callback(sharingTheEventLoop(tx))))) as typeof pglite.transaction;
  sharingTheEventLoop(pglite);
}

/** Opens PostgreSQL when a URL is given, otherwise the embedded PGlite in `dataDir/pgdata`. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // A connection that fails while idle, or while it is being closed, raises 'error' on the pool
    // or on the client; without a listener Node would end the process. The pool drops the broken
    // client and opens a new one on the next query, so reporting is all there is to do. The
    // client-level listener stays after the pool lets go of a client, which covers connections
    // killed during pool.end() (whose promise settles before the sockets are closed).
    const report = options.onConnectionError ?? (() => {});
    pool.on('error', report);
    pool.on('connect', (client) => client.on('error', report));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', recoveredFromCrash: false, close: () => db.destroy() };
  }
  const pgDataDir = path.join(options.dataDir, 'pgdata');
  const lock: DataDirLock = acquireDataDirLock(options.dataDir, pgDataDir);
  try {
    const pglite = await PGlite.create(pgDataDir, {
      parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
      startParams: [...PGlite.defaultStartParams, ...EMBEDDED_WAL_SETTINGS.flatMap((s) => ['-c', s])],
    });
    countWrites(pglite);
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
    embeddedAdapters.add(db.getExecutor().adapter);
    localWriteCounters.set(db, counters.get(pglite)!);
    return {
      db,
      kind: 'pglite',
      recoveredFromCrash: lock.recoveredFromCrash,
      async close() {
        try {
          await db.destroy();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
