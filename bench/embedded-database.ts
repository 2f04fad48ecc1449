/**
 * The embedded database in this thread or in its own (decision 054): a sandbox-like mix of short
 * reads and writes at 10 and 50 concurrent callers, the main thread's longest stall while one
 * long statement runs, and a bulk write.
 *   node bench/embedded-database.ts inprocess    PGlite on this thread (Kysely's PGliteDialect, as before 054)
 *   node bench/embedded-database.ts worker       PGlite in a worker thread (db/worker-pool.ts)
 *   node bench/embedded-database.ts socket 1 --socket-package /tmp/pglite-socket/package
 *       @electric-sql/pglite-socket in a worker, `pg` with a pool of 1 (or 10) on this thread;
 *       the package is not a dependency: `npm pack @electric-sql/pglite-socket` and unpack it.
 * Each call reads a token by its unique key, then records the call; every 10th call records it
 * in a transaction that also counts the token's calls. Wrong rows (a token read back other than
 * asked, a count of 0 in the transaction) and failed statements are counted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect, sql, type Generated } from 'kysely';
import pg from 'pg';
import { PGliteWorkerPool } from '../apps/server/src/db/worker-pool.ts';
import { loadAverage } from './support.ts';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'socket-package': { type: 'string' }, seconds: { type: 'string', default: '5' } },
});
const mode = positionals[0] as 'inprocess' | 'worker' | 'socket';
const poolMax = Number(positionals[1] ?? 1);
const MS = Number(args.seconds) * 1000;

interface Tables {
  tokens: { id: Generated<number>; token: string; scopes: string };
  calls: { id: Generated<number>; token_id: number; path: string; status: number };
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portico-embedded-${mode}-`));
let db: Kysely<Tables>;
let close: () => Promise<void>;
const parsers = { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) };
if (mode === 'inprocess') {
  const pglite = await PGlite.create(path.join(dir, 'pgdata'), { parsers });
  db = new Kysely({ dialect: new PGliteDialect({ pglite }) });
  close = () => db.destroy();
} else if (mode === 'worker') {
  const pool = await PGliteWorkerPool.open({ pgDataDir: path.join(dir, 'pgdata') });
  db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  close = () => db.destroy();
} else if (mode === 'socket') {
  if (!args['socket-package'])
    throw new Error('--socket-package <unpacked @electric-sql/pglite-socket> is needed');
  const entry = path.resolve(args['socket-package'], 'dist/index.js');
  const code = `
    import { parentPort, workerData } from 'node:worker_threads';
    import { PGlite } from '@electric-sql/pglite';
    const { PGLiteSocketServer } = await import(workerData.entry);
    const db = await PGlite.create(workerData.pgDataDir);
    const server = new PGLiteSocketServer({ db, path: workerData.socket, maxConnections: 100 });
    await server.start();
    parentPort.postMessage('ready');
    parentPort.once('message', async () => { await server.stop(); await db.close(); parentPort.close(); });`;
  // An ES module worker from text cannot resolve packages: written beside this file instead.
  const file = path.join(import.meta.dirname, `.socket-worker-${process.pid}.mjs`);
  fs.writeFileSync(file, code);
  const socket = path.join(dir, '.s.PGSQL.5432');
  const worker = new Worker(file, { workerData: { entry, pgDataDir: path.join(dir, 'pgdata'), socket } });
  await new Promise((resolve) => worker.once('message', resolve));
  fs.rmSync(file);
  pg.types.setTypeParser(20, Number);
  const pool = new pg.Pool({ host: dir, database: 'postgres', user: 'postgres', max: poolMax });
  db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  close = async () => {
    await db.destroy();
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
  };
} else throw new Error('mode: inprocess, worker or socket');

await sql`create table tokens (id serial primary key, token text unique, scopes text)`.execute(db);
await sql`create table calls (id bigserial primary key, token_id int, path text, status int)`.execute(db);
await sql`insert into tokens (token, scopes) select 'tok' || g, 'read write' from generate_series(1, 1000) g`.execute(
  db,
);

let wrong = 0;
let failed = 0;
async function call(i: number): Promise<void> {
  const token = `tok${(i % 1000) + 1}`;
  const row = await db
    .selectFrom('tokens')
    .select(['id', 'token'])
    .where('token', '=', token)
    .executeTakeFirst();
  if (row?.token !== token) wrong++;
  const record = { token_id: row?.id ?? 0, path: '/x', status: 200 };
  if (i % 10) {
    await db.insertInto('calls').values(record).execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('calls').values(record).execute();
    const counted = await trx
      .selectFrom('calls')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('token_id', '=', record.token_id)
      .executeTakeFirst();
    if (!counted?.n) wrong++;
  });
}

async function load(callers: number, ms: number) {
  const latencies: number[] = [];
  let n = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        const sent = performance.now();
        await call(n++).catch(() => failed++);
        latencies.push(performance.now() - sent);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.floor(latencies.length * q)]!.toFixed(1);
  return `${Math.round(latencies.length / (ms / 1000))} calls/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

const label = mode === 'socket' ? `socket, pool ${poolMax}` : mode;
console.log(`${label}; load average ${loadAverage().join(' ')}`);
await load(10, 1000);
for (const callers of [10, 50]) {
  console.log(`  ${callers} callers: ${await load(callers, MS)}; wrong rows ${wrong}, failed ${failed}`);
}

// A 1 ms timer on this thread while a long statement runs: its worst lateness is the stall.
let worst = 0;
let last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  worst = Math.max(worst, now - last - 1);
  last = now;
}, 1);
const started = performance.now();
await sql`select count(*) from generate_series(1, 3000000) g where g % 7 = 0`.execute(db);
const took = performance.now() - started;
await new Promise((resolve) => setTimeout(resolve, 20));
clearInterval(timer);
console.log(`  long statement ${took.toFixed(0)} ms; this thread's longest stall ${worst.toFixed(1)} ms`);

const bulk = performance.now();
await db.transaction().execute(async (trx) => {
  for (let i = 0; i < 200; i++) {
    const rows = Array.from({ length: 100 }, (_, k) => ({ token_id: k, path: 'p'.repeat(200), status: 200 }));
    await trx.insertInto('calls').values(rows).execute();
  }
});
console.log(`  20,000 rows in one transaction, 100 a statement: ${(performance.now() - bulk).toFixed(0)} ms`);
await close();
fs.rmSync(dir, { recursive: true, force: true });
