import { en } from '@portico/contracts/messages';
import type { SupportStaffMember } from '@portico/contracts/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import { signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Support staff managed by administrators (support README, 'Support staff'). */
const M = en.support;
let t: TestApp;
let admin: TestClient;
let helper: TestClient;
let developer: TestClient;

beforeAll(async () => {
  t = await startTestApp({ IMPORT_CONTENT: 'false' });
  admin = await signedInUser(t, 'staff.admin@example.com', { admin: true });
  helper = await signedInUser(t, 'staff.helper@example.com');
  developer = await signedInUser(t, 'staff.developer@example.com');
});
afterAll(async () => {
  await t?.close();
});

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
const staffList = async (client: TestClient) =>
  (await json<{ data: SupportStaffMember[] }>(await client.get('/admin-api/support/staff'))).data;
const add = (client: TestClient, email: unknown) =>
  client.send('POST', '/admin-api/support/staff', { email }, 'application/json');
// No body, so no content type either (as the web app sends it).
const remove = async (client: TestClient, uuid: string) => {
  client.csrfToken ??= await (await client.get('/session/token')).text();
  return client.request(`/admin-api/support/staff/${uuid}`, {
    method: 'DELETE',
    headers: { 'x-csrf-token': client.csrfToken },
  });
};
const isStaff = async (client: TestClient) =>
  (await json<{ staff: boolean }>(await client.get('/api/support/me'))).staff;

describe('support staff', () => {
  it('an administrator adds an account by e-mail; it then handles the queue and every ticket', async () => {
    expect(await staffList(admin)).toEqual([]);
    expect(await isStaff(helper)).toBe(false);
    expect((await helper.get('/admin-api/support/tickets')).status).toBe(403);

    const res = await add(admin, '  Staff.Helper@Example.com ');
    expect(res.status, await res.clone().text()).toBe(201);
    const { data } = await json<{ data: SupportStaffMember }>(res);
    expect(data).toMatchObject({ email: 'staff.helper@example.com' });
    expect(Number.isNaN(Date.parse(data.added))).toBe(false);
    expect(await staffList(admin)).toEqual([data]);

    expect(await isStaff(helper)).toBe(true);
    expect((await helper.get('/admin-api/support/tickets')).status).toBe(200);
    const ticket = await developer.send(
      'POST',
      '/api/support_ticket/create',
      {
        title: 'Token endpoint slow',
        contact_info: 'mail',
        description: 'Tokens take 5 s.',
        environment: 'Test',
        severity: 'Low',
        details: 'Since Monday.',
      },
      'application/json',
    );
    expect(ticket.status).toBe(201);
    const { nid } = await json<{ nid: [{ value: number }] }>(ticket);
    const seen = await helper.get(`/api/support_ticket/${nid[0].value}`);
    expect(seen.status).toBe(200);
    expect((await json<{ viewer: { staff: boolean } }>(seen)).viewer.staff).toBe(true);
  });

  it('refuses an unknown address, a bad one, an administrator and an account listed already', async () => {
    const cases: [unknown, number, string][] = [
      ['nobody@example.com', 404, M.staffUnknownUser],
      ['not an address', 400, M.invalidEmail],
      ['', 400, M.required],
      ['staff.admin@example.com', 409, M.staffIsAdmin],
      ['staff.helper@example.com', 409, M.staffAlready],
    ];
    for (const [email, status, title] of cases) {
      const res = await add(admin, email);
      expect(res.status, String(email)).toBe(status);
      const error = (await json<JsonApiErrorBody>(res)).errors[0];
      expect(error?.title).toBe(title);
      expect(error?.source?.pointer).toBe('/email');
    }
    expect((await staffList(admin)).map((m) => m.email)).toEqual(['staff.helper@example.com']);
  });

  it('only administrators manage support staff: staff members and developers get 403, visitors 401', async () => {
    const anonymous = new TestClient(t.baseUrl);
    const member = (await staffList(admin))[0]!;
    for (const client of [helper, developer]) {
      expect((await client.get('/admin-api/support/staff')).status).toBe(403);
      const adding = await add(client, 'staff.developer@example.com');
      expect(adding.status).toBe(403);
      expect((await json<JsonApiErrorBody>(adding)).errors[0]?.title).toBe(M.staffAdminsOnly);
      expect((await remove(client, member.uuid)).status).toBe(403);
    }
    expect((await anonymous.get('/admin-api/support/staff')).status).toBe(401);
    expect(await isStaff(developer)).toBe(false);
    expect((await staffList(admin)).map((m) => m.uuid)).toEqual([member.uuid]);
  });

  it('an administrator removes a member, who loses the queue at once; removing again is a 404', async () => {
    const member = (await staffList(admin))[0]!;
    const removed = await remove(admin, member.uuid);
    expect(removed.status).toBe(204);
    expect(await staffList(admin)).toEqual([]);
    expect(await isStaff(helper)).toBe(false);
    expect((await helper.get('/admin-api/support/tickets')).status).toBe(403);

    const again = await remove(admin, member.uuid);
    expect(again.status).toBe(404);
    expect((await json<JsonApiErrorBody>(again)).errors[0]?.title).toBe(M.staffNotFound);
    expect((await remove(admin, 'not-a-uuid')).status).toBe(404);
  });
});
