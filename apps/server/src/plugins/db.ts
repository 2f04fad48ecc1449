import fp from 'fastify-plugin';
import { openDatabase, type Db } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { dataVersionReader, type DataVersionReader } from '../db/data-versions.ts';
import { MigrationError, migrateToLatest } from '../db/migrate.ts';
import { withStartupLock } from '../db/startup-lock.ts';

/** How often a slow start says that it is still opening the database. */
const PROGRESS_INTERVAL_MS = 10_000;

/**
 * Opens the database (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL), runs migrations under
 * the start-up lock (several instances may start together) and closes it when the app closes,
 * after in-flight requests are done.
 *
 * Opening has no deadline: on a busy machine PGlite's first start or another instance's migrations
 * may take minutes, which is slow but not a failure (app.ts turns Fastify's plugin timeout off).
 * A slow open says so in the log every 10 s; a real failure ends the start with a message naming
 * the database.
 */
export default fp(
  async (app) => {
    const target = app.config.databaseUrl
      ? `PostgreSQL at ${describeUrl(app.config.databaseUrl)}`
      : `the embedded database in ${app.config.dataDir}`;
    const started = Date.now();
    const progress = setInterval(() => {
      app.log.warn(
        { seconds: Math.round((Date.now() - started) / 1000) },
        `still opening ${target} (a busy machine, or another instance is migrating it)`,
      );
    }, PROGRESS_INTERVAL_MS);
    progress.unref();
    try {
      const handle = await openDatabase({
        databaseUrl: app.config.databaseUrl,
        dataDir: app.config.dataDir,
        onConnectionError: (err) => app.log.warn({ err }, 'database connection error'),
      }).catch((err: unknown) => {
        throw openFailure(target, err);
      });
      if (handle.recoveredFromCrash) {
        app.log.warn({ dataDir: app.config.dataDir }, 'recovered the data folder after an unclean stop');
      }
      try {
        const applied = await withStartupLock(handle.db, handle.kind, () => migrateToLatest(handle.db), {
          onWait: () => app.log.info('another instance is preparing the database; waiting for it'),
        });
        if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
      } catch (err) {
        await handle.close();
        throw openFailure(target, err);
      }
      app.decorate('db', handle.db);
      app.decorate('dbKind', handle.kind);
      // The change counters (decision 018, 028): what the session cache and the answer caches
      // check before they answer from memory.
      app.decorate('dataVersions', dataVersionReader(handle.db));
      app.addHook('onClose', async () => {
        await handle.close();
      });
    } finally {
      clearInterval(progress);
    }
  },
  { name: 'db', dependencies: [] },
);

/** The URL without its password, for messages. */
function describeUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    return `${url.host}${url.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** A start that failed because the database could not be opened or migrated. */
export class DatabaseOpenError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'DatabaseOpenError';
  }
}

/** Says which database could not be opened; the owner of DATA_DIR keeps its own error. */
function openFailure(target: string, err: unknown): Error {
  if (err instanceof DataDirInUseError) return err;
  if (err instanceof MigrationError)
    return new DatabaseOpenError(`${err.message} (${target})`, { cause: err });
  const reason = err instanceof Error ? err.message : String(err);
  return new DatabaseOpenError(`Cannot open ${target}: ${reason}`, { cause: err });
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: 'pglite' | 'postgres';
    dataVersions: DataVersionReader;
  }
}
