import { sql } from 'kysely';
import type { Application } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import {
  appDocument,
  clientCredentials,
  createApp,
  getApp,
  goLive,
  insertProduct,
  makeWorld,
  sandbox,
  subscription,
  type AppResource,
  type World,
} from './applications-fixtures.ts';
import { body, createOrg, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.applications;

// Demo content is left out: the tests insert the catalog rows they need (and start much faster).
let t: TestApp;
let w: World;
let accounts: { uuid: string; id: number };
let payments: { uuid: string; id: number };
beforeAll(async () => {
  t = await startTestApp({
    LOGIN_RATE_LIMIT: '1000',
    IMPORT_CONTENT: 'false',
    SUPPORT_EMAIL: 'support@bank.example',
  });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  accounts = await insertProduct(t.app.db, {
    alias: 'subs-accounts-v1',
    title: 'Accounts',
    scope: 'accounts:read',
    scopeProduction: 'accounts:read',
    documentation: 'subs-bank',
  });
  payments = await insertProduct(t.app.db, {
    alias: 'subs-payments-v1',
    title: 'Payments',
    scope: 'payments:write',
    weight: -1,
  });
});
afterAll(async () => {
  await t?.close();
});

const secretOf = (a: Application) => a.clientSecret!;

describe('subscriptions grant and revoke scopes', () => {
  it('a subscription grants the product scopes; an unsubscription makes an earlier token fail at the gateway', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const dev = a.clientId.development!;
    // Before: no scope to ask for, and a token without scopes is refused by the API.
    expect((await clientCredentials(t, dev, secretOf(a), 'accounts:read')).body.error).toBe('invalid_scope');
    const bare = await clientCredentials(t, dev, secretOf(a));
    expect(bare.status).toBe(200);
    expect((await sandbox(t, 'subs-bank/accounts', bare.body.access_token!)).status).toBe(403);

    const res = await subscription(w.c.developer, 'subscribe', a.uuid, accounts.uuid);
    expect(res.status).toBe(200);
    const subscribed = (await body<{ data: Application }>(res)).data;
    expect(subscribed.subscriptionIds).toEqual([accounts.uuid]);
    expect(await t.app.oauthClients.allowedScopes(dev)).toEqual(['accounts:read']);

    const token = await clientCredentials(t, dev, secretOf(a));
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('accounts:read');
    const ok = await sandbox(t, 'subs-bank/accounts', token.body.access_token!);
    expect(ok.status).toBe(200);
    // The gateway caches allowed scopes: fill the cache, then unsubscribe.
    expect((await sandbox(t, 'subs-bank/accounts/acc-1', token.body.access_token!)).status).toBe(200);

    expect((await subscription(w.c.developer, 'unsubscribe', a.uuid, accounts.uuid)).status).toBe(200);
    const after = await sandbox(t, 'subs-bank/accounts', token.body.access_token!);
    expect(after.status).toBe(403);
    expect(after.body.error).toBe('insufficient_scope');
    expect(await t.app.oauthClients.allowedScopes(dev)).toEqual([]);
    expect((await getApp(w.c.developer, a.uuid)).subscriptions).toEqual([]);
  });

  it('is idempotent and lists products by weight, then title', async () => {
    const a = await createApp(w.c.creator, w.org.id);
    for (let i = 0; i < 2; i++) {
      expect((await subscription(w.c.creator, 'subscribe', a.uuid, accounts.uuid)).status).toBe(200);
    }
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, String(payments.id))).status).toBe(200);
    const got = await getApp(w.c.creator, a.uuid);
    expect(got.subscriptions.map((s) => s.title)).toEqual(['Payments', 'Accounts']);
    expect(await t.app.oauthClients.allowedScopes(a.clientId.development!)).toEqual([
      'accounts:read',
      'payments:write',
    ]);
    expect((await subscription(w.c.creator, 'unsubscribe', a.uuid, payments.uuid)).status).toBe(200);
    expect((await subscription(w.c.creator, 'unsubscribe', a.uuid, payments.uuid)).status).toBe(200);
    expect((await getApp(w.c.creator, a.uuid)).subscriptionIds).toEqual([accounts.uuid]);
  });

  it('refuses unknown, deprecated and commercial products', async () => {
    const a = await createApp(w.c.creator, w.org.id);
    const old = await insertProduct(t.app.db, { alias: 'subs-old-v0', deprecated: true, scope: 'old' });
    const paid = await insertProduct(t.app.db, { alias: 'subs-paid-v1', commercial: true, scope: 'paid' });
    const unknown = await subscription(
      w.c.creator,
      'subscribe',
      a.uuid,
      '00000000-0000-4000-8000-000000000000',
    );
    expect(unknown.status).toBe(404);
    expect((await body<JsonApiErrorBody>(unknown)).errors[0]!.title).toBe(M.unknownProduct);
    const deprecated = await subscription(w.c.creator, 'subscribe', a.uuid, old.uuid);
    expect(deprecated.status).toBe(422);
    expect((await body<JsonApiErrorBody>(deprecated)).errors[0]!.title).toBe(M.productDeprecated);
    const commercial = await subscription(w.c.creator, 'subscribe', a.uuid, paid.uuid);
    expect(commercial.status).toBe(422);
    expect((await body<JsonApiErrorBody>(commercial)).errors[0]!.title).toBe(M.productCommercial);
    // A product retired in the console takes no new subscriptions; existing ones stay (catalog
    // README 'Console: API products').
    const later = await insertProduct(t.app.db, { alias: 'subs-later-v1', scope: 'later' });
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, later.uuid)).status).toBe(200);
    await sql`update api_products set retired = true where id = ${later.id}`.execute(t.app.db);
    const b = await createApp(w.c.creator, w.org.id);
    const retired = await subscription(w.c.creator, 'subscribe', b.uuid, later.uuid);
    expect(retired.status).toBe(422);
    expect((await body<JsonApiErrorBody>(retired)).errors[0]!.title).toBe(M.productRetired);
    expect((await getApp(w.c.creator, a.uuid)).subscriptionIds).toEqual([later.uuid]);
    const badType = await w.c.creator.send(
      'POST',
      '/api/application',
      { type: 'subscribe', application: a.uuid },
      'application/json',
    );
    expect(badType.status).toBe(422);
  });

  it('replaces the subscriptions through the edit call and keeps the scopes in step', async () => {
    const a = await createApp(w.c.creator, w.org.id);
    const rel = (ids: string[]) => ({
      field_application_subscriptions: { data: ids.map((id) => ({ type: 'node--api_product', id })) },
    });
    const first = await w.c.creator.send(
      'PATCH',
      `/jsonapi/node/application/${a.uuid}/edit_app_custom`,
      appDocument({}, rel([accounts.uuid, payments.uuid])),
    );
    expect(first.status).toBe(200);
    expect((await body<{ data: AppResource }>(first)).data.meta.application.subscriptionIds.sort()).toEqual(
      [accounts.uuid, payments.uuid].sort(),
    );
    const token = await clientCredentials(
      t,
      a.clientId.development!,
      secretOf(a),
      'accounts:read payments:write',
    );
    expect(token.status).toBe(200);
    const second = await w.c.creator.send(
      'PATCH',
      `/jsonapi/node/application/${a.uuid}/edit_app_custom`,
      appDocument({}, rel([payments.uuid])),
    );
    expect(second.status).toBe(200);
    expect(await t.app.oauthClients.allowedScopes(a.clientId.development!)).toEqual(['payments:write']);
    expect((await sandbox(t, 'subs-bank/accounts', token.body.access_token!)).status).toBe(403);
  });
});

describe('production applications are frozen', () => {
  let a: Application;
  beforeAll(async () => {
    a = await createApp(w.c.creator, w.org.id);
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, accounts.uuid)).status).toBe(200);
    expect((await goLive(w.c.creator, a.uuid)).status).toBe(201);
    expect((await getApp(w.c.creator, a.uuid)).applicationStatus).toBe('PRODUCTION');
  });

  async function refusal(res: Response) {
    return { status: res.status, title: (await body<JsonApiErrorBody>(res)).errors[0]!.title };
  }

  it('cannot be edited, deleted, unsubscribed or subscribed', async () => {
    expect(
      await refusal(
        await w.c.creator.send(
          'PATCH',
          `/jsonapi/node/application/${a.uuid}/edit_app_custom`,
          appDocument({ title: 'Changed' }),
        ),
      ),
    ).toEqual({ status: 403, title: M.cannotEdit });
    expect(await refusal(await w.c.creator.send('DELETE', `/jsonapi/node/application/${a.uuid}`))).toEqual({
      status: 403,
      title: M.cannotDelete,
    });
    expect(await refusal(await subscription(w.c.creator, 'unsubscribe', a.uuid, accounts.uuid))).toEqual({
      status: 403,
      title: M.cannotUnsubscribe,
    });
    expect(await refusal(await subscription(w.c.creator, 'subscribe', a.uuid, payments.uuid))).toEqual({
      status: 403,
      title: M.cannotEdit,
    });
    const unchanged = await getApp(w.c.creator, a.uuid);
    expect(unchanged.title).toBe(a.title);
    expect(unchanged.subscriptionIds).toEqual([accounts.uuid]);
    // Secrets may still be rotated.
    const reset = await w.c.creator.send(
      'POST',
      '/secret/reset',
      { application: a.uuid },
      'application/json',
    );
    expect(reset.status).toBe(200);
  });

  it('keeps its organization from being deleted', async () => {
    const res = await w.c.creator.send('DELETE', `/jsonapi/group/organization/${w.org.id}/delete_custom`);
    expect(res.status).toBe(409);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(
      en.organizations.deleteNotAllowed.replace('{{email}}', 'support@bank.example'),
    );
  });
});

describe('deleting an organization without production applications', () => {
  it('deletes its applications and their OAuth clients', async () => {
    const org = await createOrg(w.c.developer, 'Short-lived');
    const a = await createApp(w.c.developer, org.id);
    expect((await subscription(w.c.developer, 'subscribe', a.uuid, accounts.uuid)).status).toBe(200);
    const token = await clientCredentials(t, a.clientId.development!, secretOf(a));
    expect(token.status).toBe(200);
    const res = await w.c.developer.send('DELETE', `/jsonapi/group/organization/${org.id}/delete_custom`);
    expect(res.status).toBe(204);
    expect(await t.app.oauthClients.getClient(a.clientId.development!)).toBeUndefined();
    expect((await clientCredentials(t, a.clientId.development!, secretOf(a))).status).toBe(401);
    expect((await sandbox(t, 'subs-bank/accounts', token.body.access_token!)).status).toBe(401);
  });
});
