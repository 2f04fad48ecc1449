import type { ConsoleDashboard } from '@portico/contracts/console-dashboard';
import { format } from '@portico/contracts/format';
import { consoleDashboardMessages as M } from '@portico/contracts/messages/console-dashboard';
import { ASSIGNABLE_ROLES } from '@portico/contracts/provider-roles';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallRecorder, type CallRecord } from '../src/gateway/recorder.ts';
import { appDb } from '../src/modules/applications/tables.ts';
import { supportDb } from '../src/modules/support/tables.ts';
import { dashboardRange } from '../src/modules/console-dashboard/plugin.ts';
import type { TestClient } from './http-client.ts';
import { createUser, signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The console's dashboard (issue 27): `GET /admin-api/dashboard`, for administrators only. The
 * figures are checked against data seeded straight into the tables, in March 2025 (the range
 * asked for) and around it (which must not count).
 */
let t: TestApp;
let admin: TestClient;

const at = (iso: string) => new Date(iso);
const HOUR = 3600_000;

async function seed(): Promise<{ orgs: number[] }> {
  const db = t.app.db;
  // Sign-ups: two on 3 March, one on 5 March (late in the UTC day), one on 1 April (outside).
  for (const [email, created] of [
    ['early.one@example.com', '2025-03-03T08:00:00Z'],
    ['early.two@example.com', '2025-03-03T23:59:59Z'],
    ['late.three@example.com', '2025-03-05T23:30:00Z'],
    ['outside.four@example.com', '2025-04-01T00:00:00Z'],
  ] as const) {
    const u = await createUser(t, email);
    // created_at is never updated by the portal (its type says so): a test sets the past.
    await sql`update users set created_at = ${at(created)} where id = ${u.id}`.execute(db);
  }
  // Five organizations: A creates an application in range, B's application (created before) calls
  // in range, C's application only called before the range, D none, E an application after.
  const orgs: number[] = [];
  for (const title of ['Org A', 'Org B', 'Org C', 'Org D', 'Org E']) {
    const o = await db
      .insertInto('organizations')
      .values({ title, creator_id: null, image_file_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    orgs.push(o.id);
  }
  const app = async (org: number, title: string, created: string, status: 'DEVELOPMENT' | 'PRODUCTION') =>
    appDb(db)
      .insertInto('applications')
      .values({
        organization_id: org,
        title,
        grant_types: ['client_credentials'],
        status,
        golive_status: null,
        golive_reason: null,
        created_by: null,
        created: at(created),
      })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
  const a = await app(orgs[0]!, 'A app', '2025-03-10T12:00:00Z', 'DEVELOPMENT');
  const b = await app(orgs[1]!, 'B app', '2025-01-10T12:00:00Z', 'PRODUCTION');
  const c = await app(orgs[2]!, 'C app', '2025-01-10T12:00:00Z', 'DEVELOPMENT');
  await app(orgs[4]!, 'E app', '2025-04-02T12:00:00Z', 'DEVELOPMENT');
  // The gateway's records, written by the gateway's recorder (the raw calls and its rollups): B
  // calls 'accounts' on 4 March (one 500) and 'payments' on 6 March; C called on 28 February
  // (outside); an unknown client on 4 March counts in the calls only.
  const recorder = createCallRecorder(db, t.app.log);
  const call = (uuid: string | null, api: string, when: string, status: number): CallRecord => ({
    occurredAt: at(when),
    applicationUuid: uuid,
    clientId: uuid ?? 'nobody',
    environment: 'DEVELOPMENT',
    apiAlias: api,
    endpoint: 'GET /x',
    method: 'GET',
    status,
    durationMs: 5,
  });
  for (const record of [
    call(b.uuid, 'accounts', '2025-03-04T10:00:00Z', 200),
    call(b.uuid, 'accounts', '2025-03-04T11:00:00Z', 500),
    call(null, 'accounts', '2025-03-04T23:59:00Z', 404),
    call(b.uuid, 'payments', '2025-03-06T00:00:00Z', 201),
    call(c.uuid, 'accounts', '2025-02-28T23:59:59Z', 200),
    call(b.uuid, 'accounts', '2025-04-01T00:00:00Z', 200),
  ])
    recorder.record(record);
  await recorder.close();
  // A second flush adds to the same rows: an unknown client's call again on 4 March.
  recorder.record(call(null, 'accounts', '2025-03-04T12:00:00Z', 200));
  await recorder.close();
  // Go-live requests: three waiting (1, 3 and 10 hours old), one decided.
  const now = Date.now();
  const request = (created: number, status: 'pending' | 'approved', appId: number | null) => ({
    application_id: appId,
    organization_id: orgs[0]!,
    application_title: 'A app',
    title: 'Go live',
    developer_type: 'Personal' as const,
    first_name: 'Ada',
    last_name: 'Lovelace',
    company_name: '',
    address: 'Somewhere 1',
    email: 'ada@example.com',
    site_url: 'https://example.com',
    use_cases: 'Testing',
    status,
    created: new Date(created),
  });
  await appDb(db)
    .insertInto('go_live_requests')
    .values([
      request(now - HOUR, 'pending', a.id),
      request(now - 3 * HOUR, 'pending', c.id),
      request(now - 10 * HOUR, 'pending', null),
      request(now - 50 * HOUR, 'approved', null),
    ])
    .execute();
  // Tickets: two open High, one open Low, one closed Critical.
  const reporter = await createUser(t, 'reporter@example.com');
  const ticket = (severity: string, status: string) => ({
    title: `${severity} ${status}`,
    contact_info: 'reporter@example.com',
    description: 'Broken',
    details: '',
    environment: 'Test',
    severity,
    status,
    reporter_id: reporter.id,
  });
  await supportDb(db)
    .insertInto('support_tickets')
    .values([
      ticket('High', 'OPEN'),
      ticket('High', 'OPEN'),
      ticket('Low', 'OPEN'),
      ticket('Critical', 'CLOSED'),
    ])
    .execute();
  return { orgs };
}

beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false' });
  admin = await signedInUser(t, 'dash.admin@example.com', { admin: true });
  await seed();
});
afterAll(async () => {
  await t?.close();
});

const dashboard = async (client: TestClient, query: string) => client.get(`/admin-api/dashboard${query}`);

describe('GET /admin-api/dashboard', () => {
  it('gives the figures of the range: sign-ups per day, active organizations, calls and errors per API per day', async () => {
    const res = await dashboard(admin, '?from=2025-03-01&to=2025-03-31');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    const doc = (await res.json()) as { data: { type: string; id: string; attributes: ConsoleDashboard } };
    expect(doc.data.type).toBe('console--dashboard');
    const d = doc.data.attributes;
    expect(d.from).toBe('2025-03-01');
    expect(d.to).toBe('2025-03-31');
    expect(d.signUps).toHaveLength(31);
    expect(d.signUps[0]).toEqual({ day: '2025-03-01', count: 0 });
    expect(d.signUps.filter((s) => s.count > 0)).toEqual([
      { day: '2025-03-03', count: 2 },
      { day: '2025-03-05', count: 1 },
    ]);
    // A (application created in range) and B (calls in range); not C, D or E.
    expect(d.activeOrganizations).toBe(2);
    expect(d.applications).toEqual({ development: 3, production: 1 });
    expect(d.calls).toEqual([
      { day: '2025-03-04', api: 'accounts', calls: 4, errors: 2 },
      { day: '2025-03-06', api: 'payments', calls: 1, errors: 0 },
    ]);
    expect(d.goLive.waiting).toBe(3);
    expect(d.goLive.oldestAgeSeconds).toBeGreaterThanOrEqual(10 * 3600);
    expect(d.goLive.oldestAgeSeconds).toBeLessThan(10 * 3600 + 120);
    expect(d.goLive.medianAgeSeconds).toBeGreaterThanOrEqual(3 * 3600);
    expect(d.goLive.medianAgeSeconds).toBeLessThan(3 * 3600 + 120);
    expect(d.openTickets).toEqual({ Critical: 0, High: 2, Medium: 0, Low: 1 });
  });

  it('counts one day ranges by UTC day, both ends included', async () => {
    const d = (
      (await (await dashboard(admin, '?from=2025-03-04&to=2025-03-04')).json()) as {
        data: { attributes: ConsoleDashboard };
      }
    ).data.attributes;
    expect(d.signUps).toEqual([{ day: '2025-03-04', count: 0 }]);
    expect(d.calls).toEqual([{ day: '2025-03-04', api: 'accounts', calls: 4, errors: 2 }]);
    expect(d.activeOrganizations).toBe(1);
  });

  it('defaults to the last 30 days up to today', async () => {
    const d = ((await (await dashboard(admin, '')).json()) as { data: { attributes: ConsoleDashboard } }).data
      .attributes;
    const today = new Date().toISOString().slice(0, 10);
    expect(d.to).toBe(today);
    expect(d.signUps).toHaveLength(30);
    // The administrator and the reporter signed up today.
    expect(d.signUps.at(-1)?.count).toBeGreaterThanOrEqual(2);
    const range = dashboardRange({ from: '2025-03-01' }, new Date('2025-06-01T12:00:00Z'));
    expect(range.to.toISOString().slice(0, 10)).toBe('2025-03-30');
  });

  it.each([
    ['?from=2025-02-30&to=2025-03-01', 'from', format(M.badDate, { parameter: 'from' })],
    ['?from=2025-03-01&to=tomorrow', 'to', format(M.badDate, { parameter: 'to' })],
    ['?from=2025-3-1', 'from', format(M.badDate, { parameter: 'from' })],
    ['?from=2025-03-02&to=2025-03-01', 'from', M.reversedRange],
    ['?from=2024-01-01&to=2025-01-01', 'to', format(M.tooLong, { max: 366 })],
    ['?from=2025-03-01&to=2025-03-02&days=3', 'days', format(M.unknownParameter, { parameter: 'days' })],
    ['?from=2025-03-01&from=2025-03-02', 'from', format(M.badDate, { parameter: 'from' })],
  ])('refuses %s with a 400 naming the parameter', async (query, parameter, title) => {
    const res = await dashboard(admin, query);
    expect(res.status).toBe(400);
    const { errors } = (await res.json()) as JsonApiErrorBody & {
      errors: { source?: { parameter?: string } }[];
    };
    expect(errors[0]?.title).toBe(title);
    expect(errors[0]?.source?.parameter).toBe(parameter);
  });

  it('accepts the longest range, 366 days', async () => {
    const res = await dashboard(admin, '?from=2024-01-01&to=2024-12-31');
    expect(res.status).toBe(200);
  });

  it('is refused to every provider role but the administrator, to developers and to visitors', async () => {
    for (const role of ASSIGNABLE_ROLES) {
      const client = await signedInUser(t, `dash.${role}@example.com`, { roles: [role] });
      const res = await dashboard(client, '?from=2025-03-01&to=2025-03-31');
      expect(res.status, role).toBe(403);
      expect(((await res.json()) as JsonApiErrorBody).errors[0]?.title).toBe(M.adminsOnly);
    }
    const developer = await signedInUser(t, 'dash.developer@example.com');
    expect((await dashboard(developer, '')).status).toBe(403);
    const anonymous = await fetch(`${t.baseUrl}/admin-api/dashboard`);
    expect(anonymous.status).toBe(401);
  });

  it('reads the calls of a range from the rollup of migration 0279, which holds what the raw calls say', async () => {
    const db = t.app.db;
    const raw = await sql<{
      day: string;
      api_alias: string;
      application_uuid: string | null;
      calls: number;
      errors: number;
    }>`
      select to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD') as day, api_alias, application_uuid,
             count(*)::int as calls, (count(*) filter (where status >= 400))::int as errors
      from api_calls group by 1, 2, 3 order by 1, 2, 3`.execute(db);
    const rollup = await sql<{
      day: string;
      api_alias: string;
      application_uuid: string | null;
      calls: number;
      errors: number;
    }>`
      select to_char(day, 'YYYY-MM-DD') as day, api_alias, application_uuid, calls, errors
      from api_calls_per_api_day order by 1, 2, 3`.execute(db);
    expect(rollup.rows).toEqual(raw.rows);
    expect(rollup.rows).toHaveLength(5);
    // Without other choice (no sequential scans), the planner reads the range through the key.
    const plan = await db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return sql<Record<string, string>>`explain select api_alias, sum(calls) from api_calls_per_api_day
        where day >= '2025-03-01' and day < '2025-04-01' group by day, api_alias`.execute(trx);
    });
    expect(plan.rows.map((r) => Object.values(r).join(' ')).join('\n')).toContain(
      'api_calls_per_api_day_key',
    );
  });
});
