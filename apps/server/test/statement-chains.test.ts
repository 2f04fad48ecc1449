import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchEventLoop } from './event-loop-watch.ts';
import { startTestApp, testDbKind, type TestApp } from './test-app.ts';

/**
 * A long chain of awaited statements (an import indexing thousands of operations) must leave the
 * event loop turns. When PGlite ran on this thread it settled every statement at once, so the
 * chain ran in microtasks only and held the loop for its whole length (1.6 s for a 3,000-operation
 * import); now every statement is an answer from the database's own thread (decision 054), as on
 * PostgreSQL, where every statement is real I/O.
 */
describe(`a chain of statements on ${testDbKind()}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('gives the event loop turns, in and out of a transaction', async () => {
    const chain = async (db: typeof t.app.db) => {
      for (let i = 0; i < 1500; i++) await sql`select ${i}::int as n`.execute(db);
    };
    const watch = watchEventLoop();
    const started = performance.now();
    await chain(t.app.db);
    await t.app.db.transaction().execute(chain);
    const ms = performance.now() - started;
    const { longestWork, turns } = watch.stop();
    const figures = `3,000 statements in ${Math.round(ms)} ms, ${turns} turns of the event loop; longest work between two: ${longestWork.toFixed(1)} ms`;
    // The chain was long enough to need turns at all.
    expect(ms, figures).toBeGreaterThan(100);
    // Before: one turn for the whole chain (1,343 ms of work). Now the loop turns at least every
    // 50 ms on average.
    expect(turns, figures).toBeGreaterThan(ms / 50);
    // Single turns of 50-100 ms were seen now and then (one in a run, never at the same place,
    // also without statements waiting: V8's own work on this thread), so the bound for the
    // longest is that no stretch of the chain comes near its whole length.
    expect(longestWork, figures).toBeLessThan(200);
  }, 120_000);
});
