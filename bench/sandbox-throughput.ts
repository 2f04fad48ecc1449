/**
 * The sandbox call under concurrent load against a plain `node:http` hello world in the same run,
 * and whether every call is recorded (issue 29, decision 055), with what a recorded call takes on
 * disk (the rows and the indexes of `api_calls`, per call, after the run).
 *   npm run bench:sandbox [-- --duration 5 --connections 10,50 --rounds 2]          (PGlite only)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:sandbox
 *                     (PGlite, then PostgreSQL: a fresh database on that server, dropped after)
 *   npm run bench:sandbox -- --databases postgres              (only one of them)
 *   npm run bench:sandbox -- --before /tmp/portico-before      (that checkout's server first, the
 *                                             same way, for each database: before and after)
 *   BENCH_PORTAL_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench:sandbox  (profile)
 *   npm run bench:sandbox -- --compressed     (an operation with a 6 KB answer, imported by the demo
 *                                             administrator, called with Accept-Encoding: gzip,
 *                                             deflate, br as fetch and browsers call it)
 *
 * For each database: the portal (its own process, started as `npm run serve` starts it) on a fresh
 * database with the demo content; through its API the demo developer creates an organization and
 * an application (client_credentials) subscribed to the Accounts API and gets a token. A plain
 * `node:http` hello world runs in its own process. Then, with autocannon, for each connection
 * count and round, one after the other: the hello world, the sandbox call
 * `GET /sandbox/accounts-v1/accounts?limit=5` with `Authorization: Bearer` (token, scopes against
 * the token and the client's allowed scopes, query validation, mock answer, recording) and
 * `/healthz` of the same portal (what the framework alone costs). The sandbox runs send a fixed
 * number of requests (about `duration` seconds' worth, from its warm-up), so that every request
 * the bench makes gets its answer before the next run: after a graceful stop (SIGTERM) the rows of
 * `api_calls` and the rollups must count exactly the sandbox answers the bench received.
 *
 * Beside the calls a second, each run's CPU time per answered call (user + system, from /proc):
 * the hello world's, and the portal's by thread (the answering thread, the worker threads, V8's
 * and libuv's helpers) with, on PostgreSQL, the server's processes. On two cores shared with the
 * load generator the calls a second of both servers move with the machine; the CPU a call costs
 * moves with the code, and its share (node:http's CPU per call over the sandbox's) is the aim of
 * 25 % read without the load generator's part.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { autocannon, type CannonResult } from './autocannon.ts';
import { freshDatabase } from './database.ts';
import { check, demoAccounts, sandboxClient, signedIn } from './portal-api.ts';
import { commandCpu, freePort, loadAverage, startPortal, threadCpu, type RunningPortal } from './support.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10,50' },
    rounds: { type: 'string', default: '2' },
    databases: { type: 'string', default: '' },
    // Another checkout's server measured the same way right before this one's (a 'before').
    before: { type: 'string', default: '' },
    // Calls an operation with a 6 KB answer, accepting br and gzip as fetch and browsers do.
    compressed: { type: 'boolean', default: false },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = args.connections.split(',').map(Number);
const ROUNDS = Number(args.rounds);
const DATABASES = (args.databases || (process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite'))
  .split(',')
  .map((d) => d.trim());
if (DATABASES.includes('postgres') && !process.env.BENCH_DATABASE_URL)
  throw new Error(
    '--databases postgres needs BENCH_DATABASE_URL (a PostgreSQL server to create a database on)',
  );

const COMPRESSED = args.compressed;
const SANDBOX_ALIAS = COMPRESSED ? 'bench-statements' : 'accounts-v1';
const SANDBOX_PATH = COMPRESSED
  ? `/sandbox/${SANDBOX_ALIAS}/statement`
  : `/sandbox/${SANDBOX_ALIAS}/accounts?limit=5`;

/**
 * For --compressed: an API whose one operation answers 40 statement lines (6 KB of JSON),
 * with the Accounts API's scope, so that the bench's application may call it and every call is
 * recorded. Imported by the demo administrator as the console imports an API.
 */
const STATEMENTS_API = {
  openapi: '3.0.3',
  info: { title: 'Bench statements', version: '1.0.0' },
  components: {
    securitySchemes: {
      oauth2: {
        type: 'oauth2',
        flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { 'accounts:read': 'Read' } } },
      },
    },
  },
  security: [{ oauth2: ['accounts:read'] }],
  paths: {
    '/statement': {
      get: {
        operationId: 'statement',
        responses: {
          '200': {
            description: 'The lines of a statement',
            content: {
              'application/json': {
                example: {
                  lines: Array.from({ length: 40 }, (_, i) => ({
                    id: `line-${i}`,
                    bookingDate: '2026-12-01',
                    amount: { currency: 'EUR', amount: `-${(i * 3.7).toFixed(2)}` },
                    remittanceInformation: `Card payment ${i} at a coffee roaster`,
                  })),
                },
              },
            },
          },
        },
      },
    },
  },
};

/** A plain node:http hello world (its own process). */
async function helloWorld(): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const code = `
    require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('hello world');
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

const perSecond = (r: CannonResult) => r['2xx'] / r.duration;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

/**
 * CPU time per answered call (µs) of a run, by thread (/proc, support.ts threadCpu): what a
 * change of the code moves, however the load generator and the machine's other work share the
 * two cores, where calls a second move with both.
 */
interface CpuPerCall {
  /** The portal's answering thread (or the hello world's only one). */
  main: number;
  /** Its worker threads (the embedded database's, the document pool's). */
  workers: number;
  /** V8's helpers (garbage collection, compilation) and libuv's pool. */
  helpers: number;
  /** The PostgreSQL server's processes (the bench's database; 0 on PGlite). */
  postgres: number;
  total: number;
}

/** Runs `run` and works out the CPU its answers cost the process `pid` (and PostgreSQL). */
async function withCpu(
  pid: number,
  postgres: boolean,
  run: () => Promise<CannonResult>,
): Promise<{ result: CannonResult; cpu: CpuPerCall }> {
  const before = threadCpu(pid);
  const pgBefore = postgres ? commandCpu('postgres') : 0;
  const result = await run();
  const after = threadCpu(pid);
  const pgMs = postgres ? commandCpu('postgres') - pgBefore : 0;
  const used = (kind: (name: string) => boolean) =>
    [...after].reduce((ms, [name, v]) => (kind(name) ? ms + v - (before.get(name) ?? 0) : ms), 0);
  const calls = Math.max(1, result['2xx']);
  const perCall = (ms: number) => (ms * 1000) / calls;
  const main = perCall(used((n) => n === 'main'));
  const workers = perCall(used((n) => n === 'WorkerThread'));
  const helpers = perCall(used((n) => n !== 'main' && n !== 'WorkerThread'));
  const pg = perCall(pgMs);
  return { result, cpu: { main, workers, helpers, postgres: pg, total: main + workers + helpers + pg } };
}

interface Row {
  database: string;
  connections: number;
  round: number;
  hello: number;
  sandbox: CannonResult;
  healthz: CannonResult;
  cpu: { hello: CpuPerCall; sandbox: CpuPerCall; healthz: CpuPerCall };
  load: string;
}

/** node:http's CPU per call over the sandbox's (the 25 % aim without the load generator's part). */
const cpuShare = (hello: CpuPerCall, sandbox: CpuPerCall) =>
  `${((100 * hello.total) / sandbox.total).toFixed(1)} %`;
/** The sandbox's CPU per call, by thread. */
const cpuParts = (c: CpuPerCall) =>
  `main ${fmt(c.main)}, workers ${fmt(c.workers)}, helpers ${fmt(c.helpers)}` +
  (c.postgres ? `, postgres ${fmt(c.postgres)}` : '');

async function benchOne(
  kind: string,
  checkout: string | undefined,
): Promise<{ rows: Row[]; recording: string; ok: boolean }> {
  const saved = process.env.BENCH_DATABASE_URL;
  if (kind === 'pglite') delete process.env.BENCH_DATABASE_URL;
  const database = await freshDatabase();
  if (saved !== undefined) process.env.BENCH_DATABASE_URL = saved;
  const { dataDir, databaseUrl, remove } = database;
  const label = `${database.label}${checkout ? ` (${checkout})` : ''}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const hello = await helloWorld();
  let portal: RunningPortal | undefined;
  let stopped = false;
  const rows: Row[] = [];
  try {
    portal = await startPortal({
      port,
      dataDir,
      host: '127.0.0.1',
      ...(checkout ? { checkout } : {}),
      env: {
        HOST: '127.0.0.1',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...(process.env.BENCH_PORTAL_NODE_OPTIONS
          ? { NODE_OPTIONS: process.env.BENCH_PORTAL_NODE_OPTIONS }
          : {}),
      },
    });
    console.log(
      `${label}: portal ready in ${(portal.ms / 1000).toFixed(1)} s; load average ${loadAverage().join(' ')}`,
    );

    const {
      application: { clientId },
      token,
    } = await sandboxClient(base, {
      organization: 'Sandbox throughput bench',
      title: 'Sandbox throughput probe',
    });
    if (COMPRESSED) {
      const admin = await signedIn(base, demoAccounts().administrator);
      admin.csrfToken = await (await check(await admin.get('/session/token'), 200, 'CSRF token')).text();
      const imported = await admin.request(
        '/admin-api/catalog/import-api?product=bench-statements&alias=bench-statements&filename=statements.json',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': admin.csrfToken },
          body: JSON.stringify(STATEMENTS_API),
        },
      );
      await check(imported, 201, 'the statements API imported');
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${token.access_token}`,
      ...(COMPRESSED ? { 'accept-encoding': 'gzip, deflate, br' } : {}),
    };
    // The call really checks the token: without it, 401 (not recorded: no client is known).
    const refused = await fetch(`${base}${SANDBOX_PATH}`);
    await refused.arrayBuffer();
    if (refused.status !== 401)
      throw new Error(`the sandbox call without a token answered ${refused.status}`);
    const first = await fetch(`${base}${SANDBOX_PATH}`, { headers });
    await first.arrayBuffer();
    if (first.status !== 200) throw new Error(`the sandbox call answered ${first.status}`);
    if (COMPRESSED && first.headers.get('content-encoding') !== 'br')
      throw new Error(
        `the sandbox answered in ${first.headers.get('content-encoding') ?? 'no encoding'}, not br`,
      );
    /** Sandbox answers received: each must be one row of api_calls after the graceful stop. */
    let answered = 1;

    const sandbox = async (connections: number, amount: number): Promise<CannonResult> => {
      const r = await autocannon({ url: `${base}${SANDBOX_PATH}`, connections, amount, headers });
      answered += r['2xx'];
      if (r.non2xx || r.errors || r.timeouts)
        throw new Error(`sandbox: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      return r;
    };
    for (const connections of CONNECTIONS) {
      // Warm-up (1 s each), which also tells how many sandbox requests fill `duration` seconds.
      await autocannon({ url: hello.url, connections, duration: 1 });
      await autocannon({ url: `${base}/healthz`, connections, duration: 1 });
      const warm = await sandbox(connections, Math.max(connections * 20, 500));
      const amount = Math.max(connections * 20, Math.round(perSecond(warm) * DURATION));
      const pid = portal.pid!;
      const onPostgres = Boolean(databaseUrl);
      for (let round = 1; round <= ROUNDS; round++) {
        const h = await withCpu(hello.pid, false, () =>
          autocannon({ url: hello.url, connections, duration: DURATION }),
        );
        if (h.result.non2xx || h.result.errors)
          throw new Error(`node:http: ${h.result.non2xx} non-2xx, ${h.result.errors} errors`);
        const s = await withCpu(pid, onPostgres, () => sandbox(connections, amount));
        const z = await withCpu(pid, onPostgres, () =>
          autocannon({ url: `${base}/healthz`, connections, duration: DURATION }),
        );
        const row: Row = {
          database: label,
          connections,
          round,
          hello: perSecond(h.result),
          sandbox: s.result,
          healthz: z.result,
          cpu: { hello: h.cpu, sandbox: s.cpu, healthz: z.cpu },
          load: loadAverage()[0]!,
        };
        rows.push(row);
        const sr = s.result;
        console.log(
          `  ${connections} connections, round ${round}: node:http ${fmt(row.hello)} req/s; sandbox ${fmt(perSecond(sr))} req/s ` +
            `(${((100 * perSecond(sr)) / row.hello).toFixed(1)} %), p50 ${sr.latency.p50} ms, p99 ${sr.latency.p99} ms; ` +
            `/healthz ${fmt(perSecond(z.result))} req/s, p99 ${z.result.latency.p99} ms; load ${row.load}\n` +
            `    CPU per call: node:http ${fmt(h.cpu.total)} µs; sandbox ${fmt(s.cpu.total)} µs (${cpuParts(s.cpu)}; ` +
            `${cpuShare(h.cpu, s.cpu)} of it is node:http's); /healthz ${fmt(z.cpu.total)} µs (${cpuParts(z.cpu)})`,
        );
      }
    }

    // --- Graceful stop, then the records ------------------------------------------------------
    stopped = true;
    const { ms: stopMs, code } = await portal.stop();
    if (code !== 0) throw new Error(`the portal stopped with exit code ${code}:\n${portal.output()}`);
    const handle = await openDatabase({ databaseUrl, dataDir });
    let counted: {
      calls: number;
      daily: number;
      per_api: number;
      all_calls: number;
      heap: number;
      indexes: number;
    };
    try {
      counted = (
        await sql<typeof counted>`select
          (select count(*) from api_calls where client_id = ${clientId}) as calls,
          (select coalesce(sum(calls), 0) from api_call_daily where client_id = ${clientId}) as daily,
          (select coalesce(sum(calls), 0) from api_calls_per_api_day where api_alias = ${SANDBOX_ALIAS}) as per_api,
          (select count(*) from api_calls) as all_calls,
          pg_relation_size('api_calls') as heap, pg_indexes_size('api_calls') as indexes`.execute(handle.db)
      ).rows[0]!;
    } finally {
      await handle.close();
    }
    const perCall = (bytes: number) => Math.round(Number(bytes) / Math.max(1, Number(counted.all_calls)));
    const ok =
      Number(counted.calls) === answered &&
      Number(counted.daily) === answered &&
      Number(counted.per_api) === answered;
    const recording =
      `${label}: ${answered.toLocaleString('en')} sandbox answers received; after the graceful stop (${stopMs.toFixed(0)} ms) ` +
      `api_calls holds ${Number(counted.calls).toLocaleString('en')}, api_call_daily counts ${Number(counted.daily).toLocaleString('en')}, ` +
      `api_calls_per_api_day ${Number(counted.per_api).toLocaleString('en')}: ${ok ? 'all recorded' : 'MISSING OR EXTRA CALLS'}; ` +
      `on disk per call of api_calls: ${perCall(counted.heap)} bytes of rows, ${perCall(counted.indexes)} of indexes`;
    console.log(recording);
    return { rows, recording, ok };
  } finally {
    hello.stop();
    if (!stopped) await portal?.stop().catch(() => undefined);
    await remove();
  }
}

const results: Awaited<ReturnType<typeof benchOne>>[] = [];
for (const kind of DATABASES) {
  if (args.before) results.push(await benchOne(kind, args.before));
  results.push(await benchOne(kind, undefined));
}

console.log(
  `\n${DURATION} s runs, ${ROUNDS} round(s) per connection count; 1-minute load average after each round in the last column`,
);
console.log(
  "CPU µs per answered call (user + system, /proc): node:http, the sandbox (its main thread; the rest: the portal's other threads and PostgreSQL) and /healthz; the CPU share is node:http's CPU per call over the sandbox's",
);
console.log(
  '| database | connections | node:http req/s | sandbox req/s | share | sandbox p50 / p99 | /healthz req/s, p99 | CPU µs: node:http; sandbox (main + rest); /healthz | CPU share | load |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const { rows } of results) {
  for (const r of rows) {
    const s = perSecond(r.sandbox);
    const { hello, sandbox, healthz } = r.cpu;
    console.log(
      `| ${r.database} | ${r.connections} | ${fmt(r.hello)} | ${fmt(s)} | ${((100 * s) / r.hello).toFixed(1)} % | ` +
        `${r.sandbox.latency.p50} / ${r.sandbox.latency.p99} ms | ${fmt(perSecond(r.healthz))}, ${r.healthz.latency.p99} ms | ` +
        `${fmt(hello.total)}; ${fmt(sandbox.total)} (${fmt(sandbox.main)} + ${fmt(sandbox.total - sandbox.main)}); ${fmt(healthz.total)} | ` +
        `${cpuShare(hello, sandbox)} | ${r.load} |`,
    );
  }
}
for (const { recording } of results) console.log(recording);
if (results.some((r) => !r.ok)) process.exitCode = 1;
