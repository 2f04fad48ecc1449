import type { ConsoleUserDetail, ConsoleUserList } from '@portico/contracts/console-users';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importContent } from '../src/content/import-content.ts';
import { importers } from '../src/content/importers.ts';
import { escapeHtml } from '../src/lib/html.ts';
import {
  clientCredentials,
  createApp,
  insertProduct,
  sandbox,
  subscription,
} from './applications-fixtures.ts';
import { TestClient, signIn } from './http-client.ts';
import {
  PASSWORD,
  body,
  createOrg,
  createUser,
  signedInUser,
  type JsonApiErrorBody,
} from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The console's users and roles (modules/console-users, decision 045), over real HTTP. */
const M = en.console.users;
let t: TestApp;
let admin: TestClient;
let others: Record<
  'api_manager' | 'content_editor' | 'support_agent' | 'go_live_reviewer' | 'developer',
  TestClient
>;

beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false', LOGIN_RATE_LIMIT: '1000' });
  admin = await signedInUser(t, 'ada.admin@example.com', { admin: true });
  others = {
    api_manager: await signedInUser(t, 'max.manager@example.com', { roles: ['api_manager'] }),
    content_editor: await signedInUser(t, 'cleo.editor@example.com', { roles: ['content_editor'] }),
    support_agent: await signedInUser(t, 'sami.agent@example.com', { roles: ['support_agent'] }),
    go_live_reviewer: await signedInUser(t, 'rita.reviewer@example.com', { roles: ['go_live_reviewer'] }),
    developer: await signedInUser(t, 'dana.developer@example.com'),
  };
});
afterAll(async () => {
  await t?.close();
});

const uuidOf = async (email: string) =>
  (await t.app.db.selectFrom('users').select('uuid').where('email', '=', email).executeTakeFirstOrThrow())
    .uuid;
const list = async (client: TestClient, query = '') => {
  const res = await client.get(`/admin-api/users${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return body<ConsoleUserList>(res);
};
const detail = async (uuid: string) => {
  const res = await admin.get(`/admin-api/users/${uuid}`);
  expect(res.status).toBe(200);
  return (await body<ConsoleUserDetail>(res)).data.attributes;
};
const post = (client: TestClient, path: string) => client.send('POST', path, undefined, 'application/json');
const putRoles = (client: TestClient, uuid: string, roles: unknown) =>
  client.send('PUT', `/admin-api/users/${uuid}/roles`, { roles }, 'application/json');
const errorTitle = async (res: Response) => (await body<JsonApiErrorBody>(res)).errors[0]!.title;
const auditCount = async () =>
  Number(
    (
      await t.app.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const stateOf = (email: string) =>
  t.app.db
    .selectFrom('users')
    .select(['is_admin', 'blocked_at'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();

describe('who may use the user endpoints', () => {
  it('only administrators: every other provider role, developers and anonymous callers are refused, nothing changes', async () => {
    const target = await uuidOf('dana.developer@example.com');
    const audits = await auditCount();
    const anonymous = new TestClient(t.baseUrl);
    for (const [who, client] of [...Object.entries(others), ['anonymous', anonymous] as const]) {
      const expected = who === 'anonymous' ? [401, 403] : [403];
      const calls = [
        client.get('/admin-api/users'),
        client.get(`/admin-api/users/${target}`),
        post(client, `/admin-api/users/${target}/block`),
        post(client, `/admin-api/users/${target}/unblock`),
        putRoles(client, target, ['administrator']),
      ];
      for (const res of await Promise.all(calls)) {
        expect(expected, `${who} ${res.url}`).toContain(res.status);
        if (who !== 'anonymous') expect(await errorTitle(res)).toBe(M.adminsOnly);
      }
    }
    expect(await auditCount()).toBe(audits);
    expect(await stateOf('dana.developer@example.com')).toEqual({ is_admin: false, blocked_at: null });
  });
});

// The fixtures name accounts after their address: 'sami.agent@…' is 'sami agent'.
describe('the user list', () => {
  it('lists accounts newest first with organizations, last sign-in, status and roles', async () => {
    await createOrg(others.support_agent, 'Agents Guild');
    const doc = await list(admin);
    expect(doc.meta.count).toBe(6);
    expect(doc.data.map((u) => u.attributes.email)).toEqual([
      'dana.developer@example.com',
      'rita.reviewer@example.com',
      'sami.agent@example.com',
      'cleo.editor@example.com',
      'max.manager@example.com',
      'ada.admin@example.com',
    ]);
    const sami = doc.data.find((u) => u.attributes.email === 'sami.agent@example.com')!;
    expect(sami.type).toBe('console--user');
    expect(sami.attributes).toMatchObject({
      name: 'sami agent',
      organizations: ['Agents Guild'],
      blocked: false,
      blockedAt: null,
      providerRoles: ['support_agent'],
    });
    expect(Number.isNaN(Date.parse(sami.attributes.lastSignIn!))).toBe(false);
    expect(doc.data.at(-1)!.attributes.providerRoles).toEqual(['administrator']);
  });

  it('searches name and e-mail case-insensitively, pages and sorts by name', async () => {
    expect((await list(admin, '?filter[q]=SAMI')).data.map((u) => u.attributes.email)).toEqual([
      'sami.agent@example.com',
    ]);
    expect((await list(admin, '?filter[q]=Editor')).data.map((u) => u.attributes.name)).toEqual([
      'cleo editor',
    ]);
    // '%' and '_' are not wildcards.
    expect((await list(admin, '?filter[q]=%25')).meta.count).toBe(0);
    const first = await list(admin, '?sort=name&page[limit]=2');
    expect(first.data.map((u) => u.attributes.name)).toEqual(['ada admin', 'cleo editor']);
    expect(first.meta.count).toBe(6);
    expect(first.links.next).toBeDefined();
    const second = await list(admin, '?sort=name&page[limit]=2&page[offset]=2');
    expect(second.data.map((u) => u.attributes.name)).toEqual(['dana developer', 'max manager']);
    const last = await list(admin, '?sort=name&page[limit]=2&page[offset]=4');
    expect(last.data.map((u) => u.attributes.name)).toEqual(['rita reviewer', 'sami agent']);
    expect(last.links.next).toBeUndefined();
  });

  it('refuses a bad query with the parameter named', async () => {
    for (const [query, parameter] of [
      ['?sort=email', 'sort'],
      ['?page[limit]=x', 'page[limit]'],
      ['?colour=red', 'colour'],
      ['?filter[email]=a', 'filter'],
    ] as const) {
      const res = await admin.get(`/admin-api/users${query}`);
      expect(res.status, query).toBe(400);
      const error = (await body<JsonApiErrorBody & { errors: { source?: { parameter?: string } }[] }>(res))
        .errors[0]!;
      expect(error.source?.parameter, query).toBe(parameter);
    }
  });
});

describe('one account', () => {
  it('shows its organizations with its roles, its applications and its tickets; 404 for an unknown uuid', async () => {
    const dev = others.developer;
    const org = await createOrg(dev, 'Dana Labs');
    const application = await createApp(dev, org.id, { title: 'Dana Budget' });
    const ticket = await dev.send(
      'POST',
      '/api/support_ticket/create',
      {
        title: 'Sandbox slow',
        contact_info: 'mail',
        description: 'Slow.',
        environment: 'Test',
        severity: 'Low',
        details: 'Since Monday.',
      },
      'application/json',
    );
    expect(ticket.status).toBe(201);
    const attrs = await detail(await uuidOf('dana.developer@example.com'));
    expect(attrs.memberships).toEqual([{ uuid: org.id, title: 'Dana Labs', roles: ['organization-admin'] }]);
    expect(attrs.applications).toEqual([
      {
        uuid: application.uuid,
        title: 'Dana Budget',
        status: 'DEVELOPMENT',
        organizationUuid: org.id,
        organizationTitle: 'Dana Labs',
        createdByUser: true,
      },
    ]);
    expect(attrs.tickets.map((x) => [x.title, x.status])).toEqual([['Sandbox slow', 'OPEN']]);

    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const res = await admin.get(`/admin-api/users/${id}`);
      expect(res.status).toBe(404);
      expect(await errorTitle(res)).toBe(M.notFound);
    }
    expect((await post(admin, '/admin-api/users/00000000-0000-4000-8000-000000000000/block')).status).toBe(
      404,
    );
  });
});

describe('blocking', () => {
  it("ends the account's sessions, refuses its sign-in and its application's tokens; unblocking restores sign-in", async () => {
    const email = 'bo.blocked@example.com';
    const blocked = await signedInUser(t, email);
    const product = await insertProduct(t.app.db, {
      alias: 'users-accounts-v1',
      scope: 'accounts:read',
      documentation: 'users-bank',
    });
    const org = await createOrg(blocked, 'Bo Bank');
    const application = await createApp(blocked, org.id);
    expect((await subscription(blocked, 'subscribe', application.uuid, product.uuid)).status).toBe(200);
    const clientId = application.clientId.development!;
    const token = await clientCredentials(t, clientId, application.clientSecret!);
    expect(token.status).toBe(200);
    expect((await sandbox(t, 'users-bank/accounts', token.body.access_token!)).status).toBe(200);
    expect((await blocked.get('/jsonapi/group/organization')).status).toBe(200);
    const uuid = await uuidOf(email);
    const audits = await auditCount();

    const res = await post(admin, `/admin-api/users/${uuid}/block`);
    expect(res.status, await res.clone().text()).toBe(200);
    const after = (await body<ConsoleUserDetail>(res)).data.attributes;
    expect(after.blocked).toBe(true);
    expect(Number.isNaN(Date.parse(after.blockedAt!))).toBe(false);

    // The open session ends at its next request.
    expect((await blocked.get('/jsonapi/group/organization')).status).toBe(401);
    expect(await (await blocked.get('/session/user')).json()).toBeNull();
    // The built-in identity provider refuses the right password with a clear message.
    const again = await signIn(new TestClient(t.baseUrl), email, PASSWORD);
    expect(again.pageStatus).toBe(403);
    expect(again.pageHtml).toContain(escapeHtml(en.identity.accountBlocked));
    // The token it got before is refused by the sandbox, and no new one is issued.
    const refused = await sandbox(t, 'users-bank/accounts', token.body.access_token!);
    expect(refused.status).toBe(401);
    expect(String(refused.body.error_description)).toContain('blocked');
    expect((await clientCredentials(t, clientId, application.clientSecret!)).body.error).toBe(
      'invalid_client',
    );

    expect(await auditCount()).toBe(audits + 1);
    const entry = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'user.blocked')
      .where('target_id', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      actor_email: 'ada.admin@example.com',
      target_type: 'user',
      target_label: email,
      before: { blocked: false },
    });

    const twice = await post(admin, `/admin-api/users/${uuid}/block`);
    expect(twice.status).toBe(409);
    expect(await errorTitle(twice)).toBe(M.alreadyBlocked);

    const unblocked = await post(admin, `/admin-api/users/${uuid}/unblock`);
    expect(unblocked.status).toBe(200);
    expect((await body<ConsoleUserDetail>(unblocked)).data.attributes.blocked).toBe(false);
    const client = new TestClient(t.baseUrl);
    expect((await signIn(client, email, PASSWORD)).status).toBe(200);
    expect((await client.get('/jsonapi/group/organization')).status).toBe(200);
    expect((await clientCredentials(t, clientId, application.clientSecret!)).status).toBe(200);
    expect((await sandbox(t, 'users-bank/accounts', token.body.access_token!)).status).toBe(200);
    const unblockEntry = await t.app.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('action', '=', 'user.unblocked')
      .where('target_id', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(unblockEntry.after).toEqual({ blocked: false });
    const again2 = await post(admin, `/admin-api/users/${uuid}/unblock`);
    expect(again2.status).toBe(409);
    expect(await errorTitle(again2)).toBe(M.notBlocked);
  });

  it('an administrator cannot block themself', async () => {
    const audits = await auditCount();
    const res = await post(admin, `/admin-api/users/${await uuidOf('ada.admin@example.com')}/block`);
    expect(res.status).toBe(409);
    expect(await errorTitle(res)).toBe(M.cannotBlockSelf);
    expect((await stateOf('ada.admin@example.com')).blocked_at).toBeNull();
    expect(await auditCount()).toBe(audits);
  });
});

describe('provider roles', () => {
  it('replaces the roles, takes effect at the next request, and is audited with before and after', async () => {
    const email = 'rosa.roles@example.com';
    const client = await signedInUser(t, email);
    const uuid = await uuidOf(email);
    expect((await client.get('/admin-api/support/tickets')).status).toBe(403);

    const res = await putRoles(admin, uuid, ['support_agent', 'api_manager']);
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await body<ConsoleUserDetail>(res)).data.attributes.providerRoles).toEqual([
      'api_manager',
      'support_agent',
    ]);
    const session = (await (await client.get('/session/user')).json()) as { providerRoles: string[] };
    expect(session.providerRoles).toEqual(['api_manager', 'support_agent']);
    expect((await client.get('/admin-api/support/tickets')).status).toBe(200);
    // The support staff page reads the same role.
    const staff = (await body<{ data: { email: string }[] }>(await admin.get('/admin-api/support/staff')))
      .data;
    expect(staff.map((s) => s.email)).toContain(email);

    expect((await putRoles(admin, uuid, ['administrator'])).status).toBe(200);
    expect((await stateOf(email)).is_admin).toBe(true);
    expect((await client.get('/admin-api/users')).status).toBe(200);
    expect((await putRoles(admin, uuid, [])).status).toBe(200);
    expect((await client.get('/admin-api/users')).status).toBe(403);
    expect((await client.get('/admin-api/support/tickets')).status).toBe(403);

    const entries = await t.app.db
      .selectFrom('audit_log')
      .select(['before', 'after', 'actor_email'])
      .where('action', '=', 'user.roles_changed')
      .where('target_id', '=', uuid)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => [e.before, e.after])).toEqual([
      [{ roles: [] }, { roles: ['api_manager', 'support_agent'] }],
      [{ roles: ['api_manager', 'support_agent'] }, { roles: ['administrator'] }],
      [{ roles: ['administrator'] }, { roles: [] }],
    ]);
    expect(entries.every((e) => e.actor_email === 'ada.admin@example.com')).toBe(true);
  });

  it('refuses a list that is not one of provider roles, nothing changed', async () => {
    const uuid = await uuidOf('max.manager@example.com');
    const audits = await auditCount();
    for (const roles of [['owner'], 'administrator', ['api_manager', 'api_manager'], null]) {
      const res = await putRoles(admin, uuid, roles);
      expect(res.status, JSON.stringify(roles)).toBe(400);
      expect(await errorTitle(res)).toContain('Roles must be a list of provider roles');
    }
    expect(await auditCount()).toBe(audits);
    expect((await detail(uuid)).providerRoles).toEqual(['api_manager']);
  });

  it('never removes the last administrator who is not blocked', async () => {
    const adminUuid = await uuidOf('ada.admin@example.com');
    const audits = await auditCount();
    const alone = await putRoles(admin, adminUuid, ['api_manager']);
    expect(alone.status).toBe(409);
    expect(await errorTitle(alone)).toBe(M.lastAdministrator);
    expect(await stateOf('ada.admin@example.com')).toMatchObject({ is_admin: true });
    expect((await detail(adminUuid)).providerRoles).toEqual(['administrator']);
    expect(await auditCount()).toBe(audits);

    // A second administrator, blocked, does not count.
    await createUser(t, 'bert.backup@example.com', { admin: true });
    const bert = await uuidOf('bert.backup@example.com');
    expect((await post(admin, `/admin-api/users/${bert}/block`)).status).toBe(200);
    const still = await putRoles(admin, adminUuid, []);
    expect(still.status).toBe(409);
    expect(await errorTitle(still)).toBe(M.lastAdministrator);
    // The blocked one may lose the role; once unblocked and an administrator again, the first may go.
    expect((await putRoles(admin, bert, [])).status).toBe(200);
    expect((await putRoles(admin, bert, ['administrator'])).status).toBe(200);
    expect((await post(admin, `/admin-api/users/${bert}/unblock`)).status).toBe(200);
    expect((await putRoles(admin, adminUuid, [])).status).toBe(200);
    expect((await admin.get('/admin-api/users')).status).toBe(403);
  });
});

describe('demo accounts of content/users.yaml', () => {
  const DEMO = [
    ['admin@portico.local', 'AdminPortal#2026', ['administrator']],
    ['api.manager@portico.local', 'ApiManager#2026', ['api_manager']],
    ['content.editor@portico.local', 'ContentEditor#2026', ['content_editor']],
    ['support.agent@portico.local', 'SupportAgent#2026', ['support_agent']],
    ['go-live.reviewer@portico.local', 'GoLiveReviewer#2026', ['go_live_reviewer']],
    ['dev@portico.local', 'DevPortal#2026', []],
  ] as const;
  let demo: TestApp;
  beforeAll(async () => {
    demo = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('one account per provider role signs in with its role; a second import changes nothing', async () => {
    for (const [email, password, roles] of DEMO) {
      const client = new TestClient(demo.baseUrl);
      expect((await signIn(client, email, password)).status, email).toBe(200);
      const session = (await (await client.get('/session/user')).json()) as { providerRoles: string[] };
      expect(session.providerRoles, email).toEqual(roles);
    }
    // An administrator withdrew a demo account's role: importing again does not give it back.
    const manager = await demo.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'api.manager@portico.local')
      .executeTakeFirstOrThrow();
    await demo.app.db.deleteFrom('provider_roles').where('user_id', '=', manager.id).execute();
    await importContent(importers, {
      db: demo.app.db,
      contentDir: demo.config.contentDir,
      log: demo.app.log,
      publicUrl: demo.config.publicUrl,
      secretBox: demo.app.secretBox,
    });
    const rows = await demo.app.db
      .selectFrom('provider_roles')
      .select('role')
      .where('user_id', '=', manager.id)
      .execute();
    expect(rows).toEqual([]);
    const count = await demo.app.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('email', 'like', '%@portico.local')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(6);
  });
});
