import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createPostgresDatabase, untilNoSessions } from './postgres-databases.ts';

/**
 * Global setup of the server-postgres tests, as pglite-template.ts is for the embedded database:
 * one database on the TEST_DATABASE_URL server, created and migrated once, that every test portal
 * starts from (test-app.ts, `create database … template …`) instead of migrating its own. Every
 * migration on a fresh database costs about two seconds of the two cores; a copy costs a tenth of
 * one. Migrating a fresh PostgreSQL database stays tested by the tests that ask for one
 * (createPostgresDatabase without a template: the migration tests, several instances together).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await createPostgresDatabase();
  try {
    const handle = await openDatabase({ databaseUrl: template.url, dataDir: '' });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    // A template with a session still attached cannot be copied: the pool's connections may still
    // be leaving after it ended.
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      await untilNoSessions(admin, template.name);
    } finally {
      await admin.end();
    }
  } catch (err) {
    await template.drop();
    throw err;
  }
  project.provide('postgresTemplate', template.name);
  return template.drop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database to copy on the TEST_DATABASE_URL server (server-postgres only). */
    postgresTemplate: string;
  }
}
