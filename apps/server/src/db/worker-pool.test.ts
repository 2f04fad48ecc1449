import { BACKGROUND_YOUNG_GENERATION_MB } from '../lib/thread-priority.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteWorkerPool } from './worker-pool.ts';

interface Tables {
  items: { id: number; name: string };
}

/** The embedded database's worker as Kysely's `pg` pool (decision 060), without a server around it. */
describe('the embedded database in its worker thread', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-worker-pool-'));
  let pool: PGliteWorkerPool;
  let db: Kysely<Tables>;
  /** This process's threads before the worker started. */
  let threadsBefore: Set<string>;
  beforeAll(async () => {
    threadsBefore = new Set(fs.readdirSync('/proc/self/task'));
    pool = await PGliteWorkerPool.open({ pgDataDir: path.join(dir, 'pgdata') });
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    await sql`create table items (id int primary key, name text not null)`.execute(db);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(process.platform === 'linux')(
    'runs below the thread that answers requests: ten nice levels lower (decision 066)',
    () => {
      /** A thread's niceness: field 19 of its stat, after the parenthesised name. */
      const niceness = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      const own = niceness(fs.readFileSync('/proc/thread-self/stat', 'utf8'));
      const started = fs
        .readdirSync('/proc/self/task')
        .filter((tid) => !threadsBefore.has(tid))
        .flatMap((tid) => {
          try {
            return [niceness(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'))];
          } catch {
            return []; // ended meanwhile
          }
        });
      expect(started).toContain(Math.min(19, own + 10));
      expect(own).toBeLessThan(Math.min(19, own + 10));
    },
  );

  it('answers each of many statements sent in one turn with its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => sql<{ n: number }>`select ${i}::int as n`.execute(db)),
    );
    expect(answers.map(({ rows }) => rows[0]?.n)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('keeps a transaction to its connection: others wait for its end and see only what it committed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedOne = new Promise<void>((resolve) => (inserted = resolve));
    const rolledBack = db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: 1, name: 'one' }).execute();
        inserted();
        await held;
        throw new Error('changed my mind');
      })
      .catch((err: unknown) => err);
    await insertedOne;
    expect(pool.writes.started).toBeGreaterThan(pool.writes.done);
    // Sent while the transaction is open, before its ROLLBACK: PGlite has one session, so a read
    // that did not wait for the transaction's end would see its row.
    const outside = db.selectFrom('items').select('id').execute();
    // Statements leave at the end of a turn: two turns on, the read is on its way, ahead of the ROLLBACK.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await rolledBack).toMatchObject({ message: 'changed my mind' });
    expect(await outside).toEqual([]);
    expect(pool.writes.started).toBe(pool.writes.done);

    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 1, name: 'one' }).execute();
    });
    expect(await db.selectFrom('items').select('id').execute()).toEqual([{ id: 1 }]);
    expect(pool.writes.started).toBe(pool.writes.done);
  });

  it('does not count the writes of its uncounted connections (decision 067)', async () => {
    const uncounted = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: pool.uncounted() }) });
    const before = { ...pool.writes };
    await uncounted.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 20, name: 'twenty' }).execute();
      await trx.updateTable('items').set({ name: 'XX' }).where('id', '=', 20).execute();
    });
    await uncounted.deleteFrom('items').where('id', '=', 20).execute();
    expect(pool.writes).toEqual(before);
    // The same statements through a counted connection count, and the pool is still open.
    await db.insertInto('items').values({ id: 20, name: 'twenty' }).execute();
    await db.deleteFrom('items').where('id', '=', 20).execute();
    expect(pool.writes).toEqual({ started: before.started + 2, done: before.done + 2 });
    await uncounted.destroy();
    expect(await db.selectFrom('items').select('id').where('id', '=', 20).execute()).toEqual([]);
  });

  it('reports affected rows, isolation settings and PostgreSQL errors with their fields', async () => {
    await db.insertInto('items').values({ id: 3, name: 'three' }).execute();
    const updated = await db
      .updateTable('items')
      .set({ name: 'x' })
      .where('id', 'in', [1, 3])
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(
        async (trx) =>
          (await sql<{ l: string }>`select current_setting('transaction_isolation') as l`.execute(trx))
            .rows[0]?.l,
      );
    expect(level).toBe('serializable');
    const duplicate = await db
      .insertInto('items')
      .values({ id: 1, name: 'again' })
      .execute()
      .catch((err: unknown) => err);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'items_pkey' });
    expect((duplicate as Error).message).toContain('duplicate key');
    const deleted = await db.deleteFrom('items').executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(2n);
  });

  it("keeps the thread's young generation small, so that fast allocation leaves no resident pages (decision 069)", () => {
    expect(pool.resourceLimits?.maxYoungGenerationSizeMb).toBe(BACKGROUND_YOUNG_GENERATION_MB);
  });

  it("keeps postgres's shared buffers at 16 MB, so that its memory stays at its initial size (decision 066)", async () => {
    const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db);
    expect(rows).toEqual([{ shared_buffers: '16MB' }]);
  });
});
