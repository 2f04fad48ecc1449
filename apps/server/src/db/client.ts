import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

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
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
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
