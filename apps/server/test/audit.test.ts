import { en } from '@portico/contracts/messages';
import { ASSIGNABLE_ROLES } from '@portico/contracts/provider-roles';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, signIn } from './http-client.ts';
import {
  createApp,
  goLive,
  insertProduct,
  makeWorld,
  subscription,
  type World,
} from './applications-fixtures.ts';
import {
  PASSWORD,
  body,
  createOrg,
  createUser,
  invite,
  signedInUser,
  type JsonApiErrorBody,
} from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The audit log (issue 27): what developers' security-relevant actions record, through real HTTP;
 * `GET /admin-api/audit` with its filters and access; the CSV export; an organization's part for
 * its owners; and the table's refusal of every update, delete and truncate.
 */
const A = en.console.audit;
const ADDRESS = '203.0.113.7';

interface Entry {
  id: string;
  attributes: {
    at: string;
    action: string;
    actor: { id: string | null; email: string | null; provider: boolean };
    targetType: string;
    targetId: string | null;
    targetLabel: string | null;
    organization: { id: string; label: string } | null;
    before: unknown;
    after: unknown;
    ip?: string | null;
  };
}
interface EntryList {
  data: Entry[];
  meta: { count: number; actions?: string[] };
  links: { next?: { href: string }; prev?: { href: string } };
}

let t: TestApp;
let w: World;
let admin: TestClient;
let product: { uuid: string; id: number };

/** A client whose requests come from ADDRESS (the app trusts the proxy's X-Forwarded-For). */
const fromAddress = () => new TestClient(t.baseUrl, { 'x-forwarded-for': ADDRESS });

async function signedInFrom(email: string, options: Parameters<typeof signedInUser>[2] = {}) {
  await createUser(t, email, options);
  const client = fromAddress();
  expect((await signIn(client, email, PASSWORD)).status).toBe(200);
  return client;
}

async function list(client: TestClient, query = ''): Promise<EntryList> {
  const res = await client.get(`/admin-api/audit${query ? `?${query}` : ''}`);
  expect(res.status).toBe(200);
  return body<EntryList>(res);
}

async function latest(action: string, targetId?: string): Promise<Entry> {
  const found = (await list(admin, `filter[action]=${action}&page[limit]=200`)).data.filter(
    (e) => targetId === undefined || e.attributes.targetId === targetId,
  );
  expect(found.length, `${action} ${targetId ?? ''}`).toBeGreaterThan(0);
  return found[0]!;
}

beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '3', IMPORT_CONTENT: 'false', TRUST_PROXY: 'true' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  admin = await signedInUser(t, 'audit.admin@example.com', { admin: true });
  product = await insertProduct(t.app.db, {
    alias: 'audit-accounts-v1',
    title: 'Audit Accounts',
    scope: 'a:read',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('what developers do is recorded with who, from where, before and after', () => {
  it('organization created and deleted', async () => {
    const owner = await signedInFrom('olga.audit@example.com');
    const org = await createOrg(owner, 'Audited Org');
    const created = await latest('organization.created', org.id);
    expect(created.attributes).toMatchObject({
      actor: { email: 'olga.audit@example.com', provider: false },
      targetType: 'organization',
      targetLabel: 'Audited Org',
      organization: { id: org.id, label: 'Audited Org' },
      before: null,
      after: { title: 'Audited Org', description: 'About Audited Org' },
      ip: ADDRESS,
    });
    expect((await owner.send('DELETE', `/jsonapi/group/organization/${org.id}/delete_custom`)).status).toBe(
      204,
    );
    const deleted = await latest('organization.deleted', org.id);
    expect(deleted.attributes).toMatchObject({
      actor: { email: 'olga.audit@example.com' },
      // The organization is gone; the entry keeps its name.
      targetLabel: 'Audited Org',
      organization: null,
      before: { title: 'Audited Org' },
      after: null,
      ip: ADDRESS,
    });
  });

  it('application created, subscribed, unsubscribed, secret reset and deleted; no secret is kept', async () => {
    const dev = await signedInFrom('dora.audit@example.com');
    const org = await createOrg(dev, 'Secret Org');
    const a = await createApp(dev, org.id, { title: 'Audited app' });
    expect((await latest('application.created', a.uuid)).attributes).toMatchObject({
      actor: { email: 'dora.audit@example.com' },
      targetLabel: 'Audited app',
      organization: { id: org.id },
      after: { title: 'Audited app', grantTypes: ['client_credentials'] },
      ip: ADDRESS,
    });

    expect((await subscription(dev, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
    expect((await latest('subscription.added', a.uuid)).attributes).toMatchObject({
      targetType: 'application',
      before: null,
      after: { product: { id: product.uuid, title: 'Audit Accounts' } },
    });
    // Subscribing again changes nothing and records nothing.
    expect((await subscription(dev, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
    expect(
      (await list(admin, 'filter[action]=subscription.added')).data.filter(
        (e) => e.attributes.targetId === a.uuid,
      ),
    ).toHaveLength(1);
    expect((await subscription(dev, 'unsubscribe', a.uuid, product.uuid)).status).toBe(200);
    expect((await latest('subscription.removed', a.uuid)).attributes).toMatchObject({
      before: { product: { id: product.uuid } },
      after: null,
    });

    const reset = await dev.send('POST', '/secret/reset', { application: a.uuid }, 'application/json');
    expect(reset.status).toBe(200);
    const { secret, clientId } = await body<{ secret: string; clientId: string }>(reset);
    const entry = await latest('application.secret_reset', a.uuid);
    expect(entry.attributes).toMatchObject({
      actor: { email: 'dora.audit@example.com' },
      after: { environment: 'DEVELOPMENT', clientId },
      ip: ADDRESS,
    });
    expect(JSON.stringify(entry)).not.toContain(secret);
    expect(
      (await dev.send('POST', '/secret/delete', { application: a.uuid }, 'application/json')).status,
    ).toBe(200);
    expect((await latest('application.secret_deleted', a.uuid)).attributes.after).toEqual({
      environment: 'DEVELOPMENT',
      clientId,
    });

    expect((await dev.send('DELETE', `/jsonapi/node/application/${a.uuid}`)).status).toBe(204);
    expect((await latest('application.deleted', a.uuid)).attributes).toMatchObject({
      before: { title: 'Audited app', status: 'DEVELOPMENT' },
      organization: { id: org.id },
    });
    // Nothing anywhere in the log holds the secret.
    const dump = await t.app.db.selectFrom('audit_log').selectAll().execute();
    expect(JSON.stringify(dump)).not.toContain(secret);
  });

  it('a refused change records nothing', async () => {
    const before = (await list(admin)).meta.count;
    const a = await createApp(w.c.developer, w.org.id, { title: 'Not mine to reset' });
    const after = (await list(admin)).meta.count;
    expect(after).toBe(before + 1);
    const refused = await w.c.financial.send(
      'POST',
      '/secret/reset',
      { application: a.uuid },
      'application/json',
    );
    expect(refused.status).toBe(403);
    expect((await list(admin)).meta.count).toBe(after);
  });

  it('member invited, accepted, re-roled and removed', async () => {
    const owner = await signedInFrom('mona.audit@example.com');
    const org = await createOrg(owner, 'Member Org');
    const res = await invite(owner, org.id, 'nina.audit@example.com', ['organization-developer']);
    expect(res.status).toBe(201);
    const membership = (await body<{ data: { id: string } }>(res)).data.id;
    expect((await latest('membership.invited', membership)).attributes).toMatchObject({
      actor: { email: 'mona.audit@example.com' },
      targetType: 'membership',
      targetLabel: 'nina.audit@example.com',
      organization: { id: org.id },
      after: {
        email: 'nina.audit@example.com',
        roles: ['organization-developer'],
        status: 'pending_invitation',
      },
      ip: ADDRESS,
    });
    const nina = await signedInUser(t, 'nina.audit@example.com');
    const accepted = await nina.send(
      'PATCH',
      `/jsonapi/group_content/organization-group_membership/${membership}`,
      {
        data: {
          type: 'group_content--organization-group_membership',
          attributes: { field_status: 'active' },
        },
      },
    );
    expect(accepted.status).toBe(200);
    expect((await latest('membership.accepted', membership)).attributes).toMatchObject({
      actor: { email: 'nina.audit@example.com' },
      before: { status: 'pending_invitation' },
      after: { status: 'active' },
    });
    const reroled = await owner.send(
      'PATCH',
      `/jsonapi/group_content/organization-group_membership/${membership}`,
      {
        data: {
          type: 'group_content--organization-group_membership',
          relationships: {
            group_roles: { data: [{ type: 'group_role--group_role', id: 'organization-financial' }] },
          },
        },
      },
    );
    expect(reroled.status).toBe(200);
    expect((await latest('membership.roles_changed', membership)).attributes).toMatchObject({
      actor: { email: 'mona.audit@example.com' },
      before: { roles: ['organization-developer'] },
      after: { roles: ['organization-financial'] },
    });
    expect(
      (await owner.send('DELETE', `/jsonapi/group_content/organization-group_membership/${membership}`))
        .status,
    ).toBe(204);
    expect((await latest('membership.removed', membership)).attributes).toMatchObject({
      actor: { email: 'mona.audit@example.com' },
      before: { status: 'active', roles: ['organization-financial'] },
      organization: { id: org.id },
    });
  });

  it('go-live requested, approved and rejected', async () => {
    const a = await createApp(w.c.developer, w.org.id, { title: 'Going live' });
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
    const requested = await goLive(w.c.developer, a.uuid);
    expect(requested.status).toBe(201);
    const request = (await body<{ data: { id: string } }>(requested)).data.id;
    expect((await latest('go_live.requested', a.uuid)).attributes).toMatchObject({
      actor: { email: 'dev.eloper.w1@example.com' },
      before: { status: 'DEVELOPMENT' },
      after: { status: 'PRODUCTION', goLiveStatus: 'pending', request },
    });
    const rejected = await admin.send(
      'POST',
      `/admin-api/go-live/${request}/reject`,
      { reason: 'Not yet' },
      'application/json',
    );
    expect(rejected.status).toBe(200);
    expect((await latest('go_live.rejected', a.uuid)).attributes).toMatchObject({
      actor: { email: 'audit.admin@example.com' },
      organization: { id: w.org.id },
      before: { goLiveStatus: 'pending' },
      after: { goLiveStatus: 'rejected', reason: 'Not yet', status: 'DEVELOPMENT' },
    });
    const again = await goLive(w.c.developer, a.uuid);
    expect(again.status).toBe(201);
    const second = (await body<{ data: { id: string } }>(again)).data.id;
    expect(
      (await admin.send('POST', `/admin-api/go-live/${second}/approve`, {}, 'application/json')).status,
    ).toBe(200);
    expect((await latest('go_live.approved', a.uuid)).attributes).toMatchObject({
      actor: { email: 'audit.admin@example.com' },
      after: { goLiveStatus: 'approved', status: 'PRODUCTION', request: second },
    });
  });

  it('sign-in failures: once when an account, and once when an address, crosses the threshold', async () => {
    const victim = await createUser(t, 'vera.audit@example.com');
    for (let i = 0; i < 3; i++) {
      expect((await signIn(fromAddress(), 'vera.audit@example.com', 'wrong password')).pageStatus).toBe(401);
    }
    // The fourth must wait: refused before the password check, and not recorded again.
    expect((await signIn(fromAddress(), 'vera.audit@example.com', 'wrong password')).pageStatus).toBe(429);
    const entries = (
      await list(admin, 'filter[action]=sign_in.failures_over_threshold&filter[target_type]=user')
    ).data;
    const mine = entries.filter((e) => e.attributes.targetId === victim.uuid);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.attributes).toMatchObject({
      actor: { id: null, email: null },
      targetType: 'user',
      targetId: victim.uuid,
      targetLabel: 'vera.audit@example.com',
      after: { counter: 'email', failures: 3 },
      ip: ADDRESS,
    });
    // An address without an account is recorded by the address tried.
    for (let i = 0; i < 3; i++) await signIn(fromAddress(), 'nobody.audit@example.com', 'x');
    expect((await latest('sign_in.failures_over_threshold')).attributes).toMatchObject({
      targetType: 'email',
      targetLabel: 'nobody.audit@example.com',
    });
    // The client address: 15 failures (5 × LOGIN_RATE_LIMIT) over any names.
    const other = '198.51.100.9';
    for (let i = 0; i < 15; i++) {
      const client = new TestClient(t.baseUrl, { 'x-forwarded-for': other });
      await signIn(client, `guess${i}.audit@example.com`, 'x');
    }
    const byAddress = (await list(admin, 'filter[target_type]=address')).data.filter(
      (e) => e.attributes.targetId === other,
    );
    expect(byAddress).toHaveLength(1);
    expect(byAddress[0]!.attributes).toMatchObject({ ip: other, after: { counter: 'ip', failures: 15 } });
  });
});

describe('GET /admin-api/audit', () => {
  it('is JSON:API, newest first, paged, with the actions recorded so far', async () => {
    const res = await admin.get('/admin-api/audit?page[limit]=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    const doc = await body<EntryList>(res);
    expect(doc.data).toHaveLength(2);
    expect(doc.data[0]!.attributes.at >= doc.data[1]!.attributes.at).toBe(true);
    expect(doc.meta.count).toBeGreaterThan(2);
    expect(doc.meta.actions).toEqual(expect.arrayContaining(['organization.created', 'membership.invited']));
    expect([...doc.meta.actions!].sort()).toEqual(doc.meta.actions);
    const next = new URL(doc.links.next!.href);
    expect(next.searchParams.get('page[offset]')).toBe('2');
    const second = await body<EntryList>(await admin.get(next.pathname + next.search));
    expect(second.data.map((e) => e.id)).not.toContain(doc.data[0]!.id);
    expect(second.data.map((e) => e.id)).not.toContain(doc.data[1]!.id);
    expect(second.links.prev).toBeDefined();
  });

  it('filters by action, actor, target type, organization and dates', async () => {
    const byActor = await list(admin, 'filter[actor]=MONA.AUDIT');
    expect(byActor.data.length).toBeGreaterThan(0);
    expect(byActor.data.every((e) => e.attributes.actor.email === 'mona.audit@example.com')).toBe(true);
    // LIKE's wildcards match themselves.
    expect((await list(admin, 'filter[actor]=%25')).meta.count).toBe(0);
    const byType = await list(admin, 'filter[target_type]=membership');
    expect(byType.data.every((e) => e.attributes.targetType === 'membership')).toBe(true);
    const byOrg = await list(admin, `filter[organization]=${w.org.id}&page[limit]=200`);
    expect(byOrg.data.length).toBeGreaterThan(0);
    expect(byOrg.data.every((e) => e.attributes.organization?.id === w.org.id)).toBe(true);
    const both = await list(admin, `filter[organization]=${w.org.id}&filter[action]=go_live.approved`);
    expect(both.meta.count).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const all = (await list(admin)).meta.count;
    expect((await list(admin, `filter[from]=${today}&filter[to]=${today}`)).meta.count).toBe(all);
    expect((await list(admin, 'filter[to]=2000-01-01')).meta.count).toBe(0);
    expect((await list(admin, 'filter[from]=2999-01-01T00:00:00Z')).meta.count).toBe(0);
    // Entries recorded in the second before now, by a timestamp with a zone.
    const recent = await list(
      admin,
      `filter[from]=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`,
    );
    expect(recent.meta.count).toBe(all);
  });

  it('refuses bad filters with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['filter[from]=yesterday', 'filter[from]'],
      ['filter[to]=2026-02-30', 'filter[to]'],
      ['filter[from]=2026-01-02T10:00', 'filter[from]'],
      ['filter[from]=2026-02-01&filter[to]=2026-01-01', 'filter[to]'],
      ['filter[action]=DROP TABLE', 'filter[action]'],
      ['filter[target_type]=a b', 'filter[target_type]'],
      ['filter[organization]=42', 'filter[organization]'],
      ['filter[colour]=red', 'filter[colour]'],
      ['sort=at', 'sort'],
      ['page[limit]=-1', 'page[limit]'],
      ['filter[action]=a.b&filter[action]=c.d', 'filter[action]'],
      [`filter[actor]=${'x'.repeat(255)}`, 'filter[actor]'],
    ];
    for (const [query, parameter] of cases) {
      const res = await admin.get(`/admin-api/audit?${query}`);
      expect(res.status, query).toBe(400);
      const error = (await body<JsonApiErrorBody>(res)).errors[0] as { source?: { parameter?: string } };
      expect(error.source?.parameter, query).toBe(parameter);
    }
    const res = await admin.get('/admin-api/audit?filter[from]=yesterday');
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(
      A.invalidDate.replace('{{parameter}}', 'filter[from]').replace('{{value}}', 'yesterday'),
    );
  });

  it('every provider role may read it; developers and visitors may not', async () => {
    for (const role of ASSIGNABLE_ROLES) {
      const member = await signedInUser(t, `audit.${role.replace(/_/g, '-')}@example.com`, { roles: [role] });
      expect((await member.get('/admin-api/audit')).status, role).toBe(200);
      expect((await member.get('/admin-api/audit.csv')).status, role).toBe(200);
    }
    for (const client of [w.c.developer, w.c.creator]) {
      const res = await client.get('/admin-api/audit');
      expect(res.status).toBe(403);
      expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(A.providersOnly);
      expect((await client.get('/admin-api/audit.csv')).status).toBe(403);
    }
    expect((await new TestClient(t.baseUrl).get('/admin-api/audit')).status).toBe(401);
    expect((await new TestClient(t.baseUrl).get('/admin-api/audit.csv')).status).toBe(401);
  });

  it('has no way to change or delete an entry', async () => {
    const [entry] = (await list(admin, 'page[limit]=1')).data;
    for (const method of ['PATCH', 'PUT', 'DELETE', 'POST']) {
      for (const url of ['/admin-api/audit', `/admin-api/audit/${entry!.id}`]) {
        const res = await admin.send(method, url, {});
        expect([404, 405], `${method} ${url}`).toContain(res.status);
      }
    }
    expect((await list(admin, 'page[limit]=1')).data[0]).toEqual(entry);
  });
});

describe('GET /admin-api/audit.csv', () => {
  it('exports the filtered entries as RFC 4180 CSV, formulas neutralized', async () => {
    const owner = await signedInFrom('carl.csv@example.com');
    const org = await createOrg(owner, '=HYPERLINK("http://evil.example","click"), "quoted"');
    const res = await admin.get(`/admin-api/audit.csv?filter[organization]=${org.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await res.text();
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'at,actor_email,action,target_type,target_id,target_label,organization_id,organization,ip,before,after',
    );
    expect(lines).toHaveLength(3); // header, one entry, the final CRLF
    expect(lines[2]).toBe('');
    // The label starts with '=': a leading apostrophe, quotes doubled, the whole cell quoted.
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click""), ""quoted"""`);
    expect(lines[1]).toContain(`,organization.created,organization,${org.id},`);
    expect(lines[1]).toContain(`,carl.csv@example.com,`);
    expect(lines[1]).toContain(`,${ADDRESS},`);
    expect(lines[1]).toContain('"{""title"":""=HYPERLINK(');
  });

  it('streams every matching entry, past one batch, newest first', async () => {
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      action: 'test.bulk',
      target_type: 'test',
      target_label: `row ${i}`,
      actor_email: i % 2 ? '+1 555 0100' : '@cmd',
    }));
    await t.app.db.insertInto('audit_log').values(rows).execute();
    const res = await admin.get('/admin-api/audit.csv?filter[action]=test.bulk');
    const lines = (await res.text()).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(1204);
    // Inserted in one statement, so one instant: the newest (highest id) first.
    expect(lines[1]).toContain(',row 1202,');
    expect(lines[1203]).toContain(',row 0,');
    expect(lines[1]).toContain(",'@cmd,");
    expect(lines[2]).toContain(",'+1 555 0100,");
  });

  it('takes the same filters, checked the same way, but no paging', async () => {
    const res = await admin.get('/admin-api/audit.csv?filter[to]=soon');
    expect(res.status).toBe(400);
    expect((await admin.get('/admin-api/audit.csv?page[limit]=5')).status).toBe(400);
  });
});

describe("an organization's part, for its owners", () => {
  const path = () => `/jsonapi/group/organization/${w.org.id}/audit`;

  it('owners (the creator and invited owners) see their organization entries, without addresses', async () => {
    for (const owner of [w.c.creator, w.c.owner]) {
      const res = await owner.get(`${path()}?page[limit]=200`);
      expect(res.status).toBe(200);
      const doc = await body<EntryList>(res);
      expect(doc.data.length).toBe(doc.meta.count);
      expect(doc.data.every((e) => e.attributes.organization?.id === w.org.id)).toBe(true);
      expect(doc.data.some((e) => e.attributes.action === 'membership.invited')).toBe(true);
      expect(doc.data.every((e) => !('ip' in e.attributes))).toBe(true);
      // The provider's go-live decision names no person of the provider's team.
      const decision = doc.data.find((e) => e.attributes.action === 'go_live.approved');
      expect(decision?.attributes.actor).toEqual({ id: null, email: null, provider: true });
      // A member's own action names them.
      const requested = doc.data.find((e) => e.attributes.action === 'go_live.requested');
      expect(requested?.attributes.actor).toMatchObject({
        email: 'dev.eloper.w1@example.com',
        provider: false,
      });
    }
    const filtered = await body<EntryList>(
      await w.c.owner.get(`${path()}?filter[action]=membership.invited`),
    );
    expect(filtered.data.every((e) => e.attributes.action === 'membership.invited')).toBe(true);
    expect((await w.c.owner.get(`${path()}?filter[organization]=${w.org.id}`)).status).toBe(400);
  });

  it('members who are not owners get 403, a pending invitee 403, strangers 404, visitors 401', async () => {
    for (const who of ['developer', 'financial', 'legal', 'pending'] as const) {
      const res = await w.c[who].get(path());
      expect(res.status, who).toBe(403);
      expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(en.organizations.activity.ownersOnly);
    }
    expect((await w.c.stranger.get(path())).status).toBe(404);
    // A provider administrator who is not a member is a stranger here too (the console has the log).
    expect((await admin.get(path())).status).toBe(404);
    expect((await new TestClient(t.baseUrl).get(path())).status).toBe(401);
  });
});

describe('the table is append-only at the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of audit_log, even to the server', async () => {
    const db = t.app.db;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const [first] = await db
      .selectFrom('audit_log')
      .select(['id', 'action'])
      .orderBy('id')
      .limit(1)
      .execute();
    await expect(
      sql`update audit_log set action = 'rewritten' where id = ${first!.id}`.execute(db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log where id = ${first!.id}`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
    const [again] = await db
      .selectFrom('audit_log')
      .select(['id', 'action'])
      .orderBy('id')
      .limit(1)
      .execute();
    expect(again).toEqual(first);
  });
});
