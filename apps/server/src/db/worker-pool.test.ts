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
