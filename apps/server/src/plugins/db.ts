import fp from 'fastify-plugin';
import { openDatabase, type Db } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';

/**
 * Opens the database (PGlite in DATA_DIR, or PostgreSQL with DATABASE_URL), runs migrations and
 * closes it when the app closes, after in-flight requests are done.
 */
export default fp(
  async (app) => {
    const handle = await openDatabase({
      databaseUrl: app.config.databaseUrl,
      dataDir: app.config.dataDir,
      onConnectionError: (err) => app.log.warn({ err }, 'database connection error'),
    });
    if (handle.recoveredFromCrash) {
      app.log.warn({ dataDir: app.config.dataDir }, 'recovered the data folder after an unclean stop');
    }
    try {
      const applied = await migrateToLatest(handle.db);
      if (applied.length) app.log.info({ migrations: applied }, 'database migrated');
    } catch (err) {
      await handle.close();
      throw err;
    }
    app.decorate('db', handle.db);
    app.decorate('dbKind', handle.kind);
    app.addHook('onClose', async () => {
      await handle.close();
    });
  },
  { name: 'db', dependencies: [] },
);

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: 'pglite' | 'postgres';
  }
}
