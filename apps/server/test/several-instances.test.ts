import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientCredentials,
  createApp,
  insertProduct,
  sandbox,
  subscription,
} from './applications-fixtures.ts';
import { body, createOrg, signedInUser, upload, type OrgResource } from './org-fixtures.ts';
import type { TestClient } from './http-client.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Two instances behind one address (README, 'Several instances behind one address'): the same
 * PostgreSQL database, SECRET_KEY, STORAGE_URL and PUBLIC_URL. A file uploaded through one is served by the
 * other, and deleted through the other, over HTTP. PGlite is one process's own database.
 */
describe('several instances sharing database and storage', () => {
  let s3: TestS3Server;
  let a: TestApp;
  let b: TestApp;
  let owner: TestClient;
  let org: OrgResource;

  beforeAll(async () => {
    s3 = await startS3Server();
    const shared = {
      ...s3.env('shared/'),
      SECRET_KEY: randomBytes(32).toString('hex'),
      LOGIN_RATE_LIMIT: '1000',
    };
    a = await startTestApp(shared);
    // Behind one address: B answers for A's PUBLIC_URL (which names the session cookie too).
    b = await startTestApp({
      ...shared,
      DATABASE_URL: a.config.databaseUrl!,
      PUBLIC_URL: a.config.publicUrl,
      IMPORT_CONTENT: 'false',
    });
    owner = await signedInUser(a, 'ina.instances@example.com');
    org = await createOrg(owner, 'Instances Org');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await s3?.close();
  });

  it('serves through one instance what was uploaded through the other, and deletes it there', async () => {
    const res = await upload(owner, org.id, 'field_documents', 'shared.txt', 'uploaded through A');
    expect(res.status).toBe(201);
    const { url } = (await body<{ data: { attributes: { url: string } } }>(res)).data.attributes;
    const path = new URL(url).pathname;
    // The session cookie of A is valid on B: same database, same SECRET_KEY.
    const served = await owner.get(`${b.baseUrl}${path}`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('uploaded through A');

    const key = (
      await b.app.db
        .selectFrom('files')
        .select('storage_key')
        .where('filename', '=', 'shared.txt')
        .executeTakeFirstOrThrow()
    ).storage_key;
    owner.csrfToken ??= await (await owner.get('/session/token')).text();
    const deleted = await owner.request(`${b.baseUrl}/jsonapi/group/organization/${org.id}/delete_custom`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': owner.csrfToken },
    });
    expect(deleted.status).toBe(204);
    expect((await owner.get(`${a.baseUrl}${path}`)).status).toBe(404);
    // The object went with the row.
    expect(await a.app.storage.get(key)).toBeUndefined();
  });
});

/**
 * The console's user changes (decision 045) apply at the next request on every instance: a role
 * granted or an account blocked through A is seen by B, whose session cache already held the user.
 */
describe('provider roles and blocking across instances', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const shared = { SECRET_KEY: randomBytes(32).toString('hex'), LOGIN_RATE_LIMIT: '1000' };
    a = await startTestApp({ ...shared, IMPORT_CONTENT: 'false' });
    b = await startTestApp({
      ...shared,
      DATABASE_URL: a.config.databaseUrl!,
      PUBLIC_URL: a.config.publicUrl,
      IMPORT_CONTENT: 'false',
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a role granted and a block on A take effect at the next request on B', async () => {
    const admin = await signedInUser(a, 'ada.instances@example.com', { admin: true });
    const user = await signedInUser(a, 'rolf.instances@example.com');
    const uuid = (
      await a.app.db
        .selectFrom('users')
        .select('uuid')
        .where('email', '=', 'rolf.instances@example.com')
        .executeTakeFirstOrThrow()
    ).uuid;
    // B loads (and caches) the session without the role.
    expect((await user.get(`${b.baseUrl}/admin-api/support/tickets`)).status).toBe(403);

    const granted = await admin.send(
      'PUT',
      `/admin-api/users/${uuid}/roles`,
      { roles: ['support_agent'] },
      'application/json',
    );
    expect(granted.status).toBe(200);
    expect((await user.get(`${b.baseUrl}/admin-api/support/tickets`)).status).toBe(200);

    const blocked = await admin.send('POST', `/admin-api/users/${uuid}/block`, undefined, 'application/json');
    expect(blocked.status).toBe(200);
    expect((await user.get(`${b.baseUrl}/admin-api/support/tickets`)).status).toBe(401);
    expect((await user.get(`${b.baseUrl}/jsonapi/group/organization`)).status).toBe(401);
  });

  it("a block on A refuses the blocked creator's sandbox token on B at the next request (clients.ts ACCESS_DOMAINS)", async () => {
    const admin = await signedInUser(a, 'ada.sandbox-instances@example.com', { admin: true });
    const email = 'bo.sandbox-instances@example.com';
    const creator = await signedInUser(a, email);
    const product = await insertProduct(a.app.db, {
      alias: 'instances-accounts-v1',
      scope: 'accounts:read',
      documentation: 'users-bank',
    });
    const org = await createOrg(creator, 'Instances Bank');
    const application = await createApp(creator, org.id);
    expect((await subscription(creator, 'subscribe', application.uuid, product.uuid)).status).toBe(200);
    const token = await clientCredentials(a, application.clientId.development!, application.clientSecret!);
    expect(token.status).toBe(200);
    // B answers the token and caches the client's access.
    expect((await sandbox(b, 'users-bank/accounts', token.body.access_token!)).status).toBe(200);
    expect((await sandbox(b, 'users-bank/accounts', token.body.access_token!)).status).toBe(200);

    const uuid = (
      await a.app.db.selectFrom('users').select('uuid').where('email', '=', email).executeTakeFirstOrThrow()
    ).uuid;
    const blocked = await admin.send('POST', `/admin-api/users/${uuid}/block`, undefined, 'application/json');
    expect(blocked.status).toBe(200);
    // The very next request on B is refused: no waiting for a cache to expire.
    const refused = await sandbox(b, 'users-bank/accounts', token.body.access_token!);
    expect(refused.status).toBe(401);
    expect(String(refused.body.error_description)).toContain('blocked');

    const unblocked = await admin.send(
      'POST',
      `/admin-api/users/${uuid}/unblock`,
      undefined,
      'application/json',
    );
    expect(unblocked.status).toBe(200);
    expect((await sandbox(b, 'users-bank/accounts', token.body.access_token!)).status).toBe(200);
  });
});
