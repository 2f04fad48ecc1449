import { sql } from 'kysely';
import type { Db } from './client.ts';

/**
 * One instance at a time runs the start-up writes (migrations, the demo content import, the
 * `import-api` command), so that any number of instances can start together on one PostgreSQL
 * database. Kysely's migrator locks only its own migrations; content importers upsert by natural
 * keys but two of them inserting the same row at the same moment still collide on a unique index.
 *
 * On PostgreSQL a session-level advisory lock is held on one pooled connection while `work` runs on
 * the others (so `work` must not need every connection of the pool). PGlite has a single
 * connection and a single owning process (data-dir-lock.ts), so there is nothing to exclude.
 */

/** 'portico' in ASCII, as a bigint: the advisory lock's key, the same for every instance. */
export const STARTUP_LOCK_KEY = '31654927826903919';

export interface StartupLockOptions {
  /** Called once when another instance holds the lock and this one starts waiting for it. */
  onWait?: () => void;
}

export async function withStartupLock<T>(
  db: Db,
  kind: 'pglite' | 'postgres',
  work: () => Promise<T>,
  options: StartupLockOptions = {},
): Promise<T> {
  if (kind === 'pglite') return work();
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${STARTUP_LOCK_KEY}::bigint) as locked`.execute(conn);
    if (!rows[0]?.locked) {
      options.onWait?.();
      await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY}::bigint)`.execute(conn);
    }
    try {
      return await work();
    } finally {
      // If the connection broke, PostgreSQL released the lock with the session.
      await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY}::bigint)`.execute(conn);
    }
  });
}
