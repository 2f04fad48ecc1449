/**
 * Usage analytics over 10 million recorded gateway calls of one production application.
 *   npm run bench:analytics [-- --calls N]                                   (PGlite, temp DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:analytics
 *                                          (PostgreSQL: a fresh database on that server, dropped after)
 * Builds the portal on a fresh database with the demo content, and through its HTTP API: the demo
 * developer creates an organization and an application subscribed to the Accounts API, asks to go
 * live, the demo administrator approves (production client id). Then generates N calls (default
 * 10,000,000) of that client over the 90 UTC days before today and 20 endpoints, in SQL: the raw
 * rows of `api_calls` (by `insert ... select ... from generate_series`, in chunks of one million)
 * and the rollup `api_call_daily` derived from them by one `insert ... select ... group by`.
 * Measures `GET /phpsdk/app-analytics/aggregates` and `.../sumAggregates` for the last month over
 * real HTTP, signed in as the organization's owner (3 warm-ups, 30 runs), the query functions
 * alone, and prints the EXPLAIN ANALYZE of the SQL they run. Every answer is checked against the
 * numbers the generator produced, computed here independently of the database. Also measures the
 * provider console's dashboard (`GET /admin-api/dashboard` for the same range, as the demo
 * administrator), which reads the rollup per day, API and application (migration 0279), against
 * its baseline in the same run: the same figures read from the raw calls (the query it ran before
 * 0279), whose answer the dashboard's must equal. Then adds the calls
 * of `--tenants` other applications (default 500, one call per day and endpoint each: 900,000 raw
 * rows and as many rollup rows, what a portal with many applications holds) and measures again.
 */
import { parseArgs } from 'node:util';
import {
  CompiledQuery,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { DailyEndpointAggregate, EndpointAggregate } from '@portico/contracts/applications';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import type { Db } from '../apps/server/src/db/client.ts';
import { dailyAggregates, endpointAggregates } from '../apps/server/src/modules/applications/analytics.ts';
import { check, demoAccounts, json, signedIn, subscribedApplication } from './portal-api.ts';
import { freshDatabase } from './database.ts';
import { freePort, loadAverage, percentiles } from './support.ts';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '30' },
    warmups: { type: 'string', default: '3' },
    tenants: { type: 'string', default: '500' },
  },
});
const CALLS = Number(args.calls);
const RUNS = Number(args.runs);
const WARMUPS = Number(args.warmups);
const TENANTS = Number(args.tenants);
if (!Number.isSafeInteger(CALLS) || CALLS < 1) throw new Error('--calls must be a positive integer');

const DAY_MS = 86_400_000;
const DAYS = 90;
const SPAN_S = DAYS * 86_400;
const CHUNK = 1_000_000;

/** 20 endpoints of the demo APIs (method and path template, as the gateway records them). */
const ENDPOINTS: [alias: string, method: string, template: string][] = [
  ['accounts-v1', 'GET', '/accounts'],
  ['accounts-v1', 'GET', '/accounts/{accountId}'],
  ['accounts-v1', 'GET', '/accounts/{accountId}/balances'],
  ['accounts-v1', 'GET', '/accounts/{accountId}/transactions'],
  ['accounts-v1', 'GET', '/accounts/{accountId}/transactions/{transactionId}'],
  ['accounts-v0', 'GET', '/accounts/{accountId}/statements'],
  ['accounts-v0', 'GET', '/accounts/{accountId}/standing-orders'],
  ['payments-v1', 'POST', '/payments'],
  ['payments-v1', 'GET', '/payments/{paymentId}'],
  ['payments-v1', 'GET', '/payments/{paymentId}/status'],
  ['payments-v1', 'DELETE', '/payments/{paymentId}'],
  ['payments-v1', 'POST', '/payments/bulk'],
  ['payments-v1', 'GET', '/payments'],
  ['fx-rates-v2', 'GET', '/rates'],
  ['fx-rates-v2', 'GET', '/rates/{base}/{quote}'],
  ['fx-rates-v2', 'GET', '/rates/history'],
  ['fx-rates-v2', 'GET', '/currencies'],
  ['fx-rates-v2', 'POST', '/quotes'],
  ['get-token', 'POST', '/token'],
  ['get-token', 'POST', '/token/revoke'],
];

/*
 * The generator, call number i (0 <= i < N), in integers so that SQL and JavaScript agree exactly:
 *   second  = floor(i * SPAN_S / N)            after the start (UTC midnight 90 days ago)
 *   slot    = (i * 40507) % 210; endpoint = floor((sqrt(8 slot + 1) - 1) / 2)   (0..19, endpoint k
 *             gets k + 1 of 210 slots: a skewed mix, 0.5 % to 9.5 %)
 *   outcome = (i * 7919) % 100: < 2 → 500, < 6 → 404, else 200 (or 201 for POST)
 *   ms      = 3 + 2 endpoint + ((i * 999983) % 5000) / 100
 */
if (new Set(ENDPOINTS.map(([, m, t]) => `${m} ${t}`)).size !== ENDPOINTS.length)
  throw new Error('endpoint names must differ: the rollup is per method and path, whatever the API');
const endpointOf = (i: number) => Math.floor((Math.sqrt(8 * ((i * 40507) % 210) + 1) - 1) / 2);
const failedOf = (i: number) => (i * 7919) % 100 < 6;

interface Expected {
  /** endpoint → [success, failed] over the range */
  byEndpoint: Map<string, [number, number]>;
  /** 'day endpoint' → total over the range */
  byDay: Map<string, number>;
  total: number;
}

/** The numbers the generator produced for the days [fromDay, toDay] (offsets from the start). */
function expectedFor(fromDay: number, toDay: number, startMs: number): Expected {
  const byEndpoint = new Map<string, [number, number]>();
  const byDay = new Map<string, number>();
  const names = ENDPOINTS.map(([, method, template]) => `${method} ${template}`);
  const dayNames = Array.from({ length: DAYS }, (_, d) =>
    new Date(startMs + d * DAY_MS).toISOString().slice(0, 10),
  );
  // The calls of a day are a contiguous range of i: find the first and the last.
  const firstOfSecond = (s: number) => Math.ceil((s * CALLS) / SPAN_S);
  const from = firstOfSecond(fromDay * 86_400);
  const to = Math.min(CALLS, firstOfSecond((toDay + 1) * 86_400));
  for (let i = from; i < to; i++) {
    const day = Math.floor(Math.floor((i * SPAN_S) / CALLS) / 86_400);
    if (day < fromDay || day > toDay) throw new Error(`call ${i} falls on day ${day}, outside the range`);
    const name = names[endpointOf(i)]!;
    const e = byEndpoint.get(name) ?? [0, 0];
    e[failedOf(i) ? 1 : 0]++;
    byEndpoint.set(name, e);
    const key = `${dayNames[day]} ${name}`;
    byDay.set(key, (byDay.get(key) ?? 0) + 1);
  }
  return { byEndpoint, byDay, total: to - from };
}

const stats = percentiles;
const ms = (n: number) => `${n.toFixed(2)} ms`;
const fmt = (r: ReturnType<typeof stats>) =>
  `median ${ms(r.median)}, p95 ${ms(r.p95)} (min ${ms(r.min)}, max ${ms(r.max)})`;

/** Remembers the last query run through it, so the SQL of the real functions can be EXPLAINed. */
class CaptureQuery implements KyselyPlugin {
  last: RootOperationNode | undefined;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.last = args.node;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

async function explain(db: Db, run: (db: Db) => Promise<unknown>): Promise<string[]> {
  const capture = new CaptureQuery();
  await run(db.withPlugin(capture));
  const compiled = db.getExecutor().compileQuery(capture.last!, { queryId: 'bench-explain' });
  const result = await db.executeQuery<{ 'QUERY PLAN': string }>(
    CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((r) => r['QUERY PLAN']);
}

function planSummary(plan: string[]): string {
  const text = plan.join('\n');
  const scans = plan
    .map((l) =>
      /(Seq Scan|Index Only Scan|Index Scan|Bitmap Index Scan|Bitmap Heap Scan)\b.*? on \w+/.exec(l),
    )
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[0]);
  if (/\bapi_calls\b/.test(text)) throw new Error('the analytics query reads the raw calls (api_calls)');
  if (!/api_call_daily/.test(text)) throw new Error('the analytics query does not read api_call_daily');
  const viaIndex = /Index.* api_call_daily_pk/.test(text)
    ? 'through the index api_call_daily_pk'
    : 'no index';
  const time = /Execution Time: ([\d.]+ ms)/.exec(text)?.[1] ?? '?';
  return `${scans.join('; ')} (${viaIndex}, never api_calls); execution ${time}`;
}

// ---------------------------------------------------------------------------------------------

const { dataDir, databaseUrl, label: dbLabel, remove: cleanup } = await freshDatabase();
const port = await freePort();
const config = loadConfig({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const t0 = performance.now();
const app = await buildApp({ config }).catch(async (err: unknown) => {
  await cleanup();
  throw err;
});
await app.listen({ port, host: '127.0.0.1' }).catch(async (err: unknown) => {
  await app.close();
  await cleanup();
  throw err;
});
const base = `http://127.0.0.1:${port}`;
const db = app.db;
const load = () => loadAverage().join(' ');
console.log(
  `database: ${dbLabel}; portal ready in ${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${load()}`,
);

try {
  // --- The application, made through the portal's own API with the demo accounts -------------
  const accounts = demoAccounts();
  const owner = await signedIn(base, accounts.developer);
  const admin = await signedIn(base, accounts.administrator);
  const { uuid: appUuid } = await subscribedApplication(owner, {
    organization: 'Bench Ltd',
    title: 'Busy app',
    productAlias: 'accounts-api-v1',
  });
  await check(
    await owner.send('POST', '/jsonapi/node/go_live_form', {
      data: {
        type: 'node--go_live_form',
        attributes: {
          field_developer_type: 'Company',
          field_first_name: 'Ada',
          field_last_name: 'Lovelace',
          field_company_name: 'Bench Ltd',
          field_address: '1 Main Street, London',
          field_email: 'ada@bench.example',
          field_site_url_download_location: 'https://bench.example/app',
          field_use_cases: 'Calls the accounts API a lot, for the benchmark.',
        },
        relationships: { field_application: { data: { type: 'node--application', id: appUuid } } },
      },
    }),
    201,
    'go-live request',
  );
  const pending = await json<{
    data: { id: string; attributes: { application: { uuid: string } | null } }[];
  }>(await admin.get('/admin-api/go-live?status=pending'), 200, 'pending go-live requests');
  const request = pending.data.find((r) => r.attributes.application?.uuid === appUuid)!;
  await check(await admin.send('POST', `/admin-api/go-live/${request.id}/approve`), 200, 'approve');
  const live = await json<{
    data: { meta: { application: { applicationStatus: string; clientId: { production: string | null } } } };
  }>(await owner.get(`/jsonapi/node/application/${appUuid}`), 200, 'application');
  const clientId = live.data.meta.application.clientId.production!;
  if (live.data.meta.application.applicationStatus !== 'PRODUCTION' || !clientId)
    throw new Error('the application did not go live');
  console.log(`production application ${appUuid}, client ${clientId}`);

  // --- Generated calls: raw rows, then the rollup derived from them ----------------------------
  const today = new Date();
  const endMs = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const startMs = endMs - DAYS * DAY_MS;
  const start = new Date(startMs).toISOString();
  const endpoints = sql.join(
    ENDPOINTS.map(
      ([alias, method, template], n) => sql`(${n}::int, ${alias}, ${method}, ${`${method} ${template}`})`,
    ),
  );
  const rollupFrom = (firstId: number) => sql`insert into api_call_daily
      (day, client_id, endpoint, calls, success_calls, failed_calls, min_ms, max_ms, sum_ms)
    select (occurred_at at time zone 'UTC')::date, client_id, endpoint, count(*),
      count(*) filter (where status < 400), count(*) filter (where status >= 400),
      min(duration_ms), max(duration_ms), sum(duration_ms::double precision)
    from api_calls
    where id >= ${firstId}
    group by 1, 2, 3`;
  // The dashboard's rollup (migration 0279), as the recorder keeps it.
  const perApiFrom = (firstId: number) => sql`insert into api_calls_per_api_day
      (day, api_alias, application_uuid, calls, errors)
    select (occurred_at at time zone 'UTC')::date, api_alias, application_uuid, count(*),
      count(*) filter (where status >= 400)
    from api_calls
    where id >= ${firstId}
    group by 1, 2, 3
    on conflict on constraint api_calls_per_api_day_key do update set
      calls = api_calls_per_api_day.calls + excluded.calls,
      errors = api_calls_per_api_day.errors + excluded.errors`;
  // Production PostgreSQL gets this from autovacuum after a bulk load; PGlite has no autovacuum.
  const analyze = async () => {
    await sql`analyze api_calls`.execute(db);
    await sql`analyze api_call_daily`.execute(db);
    await sql`analyze api_calls_per_api_day`.execute(db);
  };
  const sizes = async () =>
    (
      await sql<{ calls: number; daily: number; calls_size: string; daily_size: string }>`select
        (select count(*) from api_calls) as calls, (select count(*) from api_call_daily) as daily,
        pg_size_pretty(pg_total_relation_size('api_calls')) as calls_size,
        pg_size_pretty(pg_total_relation_size('api_call_daily')) as daily_size`.execute(db)
    ).rows[0]!;
  const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

  console.log(
    `generating ${CALLS.toLocaleString('en')} calls over ${start.slice(0, 10)} .. ${new Date(endMs - DAY_MS).toISOString().slice(0, 10)}, ${ENDPOINTS.length} endpoints`,
  );
  const g0 = performance.now();
  for (let first = 0; first < CALLS; first += CHUNK) {
    const last = Math.min(CALLS, first + CHUNK) - 1;
    await sql`insert into api_calls
        (occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms)
      select ${start}::timestamptz + ((g.i * ${SPAN_S}::bigint) / ${CALLS}::bigint) * interval '1 second',
        ${appUuid}::uuid, ${clientId}, 'PRODUCTION', e.alias, e.endpoint, e.method,
        case when g.outcome < 2 then 500 when g.outcome < 6 then 404 when e.method = 'POST' then 201 else 200 end,
        (3 + 2 * e.n + ((g.i * 999983) % 5000) / 100.0)::real
      from (
        select i, (i * 7919) % 100 as outcome, floor((sqrt(8 * ((i * 40507) % 210) + 1) - 1) / 2)::int as n
        from generate_series(${first}::bigint, ${last}::bigint) as i
      ) g
      join (values ${endpoints}) as e(n, alias, method, endpoint) on e.n = g.n
      order by g.i`.execute(db);
    console.log(`  api_calls ${(last + 1).toLocaleString('en')} rows, ${seconds(g0)}`);
  }
  const generated = seconds(g0);
  const r0 = performance.now();
  await rollupFrom(0).execute(db);
  await perApiFrom(0).execute(db);
  const rolledUp = seconds(r0);
  // The raw calls' index by client and time: the portal no longer keeps one (migration 0318, no
  // query of it reads the raw calls), so the bench makes it for its own check against the raw
  // rows below, whose time is what the rollup saves over the query it replaced.
  const i0 = performance.now();
  await sql`create index if not exists bench_api_calls_client_time on api_calls (client_id, occurred_at)`.execute(
    db,
  );
  const indexed = seconds(i0);
  const a0 = performance.now();
  await analyze();
  const analyzed = seconds(a0);
  const size = await sizes();
  if (Number(size.calls) !== CALLS) throw new Error(`api_calls holds ${size.calls} rows, not ${CALLS}`);
  console.log(
    `raw calls generated in ${generated} (api_calls ${Number(size.calls).toLocaleString('en')} rows, ${size.calls_size}); ` +
      `rollup in ${rolledUp} (api_call_daily ${size.daily} rows, ${size.daily_size}); the bench's index of the raw calls ${indexed}; analyze ${analyzed}`,
  );

  // --- The last month, as the analytics page asks for it ---------------------------------------
  const toDate = new Date(endMs - DAY_MS);
  const fromDate = new Date(toDate);
  fromDate.setUTCMonth(fromDate.getUTCMonth() - 1);
  const range = { from: fromDate.toISOString().slice(0, 10), to: toDate.toISOString().slice(0, 10) };
  const fromDay = Math.round((fromDate.getTime() - startMs) / DAY_MS);
  const toDay = Math.round((toDate.getTime() - startMs) / DAY_MS);
  const expected = expectedFor(fromDay, toDay, startMs);
  console.log(
    `range ${range.from} .. ${range.to} (${toDay - fromDay + 1} days): ${expected.total.toLocaleString('en')} calls generated in it`,
  );
  const query = `fromDate=${range.from}&toDate=${range.to}&application=${encodeURIComponent(clientId)}`;

  // The shapes of spec A 3 'Analytics per endpoint', as the web app reads them.
  type Answer<Row = EndpointAggregate> = { data: Row[]; meta: { totalCalls: number } };

  function verifyAggregates(got: Answer): void {
    const sum = got.data.reduce((n, r) => n + r.successCalls + r.failedCalls, 0);
    if (sum !== expected.total || got.meta.totalCalls !== expected.total)
      throw new Error(`aggregates: ${sum} calls (meta ${got.meta.totalCalls}), generated ${expected.total}`);
    if (got.data.length !== expected.byEndpoint.size)
      throw new Error('aggregates: wrong number of endpoints');
    for (const r of got.data) {
      const [ok, failed] = expected.byEndpoint.get(r.endpoint) ?? [-1, -1];
      if (r.successCalls !== ok || r.failedCalls !== failed || r.totalCalls !== ok + failed)
        throw new Error(
          `aggregates: ${r.endpoint} ${r.successCalls}/${r.failedCalls}, generated ${ok}/${failed}`,
        );
    }
  }
  function verifyDaily(got: Answer<DailyEndpointAggregate>): void {
    const sum = got.data.reduce((n, r) => n + r.successCalls + r.failedCalls, 0);
    if (sum !== expected.total || got.meta.totalCalls !== expected.total)
      throw new Error(`sumAggregates: ${sum} calls, generated ${expected.total}`);
    if (got.data.length !== expected.byDay.size) throw new Error('sumAggregates: wrong number of rows');
    for (const r of got.data) {
      if (expected.byDay.get(`${r.referenceDate} ${r.endpoint}`) !== r.totalCalls)
        throw new Error(`sumAggregates: ${r.referenceDate} ${r.endpoint} ${r.totalCalls} calls`);
    }
  }

  // The raw calls of the range, read once through the bench's index: the answer's durations must be
  // theirs, and the time it takes is what the rollup saves.
  const q0 = performance.now();
  const raw = await sql<{
    endpoint: string;
    calls: number;
    min_ms: number;
    max_ms: number;
    avg_ms: number;
  }>`select endpoint, count(*) as calls, min(duration_ms) as min_ms, max(duration_ms) as max_ms,
      avg(duration_ms::double precision) as avg_ms
    from api_calls
    where client_id = ${clientId}
      and occurred_at >= ${range.from}::date at time zone 'UTC'
      and occurred_at < (${range.to}::date + 1) at time zone 'UTC'
    group by endpoint`.execute(db);
  const rawQueryMs = performance.now() - q0;
  const rawByEndpoint = new Map(raw.rows.map((r) => [r.endpoint, r]));
  console.log(`the range from the raw calls (bench_api_calls_client_time), once: ${ms(rawQueryMs)}`);

  const clientIds = (
    await db.selectFrom('oauth_clients').select('client_id').where('application_uuid', '=', appUuid).execute()
  ).map((c) => c.client_id);

  /** HTTP calls (verified), the query functions alone, and their plans, in the current state. */
  async function measureAll(label: string): Promise<void> {
    // The generation kept the client's keep-alive socket idle for longer than the server keeps
    // it (72 s): the first request on it may meet the reset. One throwaway call absorbs that.
    await owner.get('/session/token').then(
      (res) => res.arrayBuffer(),
      () => undefined,
    );
    async function http<Row extends EndpointAggregate>(pathname: string, verify: (a: Answer<Row>) => void) {
      const times: number[] = [];
      let answer: Answer<Row> | undefined;
      for (let k = 0; k < WARMUPS + RUNS; k++) {
        const s = performance.now();
        const res = await owner.get(`${pathname}?${query}`);
        answer = await json<Answer<Row>>(res, 200, pathname);
        const elapsed = performance.now() - s;
        if (k >= WARMUPS) times.push(elapsed);
        verify(answer);
      }
      return { times: stats(times), rows: answer!.data.length, answer: answer! };
    }
    async function alone(run: () => Promise<unknown>) {
      const times: number[] = [];
      for (let k = 0; k < WARMUPS + RUNS; k++) {
        const s = performance.now();
        await run();
        if (k >= WARMUPS) times.push(performance.now() - s);
      }
      return stats(times);
    }
    const aggregates = await http('/phpsdk/app-analytics/aggregates', verifyAggregates);
    for (const r of aggregates.answer.data) {
      const w = rawByEndpoint.get(r.endpoint);
      if (
        !w ||
        Number(w.calls) !== r.totalCalls ||
        Math.abs(r.minExecutionTime - w.min_ms) > 0.01 ||
        Math.abs(r.maxExecutionTime - w.max_ms) > 0.01 ||
        Math.abs(r.avgExecutionTime - w.avg_ms) > 0.01
      )
        throw new Error(`aggregates: ${r.endpoint} differs from the raw calls`);
    }
    const daily = await http('/phpsdk/app-analytics/sumAggregates', verifyDaily);
    const aggregatesSql = await alone(() => endpointAggregates(db, clientIds, range));
    const dailySql = await alone(() => dailyAggregates(db, clientIds, range));
    const aggregatesPlan = await explain(db, (d) => endpointAggregates(d, clientIds, range));
    const dailyPlan = await explain(db, (d) => dailyAggregates(d, clientIds, range));

    console.log('');
    console.log(`== ${label}; load average ${load()}`);
    console.log(
      `answers verified (${RUNS + WARMUPS} times each): ${expected.total.toLocaleString('en')} calls in the range, per endpoint and per day`,
    );
    console.log(
      `GET /phpsdk/app-analytics/aggregates    (${aggregates.rows} rows): ${fmt(aggregates.times)}`,
    );
    console.log(`GET /phpsdk/app-analytics/sumAggregates (${daily.rows} rows): ${fmt(daily.times)}`);
    console.log(`endpointAggregates() alone: ${fmt(aggregatesSql)}`);
    console.log(`dailyAggregates() alone:    ${fmt(dailySql)}`);
    console.log(`plan, aggregates:    ${planSummary(aggregatesPlan)}`);
    for (const line of aggregatesPlan) console.log(`  ${line}`);
    console.log(`plan, sumAggregates: ${planSummary(dailyPlan)}`);
    for (const line of dailyPlan) console.log(`  ${line}`);
    await measureDashboard();
  }

  /**
   * The console's dashboard for the range, as the demo administrator: its calls per API per day
   * must equal the raw calls' (the baseline, the query the dashboard ran before migration 0279).
   */
  async function measureDashboard(): Promise<void> {
    type Row = { day: string; api: string; calls: number; errors: number };
    // As for the owner's socket above: the generation may have outlived the server's keep-alive.
    await admin.get('/session/token').then(
      (res) => res.arrayBuffer(),
      () => undefined,
    );
    const rawTimes: number[] = [];
    let rawRows: Row[] = [];
    for (let k = 0; k < WARMUPS + Math.min(RUNS, 5); k++) {
      const s = performance.now();
      const result = await sql<{ day: string; api: string; calls: string; errors: string }>`
        select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day, api_alias as api,
          count(*) as calls, count(*) filter (where status >= 400) as errors
        from api_calls
        where occurred_at >= ${range.from}::date at time zone 'UTC'
          and occurred_at < (${range.to}::date + 1) at time zone 'UTC'
        group by 1, 2 order by 1, 2`.execute(db);
      if (k >= WARMUPS) rawTimes.push(performance.now() - s);
      rawRows = result.rows.map((r) => ({ ...r, calls: Number(r.calls), errors: Number(r.errors) }));
    }
    const times: number[] = [];
    for (let k = 0; k < WARMUPS + RUNS; k++) {
      const s = performance.now();
      const answer = await json<{ data: { attributes: { calls: Row[] } } }>(
        await admin.get(`/admin-api/dashboard?from=${range.from}&to=${range.to}`),
        200,
        'dashboard',
      );
      if (k >= WARMUPS) times.push(performance.now() - s);
      if (JSON.stringify(answer.data.attributes.calls) !== JSON.stringify(rawRows))
        throw new Error('dashboard: its calls per API per day differ from the raw calls');
    }
    const perApi = await sql<{ n: string }>`select count(*) as n from api_calls_per_api_day`.execute(db);
    console.log(
      `GET /admin-api/dashboard (${rawRows.length} API days, rollup ${perApi.rows[0]!.n} rows): ${fmt(stats(times))}`,
    );
    console.log(
      `  baseline, the same calls from the raw rows (${Math.min(RUNS, 5)} runs): ${fmt(stats(rawTimes))}`,
    );
  }

  await measureAll(`the application alone in the rollup (${size.daily} rows)`);

  // --- Other applications: what makes the rollup large in a real portal --------------------------
  if (TENANTS > 0) {
    const before = Number(
      (await sql<{ id: number | null }>`select max(id) as id from api_calls`.execute(db)).rows[0]!.id ?? 0,
    );
    const t1 = performance.now();
    await sql`insert into api_calls
        (occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms)
      select ${start}::timestamptz + d * interval '1 day' + ((t * 613 + e.n * 4001) % 86400) * interval '1 second',
        md5('application ' || t)::uuid, md5('client ' || t), 'PRODUCTION', e.alias, e.endpoint, e.method,
        200, (5 + (t + d + e.n) % 50)::real
      from generate_series(1, ${TENANTS}::int) as t, generate_series(0, ${DAYS - 1}::int) as d,
        (values ${endpoints}) as e(n, alias, method, endpoint)
      order by 1`.execute(db);
    await rollupFrom(before + 1).execute(db);
    await perApiFrom(before + 1).execute(db);
    await analyze();
    const grown = await sizes();
    console.log('');
    console.log(
      `${TENANTS} other applications, one call per day and endpoint each: api_calls ${Number(grown.calls).toLocaleString('en')} rows (${grown.calls_size}), ` +
        `api_call_daily ${Number(grown.daily).toLocaleString('en')} rows (${grown.daily_size}), in ${seconds(t1)} with rollup and analyze`,
    );
    await measureAll(`with ${TENANTS} other applications in the rollup (${grown.daily} rows)`);
  }
} finally {
  await app.close();
  await cleanup();
}
