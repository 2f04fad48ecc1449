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
  beforeAll(async () => {
    pool = await PGliteWorkerPool.open({ pgDataDir: path.join(dir, 'pgdata') });
    db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    await sql`create table items (id int primary key, name text not null)`.execute(db);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

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
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 1, name: 'one' }).execute();
      inserted();
      await held;
      const inside = await trx.selectFrom('items').select('id').execute();
      expect(inside).toHaveLength(1);
    });
    await insertedOne;
    const writes = { ...pool.writes };
    expect(writes.started).toBeGreaterThan(writes.done);
    let outsideDone = false;
    const outside = db
      .selectFrom('items')
      .select('id')
      .execute()
      .finally(() => (outsideDone = true));
    // Several turns of this thread and the worker's: the other connection's read still waits.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(outsideDone).toBe(false);
    release();
    await transaction;
    expect(await outside).toEqual([{ id: 1 }]);
    expect(pool.writes.started).toBe(pool.writes.done);

    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 2, name: 'two' }).execute();
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.selectFrom('items').select('id').execute()).toEqual([{ id: 1 }]);
    expect(pool.writes.started).toBe(pool.writes.done);
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
});
