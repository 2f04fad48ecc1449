import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import type { Database } from './schema.ts';
import { PGliteWorkerPool, type WriteCounter } from './worker-pool.ts';

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

const localWriteCounters = new WeakMap<object, WriteCounter>();

/**
 * The write counter of the embedded database (db/worker-pool.ts), which one process owns: there,
 * while no write started since a read of the change counters (db/data-versions.ts) and none was
 * under way during it, that read still holds, and the cache of public answers need not ask again.
 * Undefined on PostgreSQL, where other instances write.
 */
export function localWriteCounter(db: object): WriteCounter | undefined {
  return localWriteCounters.get(db);
}

const uncountedWriters = new WeakMap<object, Db>();

/**
 * The database for writes to tables that no change counter tracks (no `trackDataChanges` trigger,
 * db/data-versions.ts), such as the sandbox's call records (decision 067). On the embedded database
 * its statements do not count as writes (`localWriteCounter`), so they leave a read of the counters
 * valid and the requests meanwhile need not read them again; on PostgreSQL it is `db` itself.
 * Writing a tracked table through it would leave that read stale: only for untracked tables.
 */
export function uncountedWriter(db: Db): Db {
  return uncountedWriters.get(db) ?? db;
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
    // PGlite in a worker thread of its own (decisions 054, 060): no SQL runs on this thread.
    const pool = await PGliteWorkerPool.open({ pgDataDir }, options.onConnectionError);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    localWriteCounters.set(db, pool.writes);
    // Destroyed with `db`: ending its pool is a no-op, `db` ends the worker.
    uncountedWriters.set(
      db,
      new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool.uncounted() }) }),
    );
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
