import type { Application, DailyEndpointAggregate, EndpointAggregate } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import {
  clientCredentials,
  createApp,
  getApp,
  goLive,
  insertProduct,
  makeWorld,
  subscription,
  type World,
} from './applications-fixtures.ts';
import { body, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.applications;

// Demo content is left out: the tests insert the catalog rows they need (and start much faster).
let t: TestApp;
let w: World;
let live: Application;
let devToken: string;
let prodToken: string;

const today = () => new Date().toISOString().slice(0, 10);

async function call(path: string, token: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}/sandbox/stats-bank${path}`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  const product = await insertProduct(t.app.db, {
    alias: 'stats-accounts-v1',
    scope: 'accounts:read',
    scopeProduction: 'accounts:read',
    documentation: 'stats-bank',
  });
  const a = await createApp(w.c.developer, w.org.id, { title: 'Counted' });
  expect((await subscription(w.c.developer, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
  const dev = await clientCredentials(t, a.clientId.development!, a.clientSecret!);
  devToken = dev.body.access_token!;
  // Sandbox calls while still in development count too.
  expect(await call('/accounts', devToken)).toBe(200);
  expect((await goLive(w.c.developer, a.uuid)).status).toBe(201);
  const pending = await body<{
    data: { id: string; attributes: { application: { uuid: string } | null } }[];
  }>(await w.admin.get('/admin-api/go-live?status=pending'));
  const request = pending.data.find((r) => r.attributes.application?.uuid === a.uuid)!;
  expect((await w.admin.send('POST', `/admin-api/go-live/${request.id}/approve`)).status).toBe(200);
  live = await getApp(w.c.developer, a.uuid);
  const prod = await clientCredentials(t, live.clientId.production!, live.clientSecrets.production!);
  prodToken = prod.body.access_token!;
});
afterAll(async () => {
  await t?.close();
});

function aggregates(client: TestClient, query: string) {
  return client.get(`/phpsdk/app-analytics/aggregates?${query}`);
}

describe('analytics switch', () => {
  it("answers '1' while enabled and '0' when an administrator switches analytics off", async () => {
    const on = await w.c.anonymous.get('/phpsdk/app-analytics/enabled?_format=json');
    expect(on.status).toBe(200);
    expect(on.headers.get('content-type')).toContain('text/plain');
    expect(await on.text()).toBe('1');
    expect(
      (await w.admin.send('PUT', '/admin-api/app-analytics', { enabled: false }, 'application/json')).status,
    ).toBe(200);
    expect(await (await w.c.developer.get('/phpsdk/app-analytics/enabled?_format=json')).text()).toBe('0');
    const off = await aggregates(w.c.developer, `application=${live.clientId.production}`);
    expect(off.status).toBe(403);
    expect((await body<JsonApiErrorBody>(off)).errors[0]!.title).toBe(M.analyticsDisabled);
    expect(
      (await w.admin.send('PUT', '/admin-api/app-analytics', { enabled: true }, 'application/json')).status,
    ).toBe(200);
    expect(await (await w.c.developer.get('/phpsdk/app-analytics/enabled')).text()).toBe('1');
  });
});

describe('analytics from the gateway records', () => {
  it("count each environment's calls under that environment: production analytics show production calls only", async () => {
    // The development credentials keep working after go-live (docs/decisions/011)...
    for (let i = 0; i < 2; i++) expect(await call('/accounts', devToken)).toBe(200);
    for (let i = 0; i < 2; i++)
      expect(await call('/accounts/acc-1', devToken, { prefer: 'code=404' })).toBe(404);
    expect(await call('/accounts/acc-7', devToken)).toBe(200);
    expect(await call('/accounts', prodToken)).toBe(200);
    expect(await call('/accounts/acc-2', prodToken, { prefer: 'code=404' })).toBe(404);
    await t.app.flushCallRecorder();

    // Expected numbers straight from the raw call records of one environment.
    async function expected(environment: 'DEVELOPMENT' | 'PRODUCTION') {
      const raw = await sql<{
        endpoint: string;
        status: number;
        duration_ms: number;
      }>`select endpoint, status, duration_ms from api_calls
        where application_uuid = ${live.uuid} and environment = ${environment}`.execute(t.app.db);
      const byEndpoint = new Map<string, EndpointAggregate>();
      for (const r of raw.rows) {
        const e = byEndpoint.get(r.endpoint) ?? {
          endpoint: r.endpoint,
          minExecutionTime: Infinity,
          avgExecutionTime: 0,
          maxExecutionTime: 0,
          successCalls: 0,
          failedCalls: 0,
          totalCalls: 0,
        };
        e.minExecutionTime = Math.min(e.minExecutionTime, r.duration_ms);
        e.maxExecutionTime = Math.max(e.maxExecutionTime, r.duration_ms);
        e.avgExecutionTime += r.duration_ms;
        e.totalCalls++;
        if (r.status < 400) e.successCalls++;
        else e.failedCalls++;
        byEndpoint.set(r.endpoint, e);
      }
      const round = (n: number) => Math.round(n * 100) / 100;
      return [...byEndpoint.values()].map((e) => ({
        ...e,
        minExecutionTime: round(e.minExecutionTime),
        maxExecutionTime: round(e.maxExecutionTime),
        avgExecutionTime: round(e.avgExecutionTime / e.totalCalls),
      }));
    }
    function expectTimes(got: EndpointAggregate[], want: EndpointAggregate[]) {
      for (const row of got) {
        const w = want.find((x) => x.endpoint === row.endpoint)!;
        expect(row.minExecutionTime).toBeCloseTo(w.minExecutionTime, 1);
        expect(row.maxExecutionTime).toBeCloseTo(w.maxExecutionTime, 1);
        expect(row.avgExecutionTime).toBeCloseTo(w.avgExecutionTime, 1);
      }
    }
    const counts = (rows: EndpointAggregate[]) =>
      rows.map((d) => [d.endpoint, d.successCalls, d.failedCalls, d.totalCalls]).sort();

    // ...but the analytics of the production client id (spec A 7) count the production client only.
    const res = await aggregates(
      w.c.financial,
      `fromDate=${today()}&toDate=${today()}&application=${live.clientId.production}`,
    );
    expect(res.status).toBe(200);
    const prod = await body<{ data: EndpointAggregate[]; meta: Record<string, unknown> }>(res);
    expect(counts(prod.data)).toEqual([
      ['GET /stats-bank/accounts', 1, 0, 1],
      ['GET /stats-bank/accounts/{accountId}', 0, 1, 1],
    ]);
    expectTimes(prod.data, await expected('PRODUCTION'));
    expect(prod.meta).toMatchObject({
      fromDate: today(),
      toDate: today(),
      totalCalls: 2,
      environment: 'PRODUCTION',
      applicationUuid: live.uuid,
    });
    // The application's uuid (the web app before approval) means production too.
    const byUuid = await body<{ data: EndpointAggregate[]; meta: Record<string, unknown> }>(
      await aggregates(w.c.developer, `application=${live.uuid}`),
    );
    expect(counts(byUuid.data)).toEqual(counts(prod.data));
    expect(byUuid.meta.environment).toBe('PRODUCTION');

    // The development calls, before and after go-live, are counted under DEVELOPMENT: asked for
    // explicitly, or with the development client id.
    const wantDev = [
      ['GET /stats-bank/accounts', 3, 0, 3],
      ['GET /stats-bank/accounts/{accountId}', 1, 2, 3],
    ];
    const devRes = await body<{ data: EndpointAggregate[]; meta: Record<string, unknown> }>(
      await aggregates(w.c.developer, `application=${live.clientId.production}&environment=DEVELOPMENT`),
    );
    expect(counts(devRes.data)).toEqual(wantDev);
    expectTimes(devRes.data, await expected('DEVELOPMENT'));
    expect(devRes.meta).toMatchObject({ environment: 'DEVELOPMENT', totalCalls: 6 });
    const byDevId = await body<{ data: EndpointAggregate[]; meta: Record<string, unknown> }>(
      await aggregates(w.c.developer, `application=${live.clientId.development}`),
    );
    expect(counts(byDevId.data)).toEqual(wantDev);
    const prodAsked = await body<{ data: EndpointAggregate[] }>(
      await aggregates(w.c.developer, `application=${live.clientId.development}&environment=PRODUCTION`),
    );
    expect(counts(prodAsked.data)).toEqual(counts(prod.data));

    const daily = await body<{ data: DailyEndpointAggregate[]; meta: Record<string, unknown> }>(
      await w.c.developer.get(`/phpsdk/app-analytics/sumAggregates?application=${live.clientId.production}`),
    );
    expect(daily.data.map((d) => [d.referenceDate, d.endpoint, d.totalCalls])).toEqual([
      [today(), 'GET /stats-bank/accounts', 1],
      [today(), 'GET /stats-bank/accounts/{accountId}', 1],
    ]);
    expect(daily.meta.environment).toBe('PRODUCTION');
    const dailyDev = await body<{ data: DailyEndpointAggregate[] }>(
      await w.c.developer.get(
        `/phpsdk/app-analytics/sumAggregates?application=${live.clientId.production}&environment=DEVELOPMENT`,
      ),
    );
    expect(dailyDev.data.map((d) => [d.referenceDate, d.endpoint, d.totalCalls])).toEqual([
      [today(), 'GET /stats-bank/accounts', 3],
      [today(), 'GET /stats-bank/accounts/{accountId}', 3],
    ]);
  });

  it('sums the daily rollup over the range (inclusive), slowest endpoint first', async () => {
    const prod = live.clientId.production!;
    const rows = [
      // day, client, endpoint, calls, success, failed, min, max, sum
      ['2026-01-09', prod, 'GET /accounts', 100, 100, 0, 1, 50, 500],
      ['2026-01-10', prod, 'GET /accounts', 10, 9, 1, 2, 20, 80],
      ['2026-01-11', prod, 'GET /accounts', 30, 30, 0, 1.5, 9, 120],
      ['2026-01-11', prod, 'POST /payments', 4, 2, 2, 10, 40, 80],
      // The development client's calls count under DEVELOPMENT, never in production analytics.
      ['2026-01-11', live.clientId.development!, 'POST /payments', 1, 1, 0, 3, 3, 3],
      // Another client's calls never count.
      ['2026-01-11', 'someone-else', 'GET /accounts', 1000, 0, 1000, 0.1, 999, 9999],
    ] as const;
    for (const [day, client, endpoint, calls, ok, failed, min, max, sum] of rows) {
      await sql`insert into api_call_daily (day, client_id, endpoint, calls, success_calls, failed_calls, min_ms, max_ms, sum_ms)
        values (${day}::date, ${client}, ${endpoint}, ${calls}, ${ok}, ${failed}, ${min}, ${max}, ${sum})`.execute(
        t.app.db,
      );
    }
    const res = await aggregates(
      w.c.owner,
      `fromDate=2026-01-10&toDate=2026-01-11T23:00:00Z&application=${prod}`,
    );
    const got = await body<{ data: EndpointAggregate[] }>(res);
    expect(got.data).toEqual([
      {
        endpoint: 'POST /payments',
        minExecutionTime: 10,
        avgExecutionTime: 20,
        maxExecutionTime: 40,
        successCalls: 2,
        failedCalls: 2,
        totalCalls: 4,
      },
      {
        endpoint: 'GET /accounts',
        minExecutionTime: 1.5,
        avgExecutionTime: 5,
        maxExecutionTime: 20,
        successCalls: 39,
        failedCalls: 1,
        totalCalls: 40,
      },
    ]);
    const daily = await body<{ data: DailyEndpointAggregate[] }>(
      await w.c.owner.get(
        `/phpsdk/app-analytics/sumAggregates?fromDate=2026-01-10&toDate=2026-01-11&application=${prod}`,
      ),
    );
    expect(daily.data.map((d) => [d.referenceDate, d.endpoint, d.totalCalls, d.avgExecutionTime])).toEqual([
      ['2026-01-10', 'GET /accounts', 10, 8],
      ['2026-01-11', 'GET /accounts', 30, 4],
      ['2026-01-11', 'POST /payments', 4, 20],
    ]);
  });
});

describe('analytics refusals', () => {
  it('refuses bad dates, development applications and unknown applications', async () => {
    const prod = live.clientId.production!;
    const bad = await aggregates(w.c.developer, `application=${prod}&fromDate=yesterday`);
    expect(bad.status).toBe(400);
    const err = (await body<JsonApiErrorBody & { errors: { source?: { parameter?: string } }[] }>(bad))
      .errors[0]!;
    expect(err.title).toBe(M.invalidDate.replace('{{parameter}}', 'fromDate'));
    expect(err.source?.parameter).toBe('fromDate');
    const order = await aggregates(
      w.c.developer,
      `application=${prod}&fromDate=2026-02-01&toDate=2026-01-01`,
    );
    expect((await body<JsonApiErrorBody>(order)).errors[0]!.title).toBe(M.dateOrder);
    const long = await aggregates(w.c.developer, `application=${prod}&fromDate=2024-01-01&toDate=2026-01-01`);
    expect(long.status).toBe(400);
    expect((await aggregates(w.c.developer, 'fromDate=2026-01-01')).status).toBe(400);
    expect((await aggregates(w.c.developer, 'application=nope')).status).toBe(404);
    expect((await aggregates(w.c.stranger, `application=${prod}`)).status).toBe(404);
    expect((await aggregates(w.c.legal, `application=${prod}`)).status).toBe(403);

    const dev = await createApp(w.c.developer, w.org.id);
    const res = await aggregates(w.c.developer, `application=${dev.clientId.development}`);
    expect(res.status).toBe(403);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(M.analyticsProductionOnly);
  });
});
