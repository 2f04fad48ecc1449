import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * PostgreSQL only (vitest.config.ts keeps this file out of the PGlite project): a connection the
 * server holds can die outside any query — PostgreSQL restarted, an administrator ended the
 * backend. The server must note it and carry on with a new connection, never end the process
 * (an 'error' event without a listener would, and Vitest reports it as an unhandled error).
 */
describe('PostgreSQL connections', () => {
  let t: TestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  async function serverBackends(): Promise<number[]> {
    const database = new URL(t.config.databaseUrl ?? '').pathname.slice(1);
    const { rows } = await admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [database],
    );
    return rows.map((r) => r.pid);
  }

  it('survives its idle connections being ended, and answers with new ones', async () => {
    // Several requests at once leave several idle connections in the pool.
    const warm = await Promise.all(Array.from({ length: 4 }, () => fetch(`${t.baseUrl}/readyz`)));
    expect(warm.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const before = await serverBackends();
    expect(before.length).toBeGreaterThan(0);

    for (const pid of before) await admin.query('select pg_terminate_backend($1)', [pid]);
    // Let the terminations reach the pool's sockets.
    await expect.poll(async () => (await serverBackends()).filter((p) => before.includes(p))).toEqual([]);

    const after = await fetch(`${t.baseUrl}/readyz`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'ready', database: 'postgres' });
    const now = await serverBackends();
    expect(now.some((pid) => !before.includes(pid))).toBe(true);
  });
});
