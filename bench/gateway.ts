/**
 * The sandbox gateway's added latency per call, and whether call recording keeps up.
 *   npm run bench:gateway [-- --requests 2000 --warmup 200]                 (PGlite, temp DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:gateway
 *                                          (PostgreSQL: a fresh database on that server, dropped after)
 * Starts the portal (its own process, started as `npm run serve` starts it) on a fresh database with
 * the demo content. Through its HTTP API the demo developer creates an organization and an
 * application (client_credentials) subscribed to the Accounts API, and gets a token at
 * /oauth/token. Then, sequentially over one keep-alive loopback connection, after the warm-up, in
 * rounds (a, b, c, a, b, c, ...: a change of the machine's load hits the three alike):
 *   (a) GET /healthz                                 same server, no gateway work
 *   (b) GET /sandbox/fx-rates-v2/currencies          an operation without security, no token
 *   (c) GET /sandbox/accounts-v1/accounts?limit=5    bearer token (RS256), scope check, query
 *                                                    validation, and the call is recorded
 * Added latency = (c) − (a). Finally stops the portal with SIGTERM (graceful: the recorder writes
 * what is left) and counts the recorded calls and their rollup against the calls made.
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { sandboxClient } from './portal-api.ts';
import { freshDatabase } from './database.ts';
import { freePort, loadAverage, percentiles, startPortal, type RunningPortal } from './support.ts';
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '4' },
  },
});
const REQUESTS = Number(args.requests);
const WARMUP = Number(args.warmup);
const ROUNDS = Number(args.rounds);
const load = () => loadAverage().join(' ');
const stats = percentiles;
const ms = (n: number) => `${n.toFixed(3)} ms`;

// --- A fresh database and the portal on it ------------------------------------------------------

const { dataDir, databaseUrl, label: dbLabel, remove: removeDatabase } = await freshDatabase();

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let portal: RunningPortal | undefined;
let stopped = false;
async function stop(): Promise<number> {
  if (stopped || !portal) return 0;
  stopped = true;
  const { ms, code } = await portal.stop();
  if (code !== 0) throw new Error(`the portal stopped with exit code ${code}:\n${portal.output()}`);
  return ms;
}

try {
  portal = await startPortal({
    port,
    dataDir,
    host: '127.0.0.1',
    env: { HOST: '127.0.0.1', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const readySeconds = portal.ms / 1000;
  console.log(
    `database: ${dbLabel}; portal (pid ${portal.pid}) ready in ${readySeconds.toFixed(1)} s; load average ${load()}`,
  );

  // --- An application with a client_credentials token, through the portal's API ---------------
  const {
    application: { uuid: appUuid, clientId },
    token,
  } = await sandboxClient(base, { organization: 'Gateway bench', title: 'Latency probe' });
  console.log(`application ${appUuid}, client ${clientId}, token scope '${token.scope ?? ''}'`);

  // --- The three calls ------------------------------------------------------------------------
  const bearer = { authorization: `Bearer ${token.access_token}` };
  const cases = [
    { key: 'a', label: '(a) GET /healthz (no gateway work)', url: '/healthz', headers: {}, recorded: false },
    {
      key: 'b',
      label: '(b) GET /sandbox/fx-rates-v2/currencies (no security)',
      url: '/sandbox/fx-rates-v2/currencies',
      headers: {},
      recorded: false,
    },
    {
      key: 'c',
      label: '(c) GET /sandbox/accounts-v1/accounts?limit=5 (bearer, scope, validation)',
      url: '/sandbox/accounts-v1/accounts?limit=5',
      headers: bearer,
      recorded: true,
    },
  ] as const;
  let recordable = 0;
  // The secured operation refuses a call without the token: (c) really checks it.
  const refused = await fetch(`${base}/sandbox/accounts-v1/accounts?limit=5`);
  await refused.arrayBuffer();
  if (refused.status !== 401) throw new Error(`(c) without a token answered ${refused.status}, not 401`);

  async function call(c: (typeof cases)[number]): Promise<number> {
    const s = performance.now();
    const res = await fetch(`${base}${c.url}`, { headers: c.headers });
    await res.arrayBuffer();
    const elapsed = performance.now() - s;
    if (res.status !== 200) throw new Error(`${c.label}: status ${res.status}`);
    if (c.recorded) recordable++;
    return elapsed;
  }
  for (const c of cases) for (let k = 0; k < WARMUP; k++) await call(c);
  // In rounds (a, b, c, a, b, c, ...) so that a change of the machine's load hits all three alike.
  const times = new Map<string, number[]>(cases.map((c) => [c.key, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const share = Math.floor(REQUESTS / ROUNDS) + (round < REQUESTS % ROUNDS ? 1 : 0);
      for (let k = 0; k < share; k++) times.get(c.key)!.push(await call(c));
    }
  }
  const results = new Map([...times].map(([key, t]) => [key, stats(t)]));

  // --- Graceful stop, then what was recorded -------------------------------------------------
  const stopMs = await stop();
  // The portal's own database code, on PGlite's folder (free again) or the PostgreSQL database.
  const handle = await openDatabase({ databaseUrl, dataDir });
  let rows: { calls: number; rollup: number; median_ms: number; p99_ms: number };
  try {
    rows = (
      await sql<typeof rows>`select
        (select count(*) from api_calls where client_id = ${clientId}) as calls,
        (select coalesce(sum(calls), 0) from api_call_daily where client_id = ${clientId}) as rollup,
        (select percentile_cont(0.5) within group (order by duration_ms) from api_calls where client_id = ${clientId}) as median_ms,
        (select percentile_cont(0.99) within group (order by duration_ms) from api_calls where client_id = ${clientId}) as p99_ms`.execute(
        handle.db,
      )
    ).rows[0]!;
  } finally {
    await handle.close();
  }

  console.log('');
  console.log(
    `${REQUESTS} sequential requests each (in ${ROUNDS} rounds a, b, c) after ${WARMUP} warm-up, one keep-alive connection; load average now ${load()}`,
  );
  for (const c of cases) {
    const r = results.get(c.key)!;
    console.log(`${c.label}: median ${ms(r.median)}, p95 ${ms(r.p95)}, p99 ${ms(r.p99)}, mean ${ms(r.mean)}`);
  }
  const a = results.get('a')!;
  const b = results.get('b')!;
  const c = results.get('c')!;
  console.log(
    `added latency (c) − (a): median ${ms(c.median - a.median)}, p95 ${ms(c.p95 - a.p95)}, p99 ${ms(c.p99 - a.p99)}`,
  );
  console.log(
    `  of which the sandbox without token (b) − (a): median ${ms(b.median - a.median)}; token, scopes, validation and recording (c) − (b): median ${ms(c.median - b.median)}`,
  );
  console.log(
    `server-side time of (c) as recorded (reply.elapsedTime): median ${ms(Number(rows.median_ms))}, p99 ${ms(Number(rows.p99_ms))}`,
  );
  const ok = Number(rows.calls) === recordable && Number(rows.rollup) === recordable;
  console.log(
    `recording: ${recordable} calls made with the token; after the graceful stop (${stopMs.toFixed(0)} ms) ` +
      `api_calls holds ${rows.calls} and api_call_daily counts ${rows.rollup}: ${ok ? 'all recorded' : 'MISSING CALLS'}`,
  );
  if (!ok) process.exitCode = 1;
} finally {
  if (!stopped) await stop().catch(() => undefined);
  await removeDatabase();
}
