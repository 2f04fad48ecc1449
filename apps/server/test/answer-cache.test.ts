import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './applications-fixtures.ts';
import type { TestClient } from './http-client.ts';
import { accept, body, createOrg, invite, signedInUser } from './org-fixtures.ts';
import { startTestApp, startTwoInstances, testDbKind, type TestApp, type TwoInstances } from './test-app.ts';

/**
 * The caches of signed-in requests (decision 028): sessions known in memory until the `sessions`
 * or `identity` counters change, and answers cached per user (plugins/http-cache.ts cacheAnswers
 * with perUser): never one user's answer to another, a write through HTTP by the same or another
 * user seen by the next request, ETag/304, and on PostgreSQL two instances on one database.
 */

const APPS = '/phpsdk/organization/apps?page%5Blimit%5D=50&_format=json';
const PRODUCTS = '/jsonapi/node/api_product?sort=-changed&include=field_image';

const unique = (who: string) => `${who}.${randomBytes(4).toString('hex')}@example.com`;

async function appTitles(client: TestClient, base = APPS): Promise<{ titles: string[]; res: Response }> {
  const res = await client.get(base);
  expect(res.status).toBe(200);
  const doc = await body<{ data: { title?: string; attributes?: { title: string } }[] }>(res);
  return { titles: doc.data.map((a) => a.title ?? a.attributes?.title ?? '').sort(), res };
}

/** A request with the raw session cookie, as a browser that kept it after the server ended it. */
function withCookie(t: TestApp, raw: string, path: string, headers: Record<string, string> = {}) {
  return fetch(`${t.baseUrl}${path}`, {
    headers: { cookie: `${t.app.sessionCookieName}=${raw}`, ...headers },
  });
}

describe('signed-in answers cached per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
  });
  afterAll(() => t?.close());

  it('answers a user from memory, never with another user’s answer, and sees writes at once', async () => {
    const ann = await signedInUser(t, unique('ann.alpha'));
    const bob = await signedInUser(t, unique('bob.beta'));
    const annOrg = await createOrg(ann, `Ann org ${randomBytes(3).toString('hex')}`);
    const bobOrg = await createOrg(bob, `Bob org ${randomBytes(3).toString('hex')}`);
    await createApp(ann, annOrg.id, { title: 'Ann first app' });
    await createApp(bob, bobOrg.id, { title: 'Bob only app' });

    const first = await appTitles(ann);
    expect(first.titles).toEqual(['Ann first app']);
    const again = await appTitles(ann);
    expect(again.res.headers.get('x-portico-cache')).toBe('hit');
    expect(again.res.headers.get('cache-control')).toBe('private, no-store');
    expect(again.titles).toEqual(['Ann first app']);
    // Sent by the early path with the headers of the first answer (security headers included).
    for (const name of ['content-security-policy', 'x-content-type-options', 'content-type'])
      expect(again.res.headers.get(name), name).toBe(first.res.headers.get(name));
    expect(again.res.headers.get('request-id')).not.toBe(first.res.headers.get('request-id'));

    // Bob asks for the same URL: his own answer, computed for him, then his own hit.
    const bobs = await appTitles(bob);
    expect(bobs.res.headers.get('x-portico-cache')).toBeNull();
    expect(bobs.titles).toEqual(['Bob only app']);
    const bobsAgain = await appTitles(bob);
    expect(bobsAgain.res.headers.get('x-portico-cache')).toBe('hit');
    expect(bobsAgain.titles).toEqual(['Bob only app']);
    // And nobody else: an anonymous caller and a stale cookie get no one's list.
    expect((await fetch(`${t.baseUrl}${APPS}`)).status).toBe(401);
    expect((await withCookie(t, 'not-a-session', APPS)).status).toBe(401);

    // ETag and 304 for a cached signed-in answer.
    const etag = again.res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const revalidated = await ann.get(APPS, { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);

    // A write by the same user through HTTP: the next request has it.
    await createApp(ann, annOrg.id, { title: 'Ann second app' });
    const afterOwnWrite = await appTitles(ann);
    expect(afterOwnWrite.res.headers.get('x-portico-cache')).toBeNull();
    expect(afterOwnWrite.titles).toEqual(['Ann first app', 'Ann second app']);
    expect((await ann.get(APPS, { 'If-None-Match': etag })).status).toBe(200);

    // Writes by another user: Ann invites Bob, Bob accepts; both see it on their next request.
    expect((await appTitles(bob)).titles).toEqual(['Bob only app']);
    const bobEmail = (await body<{ mail: string }>(await bob.get('/session/user'))).mail;
    expect((await invite(ann, annOrg.id, bobEmail, ['organization-developer'])).status).toBe(201);
    await accept(bob, annOrg.id);
    expect((await appTitles(bob)).titles).toEqual(['Ann first app', 'Ann second app', 'Bob only app']);
    expect((await appTitles(ann)).titles).toEqual(['Ann first app', 'Ann second app']);
  });

  it('keys an answer by the user and what the request negotiates, and caches the catalog per user', async () => {
    const cat = await signedInUser(t, unique('cat.gamma'));
    const first = await cat.get(PRODUCTS);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    const hit = await cat.get(PRODUCTS);
    expect(hit.headers.get('x-portico-cache')).toBe('hit');
    expect(hit.headers.get('cache-control')).toBe('private, no-store');
    expect(await hit.text()).toBe(await first.text());
    // Another Accept is another entry.
    const other = await cat.get(PRODUCTS, { accept: 'application/vnd.api+json' });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-portico-cache')).toBeNull();
    // A catalog change reaches signed-in users too.
    await sql`update api_products set title = title || ' (renamed)'
      where id = (select min(id) from api_products)`.execute(t.app.db);
    const changed = await cat.get(PRODUCTS);
    expect(changed.headers.get('x-portico-cache')).toBeNull();
    expect(await changed.text()).toContain('(renamed)');
  });

  it('ends a session everywhere at once: logout, sessions removed (password change, blocking)', async () => {
    const dan = await signedInUser(t, unique('dan.delta'));
    const raw = dan.sessionCookie()![1];
    expect((await withCookie(t, raw, APPS)).status).toBe(200);
    expect((await withCookie(t, raw, APPS)).status).toBe(200); // the session from memory
    expect(t.app.sessionCache.size).toBeGreaterThan(0);
    const csrf = dan.csrfToken!;
    expect((await dan.get('/user/logout', { 'x-csrf-token': csrf })).status).toBe(204);
    // The browser that kept the cookie is anonymous now.
    expect((await withCookie(t, raw, APPS)).status).toBe(401);

    // What a password change, a reset or an administrator blocking the user does: their sessions go.
    const eve = await signedInUser(t, unique('eve.epsilon'));
    const eveRaw = eve.sessionCookie()![1];
    expect((await withCookie(t, eveRaw, APPS)).status).toBe(200);
    await sql`delete from sessions where user_id = (select id from users where email like 'eve.epsilon.%')`.execute(
      t.app.db,
    );
    expect((await withCookie(t, eveRaw, APPS)).status).toBe(401);
  });

  it('sees a change of the user (an administrator role taken away) on the next request', async () => {
    const email = unique('fay.admin');
    const fay = await signedInUser(t, email, { admin: true });
    expect((await fay.get('/admin-api/outbox')).status).toBe(200);
    expect((await fay.get('/admin-api/outbox')).status).toBe(200);
    await sql`update users set is_admin = false where email = ${email}`.execute(t.app.db);
    expect((await fay.get('/admin-api/outbox')).status).toBe(403);
    const me = await body<{ isAdmin: boolean }>(await fay.get('/session/user'));
    expect(me.isAdmin).toBe(false);
  });

  it('touching a session (last seen) does not invalidate the caches', async () => {
    const before = await sql<{
      version: string;
    }>`select version from data_versions where domain = 'sessions'`.execute(t.app.db);
    await sql`update sessions set last_seen_at = now() - interval '1 hour'`.execute(t.app.db);
    const after = await sql<{
      version: string;
    }>`select version from data_versions where domain = 'sessions'`.execute(t.app.db);
    expect(String(after.rows[0]!.version)).toBe(String(before.rows[0]!.version));
    await sql`update sessions set expires_at = expires_at`.execute(t.app.db);
    const bumped = await sql<{
      version: string;
    }>`select version from data_versions where domain = 'sessions'`.execute(t.app.db);
    expect(Number(bumped.rows[0]!.version)).toBeGreaterThan(Number(before.rows[0]!.version));
  });
});

// An embedded database belongs to one process: several instances need PostgreSQL.
describe.skipIf(testDbKind() !== 'postgres')('signed-in caches of two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let instances: TwoInstances | undefined;
  beforeAll(async () => {
    instances = await startTwoInstances({ LOGIN_RATE_LIMIT: '1000' });
    ({ a, b } = instances);
  });
  afterAll(() => instances?.close());

  it('a write or a logout through one instance is seen by the other on the next request', async () => {
    const gus = await signedInUser(a, unique('gus.eta'));
    const raw = gus.sessionCookie()![1];
    const org = await createOrg(gus, `Gus org ${randomBytes(3).toString('hex')}`);
    await createApp(gus, org.id, { title: 'Gus first app' });
    const onB = async () => {
      const res = await withCookie(b, raw, APPS);
      return { res, doc: res.status === 200 ? await body<{ data: { title: string }[] }>(res) : undefined };
    };
    expect((await onB()).doc!.data.map((x) => x.title)).toEqual(['Gus first app']);
    const cached = await onB();
    expect(cached.res.headers.get('x-portico-cache')).toBe('hit');

    await createApp(gus, org.id, { title: 'Gus second app' });
    const after = await onB();
    expect(after.res.headers.get('x-portico-cache')).toBeNull();
    expect(after.doc!.data.map((x) => x.title).sort()).toEqual(['Gus first app', 'Gus second app']);

    expect((await gus.get('/user/logout', { 'x-csrf-token': gus.csrfToken! })).status).toBe(204);
    expect((await onB()).res.status).toBe(401);
  });
});
