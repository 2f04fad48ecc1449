import type { Application } from '@portico/contracts/applications';
import type { ClientSecretList, RotatedSecret } from '@portico/contracts/client-secrets';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoSeconds } from '../src/authz-server/secret-rotation.ts';
import { formatDateTime } from '../src/lib/i18n.ts';
import { sendSecretExpiryReminders } from '../src/modules/applications/secret-reminders.ts';
import {
  createApp,
  getApp,
  insertProduct,
  makeWorld,
  subscription,
  type World,
} from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import { body, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const S = en.clientSecrets;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let w: World;
let product: { uuid: string };
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  product = await insertProduct(t.app.db, { alias: 'rotation-api', scope: 'accounts:read' });
});
afterAll(async () => {
  await t?.close();
});

/** A fresh application of the world's organization, subscribed (its tokens get a scope). */
async function freshApp(): Promise<{ app: Application; clientId: string; secret: string }> {
  const created = await createApp(w.c.creator, w.org.id, { title: `Rotating ${Math.random()}` });
  expect((await subscription(w.c.creator, 'subscribe', created.uuid, product.uuid)).status).toBe(200);
  const app = await getApp(w.c.creator, created.uuid);
  return { app, clientId: app.clientId.development!, secret: app.clientSecret! };
}

const rotation = (gracePeriodHours: unknown, environment = 'DEVELOPMENT') => ({
  data: { type: 'oauth_client_secret', attributes: { environment, gracePeriodHours } },
});

async function rotate(client: TestClient, appId: string, hours: unknown) {
  return client.send('POST', `/api/applications/${appId}/secrets`, rotation(hours));
}

async function list(client: TestClient, appId: string): Promise<ClientSecretList> {
  const res = await client.get(`/api/applications/${appId}/secrets`);
  expect(res.status).toBe(200);
  return body<ClientSecretList>(res);
}

/** client_credentials through openid-client, with client_secret_basic. */
async function token(clientId: string, secret: string) {
  const config = new oidc.Configuration(
    { issuer: `${t.config.publicUrl}/oauth`, token_endpoint: `${t.baseUrl}/oauth/token` },
    clientId,
    {},
    oidc.ClientSecretBasic(secret),
  );
  oidc.allowInsecureRequests(config);
  try {
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'accounts:read' });
    return { ok: true as const, accessToken: tokens.access_token };
  } catch (err) {
    // invalid_client comes as a 401 with a WWW-Authenticate challenge (client_secret_basic).
    if (err instanceof oidc.WWWAuthenticateChallengeError) {
      const { error, error_description: description } = err.cause[0]!.parameters;
      return { ok: false as const, status: err.status, error, description };
    }
    if (err instanceof oidc.ResponseBodyError) {
      return { ok: false as const, status: err.status, error: err.error, description: err.error_description };
    }
    throw err;
  }
}

describe('client secret rotation with overlap (issue 28)', () => {
  it('rotates: both secrets work during the grace period, both are listed with their dates', async () => {
    const { app, clientId, secret: oldSecret } = await freshApp();
    expect((await token(clientId, oldSecret)).ok).toBe(true);
    const before = (await list(w.c.developer, app.uuid)).data;
    expect(before).toHaveLength(1);
    expect(before[0]!.attributes).toMatchObject({
      environment: 'DEVELOPMENT',
      client_id: clientId,
      current: true,
      expires: null,
    });

    const started = Date.now();
    const res = await rotate(w.c.developer, app.uuid, 24);
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    const rotated = await body<RotatedSecret>(res);
    const newSecret = rotated.meta.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.data.attributes).toMatchObject({ current: true, expires: null, client_id: clientId });
    const previousExpires = Date.parse(rotated.meta.previousExpires);
    expect(previousExpires).toBeGreaterThanOrEqual(started + 24 * HOUR - 1000);
    expect(previousExpires).toBeLessThanOrEqual(Date.now() + 24 * HOUR + 1000);

    // Both secrets get tokens.
    expect((await token(clientId, oldSecret)).ok).toBe(true);
    expect((await token(clientId, newSecret)).ok).toBe(true);
    // The application view shows the new current secret.
    expect((await getApp(w.c.developer, app.uuid)).clientSecret).toBe(newSecret);

    const listed = (await list(w.c.owner, app.uuid)).data;
    expect(listed.map((s) => s.attributes.current)).toEqual([true, false]);
    expect(listed[0]!.id).toBe(rotated.data.id);
    expect(listed[1]!.attributes.expires).toBe(rotated.meta.previousExpires);
    expect(listed[1]!.attributes.expired).toBe(false);
    expect(Date.parse(listed[1]!.attributes.created)).toBeLessThan(Date.parse(listed[0]!.attributes.created));

    // The audit log has the rotation.
    const audit = await sql<{ action: string; after: unknown }>`select action, after from audit_log
      where target_id = ${app.uuid} and action = 'application.secret_rotated'`.execute(t.app.db);
    expect(audit.rows).toHaveLength(1);
  });

  it('revokes the old secret at once (plain invalid_client); the current one cannot be revoked', async () => {
    const { app, clientId, secret: oldSecret } = await freshApp();
    const rotated = await body<RotatedSecret>(await rotate(w.c.creator, app.uuid, 720));
    const [current, old] = (await list(w.c.creator, app.uuid)).data;

    const refused = await w.c.creator.send('DELETE', `/api/applications/${app.uuid}/secrets/${current!.id}`);
    expect(refused.status).toBe(409);
    expect((await body<JsonApiErrorBody>(refused)).errors[0]!.title).toBe(S.errors.currentSecret);

    const res = await w.c.developer.send('DELETE', `/api/applications/${app.uuid}/secrets/${old!.id}`);
    expect(res.status).toBe(204);
    const after = await token(clientId, oldSecret);
    expect(after).toMatchObject({ ok: false, status: 401, error: 'invalid_client' });
    expect(after.ok === false && after.description).not.toMatch(/expired/);
    expect((await token(clientId, rotated.meta.secret)).ok).toBe(true);
    expect((await list(w.c.creator, app.uuid)).data.map((s) => s.id)).toEqual([current!.id]);

    // Revoked twice, unknown, or not a uuid: 404 with the same message.
    for (const id of [old!.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const again = await w.c.developer.send('DELETE', `/api/applications/${app.uuid}/secrets/${id}`);
      expect(again.status).toBe(404);
      expect((await body<JsonApiErrorBody>(again)).errors[0]!.title).toBe(S.errors.unknownSecret);
    }
    const audit = await sql<{ n: number }>`select count(*)::int as n from audit_log
      where target_id = ${app.uuid} and action = 'application.secret_revoked'`.execute(t.app.db);
    expect(audit.rows[0]!.n).toBe(1);
  });

  it('refuses an expired secret with a precise invalid_client description', async () => {
    const { app, clientId, secret: oldSecret } = await freshApp();
    const rotated = await body<RotatedSecret>(await rotate(w.c.creator, app.uuid, 1));
    const expiredAt = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);
    await sql`update oauth_client_secrets set expires_at = ${expiredAt}
      where client_id = ${clientId} and expires_at is not null`.execute(t.app.db);
    const refused = await token(clientId, oldSecret);
    expect(refused).toEqual({
      ok: false,
      status: 401,
      error: 'invalid_client',
      description: `The client secret expired at ${isoSeconds(expiredAt)}; use the current secret.`,
    });
    // The same over plain HTTP with client_secret_post.
    const res = await fetch(`${t.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: oldSecret,
      }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: 'invalid_client',
      error_description: `The client secret expired at ${isoSeconds(expiredAt)}; use the current secret.`,
    });
    expect((await token(clientId, rotated.meta.secret)).ok).toBe(true);
    const listed = (await list(w.c.creator, app.uuid)).data;
    expect(listed[1]!.attributes.expired).toBe(true);
  });

  it('Reset Secret replaces every secret at once', async () => {
    const { app, clientId, secret: first } = await freshApp();
    const rotated = await body<RotatedSecret>(await rotate(w.c.creator, app.uuid, 48));
    const reset = await w.c.creator.send(
      'POST',
      '/secret/reset',
      { application: app.uuid, environment: 'DEVELOPMENT' },
      'application/json',
    );
    expect(reset.status).toBe(200);
    const { secret } = await body<{ secret: string }>(reset);
    expect(await token(clientId, first)).toMatchObject({ ok: false, error: 'invalid_client' });
    expect(await token(clientId, rotated.meta.secret)).toMatchObject({ ok: false, error: 'invalid_client' });
    expect((await token(clientId, secret)).ok).toBe(true);
    const listed = (await list(w.c.creator, app.uuid)).data;
    expect(listed).toHaveLength(1);
    expect(listed[0]!.attributes.current).toBe(true);
  });

  it('refuses a grace period outside 1 hour to 30 days with a precise 422, and writes nothing', async () => {
    const { app, clientId, secret } = await freshApp();
    for (const hours of [0, 721, 1.5, '24', null, -3]) {
      const res = await rotate(w.c.creator, app.uuid, hours);
      expect(res.status).toBe(422);
      const errors = (await body<JsonApiErrorBody>(res)).errors;
      expect(errors[0]).toMatchObject({
        title: S.errors.gracePeriod,
        source: { pointer: '/data/attributes/gracePeriodHours' },
      });
    }
    const badEnvironment = await w.c.creator.send(
      'POST',
      `/api/applications/${app.uuid}/secrets`,
      rotation(24, 'STAGING'),
    );
    expect(badEnvironment.status).toBe(422);
    expect((await body<JsonApiErrorBody>(badEnvironment)).errors[0]!.title).toBe(S.errors.environment);
    // No production client before approval.
    const production = await w.c.creator.send(
      'POST',
      `/api/applications/${app.uuid}/secrets`,
      rotation(24, 'PRODUCTION'),
    );
    expect(production.status).toBe(409);
    expect((await list(w.c.creator, app.uuid)).data).toHaveLength(1);
    expect((await token(clientId, secret)).ok).toBe(true);
  });

  it('checks who is asking: other organizations 404, members without the right 403, anonymous 401', async () => {
    const { app } = await freshApp();
    const expected: [keyof World['c'], number][] = [
      ['anonymous', 401],
      ['stranger', 404],
      ['financial', 403],
      ['legal', 403],
      ['pending', 403],
    ];
    for (const [actor, status] of expected) {
      const client = w.c[actor];
      expect((await client.get(`/api/applications/${app.uuid}/secrets`)).status, actor).toBe(status);
      expect((await rotate(client, app.uuid, 24)).status, actor).toBe(status);
    }
    const [current] = (await list(w.c.creator, app.uuid)).data;
    await rotate(w.c.creator, app.uuid, 24);
    for (const [actor, status] of expected) {
      const res = await w.c[actor].send('DELETE', `/api/applications/${app.uuid}/secrets/${current!.id}`);
      expect(res.status, actor).toBe(status);
    }
    // A secret of another application is unknown here.
    const other = await freshApp();
    await rotate(w.c.creator, other.app.uuid, 24);
    const otherOld = (await list(w.c.creator, other.app.uuid)).data[1]!;
    const res = await w.c.creator.send('DELETE', `/api/applications/${app.uuid}/secrets/${otherOld.id}`);
    expect(res.status).toBe(404);
    expect((await list(w.c.creator, other.app.uuid)).data).toHaveLength(2);
  });

  it('mails the owners a week and a day before a secret expires, once each', async () => {
    const { app, clientId } = await freshApp();
    const rotated = await body<RotatedSecret>(await rotate(w.c.creator, app.uuid, 720));
    const expires = new Date(rotated.meta.previousExpires);
    const mails = async () =>
      (
        await sql<{
          to_address: string;
          subject: string;
          text_body: string;
        }>`select to_address, subject, text_body
          from outbox where text_body like ${`%${clientId}%`} order by id`.execute(t.app.db)
      ).rows;
    const at = (ms: number) => new Date(expires.getTime() - ms);
    const remindAt = async (now: Date) => {
      await sendSecretExpiryReminders(t.app, now);
      return mails();
    };

    expect(await remindAt(at(8 * DAY))).toHaveLength(0);
    // Two instances at once: one claims the reminder.
    await Promise.all([
      sendSecretExpiryReminders(t.app, at(7 * DAY - HOUR)),
      sendSecretExpiryReminders(t.app, at(7 * DAY - HOUR)),
    ]);
    const week = await mails();
    const owners = [...new Set(week.map((m) => m.to_address))].sort();
    expect(owners).toEqual(['carla.creator.w1@example.com', 'otto.owner.w1@example.com']);
    expect(week).toHaveLength(2);
    expect(week[0]!.subject).toBe(`A client secret of ${app.title} expires in a week`);
    expect(week[0]!.text_body).toContain(`expires at ${isoSeconds(expires)}`);
    expect(week[0]!.text_body).toContain(`${t.config.publicUrl}/application/${app.uuid}`);
    expect(await remindAt(at(3 * DAY))).toHaveLength(2);
    const day = await remindAt(at(20 * HOUR));
    expect(day).toHaveLength(4);
    expect(day[3]!.subject).toBe(`A client secret of ${app.title} expires within a day`);
    expect(await remindAt(at(HOUR))).toHaveLength(4);
    // After the expiry: nothing more.
    expect(await remindAt(new Date(expires.getTime() + HOUR))).toHaveLength(4);
  });

  it("writes each owner's reminder in their language, the expiry as that language writes a date (issue 30)", async () => {
    const german = 'otto.owner.w1@example.com';
    await t.app.db
      .updateTable('users')
      .set({ preferred_langcode: 'de' })
      .where('email', '=', german)
      .execute();
    try {
      const { app, clientId } = await freshApp();
      const rotated = await body<RotatedSecret>(await rotate(w.c.creator, app.uuid, 720));
      const expires = new Date(rotated.meta.previousExpires);
      await sendSecretExpiryReminders(t.app, new Date(expires.getTime() - 7 * DAY + HOUR));
      const rows = (
        await sql<{
          to_address: string;
          subject: string;
          text_body: string;
        }>`select to_address, subject, text_body
          from outbox where text_body like ${`%${clientId}%`} order by id`.execute(t.app.db)
      ).rows;
      const de = rows.find((m) => m.to_address === german)!;
      expect(de.subject).toBe(`Ein Client-Secret von ${app.title} läuft in einer Woche ab`);
      expect(de.text_body).toContain(`läuft am ${formatDateTime('de', expires)} UTC ab`);
      const english = rows.find((m) => m.to_address !== german)!;
      expect(english.subject).toBe(`A client secret of ${app.title} expires in a week`);
      expect(english.text_body).toContain(`expires at ${isoSeconds(expires)}`);
    } finally {
      await t.app.db
        .updateTable('users')
        .set({ preferred_langcode: null })
        .where('email', '=', german)
        .execute();
    }
  });

  it('sends only the day reminder for a secret that expires within a day, and none for a revoked one', async () => {
    const { app, clientId } = await freshApp();
    await rotate(w.c.creator, app.uuid, 6);
    const revoked = await freshApp();
    await rotate(w.c.creator, revoked.app.uuid, 6);
    const old = (await list(w.c.creator, revoked.app.uuid)).data[1]!;
    expect(
      (await w.c.creator.send('DELETE', `/api/applications/${revoked.app.uuid}/secrets/${old.id}`)).status,
    ).toBe(204);
    await sendSecretExpiryReminders(t.app, new Date());
    await sendSecretExpiryReminders(t.app, new Date(Date.now() + HOUR));
    const rows = await sql<{ subject: string; text_body: string }>`select subject, text_body from outbox
      where text_body like ${`%${clientId}%`} or text_body like ${`%${revoked.clientId}%`}`.execute(t.app.db);
    expect(rows.rows.map((r) => r.subject)).toEqual([
      `A client secret of ${app.title} expires within a day`,
      `A client secret of ${app.title} expires within a day`,
    ]);
  });
});
