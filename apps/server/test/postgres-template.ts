import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

/**
 * Global setup of the server-postgres tests, as pglite-template.ts is for the embedded database:
 * one database on the TEST_DATABASE_URL server, created and migrated once, that every test portal
 * starts from (test-app.ts, `create database … template …`) instead of migrating its own. Every
 * migration on a fresh database costs about two seconds of the two cores; a copy costs a tenth of
 * one. Migrating a fresh PostgreSQL database stays tested by the tests that ask for one
 * (createPostgresDatabase without a template: the migration tests, several instances together).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `portico_template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    // A template with a session still attached cannot be copied: the pool's connections may still
    // be leaving after it ended.
    await untilNoSessions(admin, name);
  } finally {
    await admin.end();
  }
  project.provide('postgresTemplate', name);
  return async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(`drop database if exists ${name} with (force)`);
    } finally {
      await c.end();
    }
  };
}

/** Waits (up to 5 s) until no session is connected to the database `name`. */
export async function untilNoSessions(client: pg.Client, name: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = $1',
      [name],
    );
    if (!rows[0]?.n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated database to copy on the TEST_DATABASE_URL server (server-postgres only). */
    postgresTemplate: string;
  }
}
