import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Databases of their own for the tests on the TEST_DATABASE_URL server. In a module without the
 * server, so that the global setup (postgres-template.ts) and test-app.ts both use it.
 */

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

/**
 * Creates a database on the TEST_DATABASE_URL server and returns its name, URL and a dropper: an
 * empty one, or a copy of `template` (the run's migrated database, postgres-template.ts).
 */
export async function createPostgresDatabase(
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `portico_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        // pool.end() settles before its connections are gone: give them up to 5 s to leave, so
        // that the drop does not kill a connection that is still saying goodbye.
        await untilNoSessions(c, name);
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}
