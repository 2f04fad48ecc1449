import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testDbKind, type TestApp } from './test-app.ts';

/**
 * No SQL runs on the thread that answers requests (decision 054). The embedded database lives in a
 * worker thread of its own: a long statement there no longer holds the event loop, so a request
 * that needs no database is answered meanwhile. On PostgreSQL the statement is another process's
 * work, so this holds trivially.
 */
describe(`a long statement on ${testDbKind()}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('does not delay /healthz', async () => {
    let running = true;
    const started = performance.now();
    // A CPU-bound aggregate: about 0.5-1.5 s on the embedded database here.
    const statement = sql<{
      n: number;
    }>`select count(*) as n from generate_series(1, 4000000) g where g % 7 = 0`
      .execute(t.app.db)
      .finally(() => (running = false));
    const latencies: number[] = [];
    // Over real HTTP, one after the other, each sent while the statement runs.
    while (running) {
      const sent = performance.now();
      const res = await fetch(`${t.baseUrl}/healthz`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      latencies.push(performance.now() - sent);
    }
    const { rows } = await statement;
    const took = performance.now() - started;
    expect(rows[0]?.n).toBe(571428);
    const slowest = Math.max(...latencies);
    const figures = `statement ${Math.round(took)} ms; ${latencies.length} answers of /healthz meanwhile, slowest ${slowest.toFixed(1)} ms`;
    if (testDbKind() === 'pglite') {
      // The statement was long enough to matter: on the server's thread it held every answer for
      // its whole length.
      expect(took, figures).toBeGreaterThan(300);
    }
    // Answers all along: before, the first one waited for the whole statement and no other came.
    expect(latencies.length, figures).toBeGreaterThan(3);
    // Well under the statement's time, with room for a busy machine.
    expect(slowest, figures).toBeLessThan(took / 3);
  }, 60_000);
});
