import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from './test-app.ts';
import { TestClient, signIn } from './http-client.ts';
import { PASSWORD, createUser, verifyThroughOutbox } from './org-fixtures.ts';

/** Issue 10, accounts and sessions: proven addresses, sessions ended on both sides, no lockout. */

const M = en.identity;

async function signUp(t: TestApp, email: string, password = 'long-enough-1'): Promise<TestClient> {
  const c = new TestClient(t.baseUrl);
  const info = (await (await c.get('/openid-connect/authorization-info/generic?screen=signup')).json()) as {
    baseUrl: string;
    parameters: Record<string, string>;
  };
  const { url } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
  const created = await c.postForm(`${new URL(url).pathname}/signup`, {
    firstName: 'Vera',
    lastName: 'Fied',
    email,
    password,
  });
  expect(created.status).toBe(303);
  const { url: callback } = await c.follow(created.headers.get('location')!);
  const exchange = await c.get(`/openid-connect/generic?${new URL(callback).searchParams}`);
  expect(exchange.status).toBe(200);
  c.csrfToken = ((await exchange.json()) as { csrfToken: string }).csrfToken;
  return c;
}

async function lastLink(t: TestApp, email: string, path: 'verify' | 'reset'): Promise<string> {
  const mail = await t.app.db
    .selectFrom('outbox')
    .select('text_body')
    .where('to_address', '=', email)
    .where('text_body', 'like', `%/idp/${path}/%`)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const link = new RegExp(`https?://\\S+/idp/${path}/\\S+`).exec(mail.text_body)?.[0];
  expect(link).toBeDefined();
  return new URL(link!).pathname;
}

const sessionUser = async (c: TestClient) =>
  (await (await c.get('/session/user?_format=json')).json()) as { emailVerified: boolean } | null;

describe('accounts: e-mail verification', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends a single-use link at sign-up; the account signs in but is unverified until it is used', async () => {
    const c = await signUp(t, 'vera.fied@example.com');
    expect(await sessionUser(c)).toMatchObject({ emailVerified: false });
    const path = await lastLink(t, 'vera.fied@example.com', 'verify');
    // Opening the link only shows the confirmation (mail scanners open links too).
    const page = await new TestClient(t.baseUrl).get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('vera.fied@example.com');
    expect(html).toContain(M.verifyButton);
    expect(await sessionUser(c)).toMatchObject({ emailVerified: false });
    const confirmed = await new TestClient(t.baseUrl).postForm(path, {});
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain(M.verifyDone);
    expect(await sessionUser(c)).toMatchObject({ emailVerified: true });
    // Single use.
    const again = await new TestClient(t.baseUrl).postForm(path, {});
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(M.verifyLinkInvalid);
    expect((await new TestClient(t.baseUrl).get(path)).status).toBe(400);
  });

  it('refuses an expired or unknown link, and stores only the token hash', async () => {
    await signUp(t, 'late.comer@example.com');
    const path = await lastLink(t, 'late.comer@example.com', 'verify');
    const token = path.split('/').pop()!;
    const stored = await t.app.db.selectFrom('email_verifications').select('token_hash').execute();
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    await t.app.db
      .updateTable('email_verifications')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('email', '=', 'late.comer@example.com')
      .execute();
    expect((await new TestClient(t.baseUrl).postForm(path, {})).status).toBe(400);
    expect((await new TestClient(t.baseUrl).postForm('/idp/verify/not-a-token', {})).status).toBe(400);
    const user = await t.app.db
      .selectFrom('users')
      .select('email_verified')
      .where('email', '=', 'late.comer@example.com')
      .executeTakeFirstOrThrow();
    expect(user.email_verified).toBe(false);
  });

  it('a link proves only the address it was sent to', async () => {
    await signUp(t, 'first.address@example.com');
    const path = await lastLink(t, 'first.address@example.com', 'verify');
    // The account's address changes (no route does this yet; any future one must not be able to
    // reuse an earlier proof).
    await t.app.db
      .updateTable('users')
      .set({ email: 'second.address@example.com' })
      .where('email', '=', 'first.address@example.com')
      .execute();
    expect((await new TestClient(t.baseUrl).postForm(path, {})).status).toBe(400);
  });

  it('resends the link on request, a few times an hour, only to signed-in unverified accounts', async () => {
    const anonymous = new TestClient(t.baseUrl);
    expect((await anonymous.send('POST', '/user/verification-mail', {}, 'application/json')).status).toBe(
      401,
    );
    const c = await signUp(t, 'resend.me@example.com');
    const first = await lastLink(t, 'resend.me@example.com', 'verify');
    const sent = await c.send('POST', '/user/verification-mail', {}, 'application/json');
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({
      message: 'We sent a new confirmation link to resend.me@example.com.',
    });
    const second = await lastLink(t, 'resend.me@example.com', 'verify');
    expect(second).not.toBe(first);
    for (let i = 1; i < 5; i++)
      expect((await c.send('POST', '/user/verification-mail', {}, 'application/json')).status).toBe(200);
    const limited = await c.send('POST', '/user/verification-mail', {}, 'application/json');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe(
      M.tooManyVerificationMails,
    );
    // Either link works; afterwards there is nothing left to send.
    expect((await new TestClient(t.baseUrl).postForm(first, {})).status).toBe(200);
    const done = await c.send('POST', '/user/verification-mail', {}, 'application/json');
    expect(done.status).toBe(409);
    expect(((await done.json()) as { errors: { title: string }[] }).errors[0]?.title).toBe(M.alreadyVerified);
  });

  it('a password reset proves the address too; the demo accounts are verified', async () => {
    await signUp(t, 'reset.proves@example.com');
    await new TestClient(t.baseUrl).postForm('/idp/reset', { email: 'reset.proves@example.com' });
    const path = await lastLink(t, 'reset.proves@example.com', 'reset');
    expect(
      await (await new TestClient(t.baseUrl).postForm(path, { password: 'new-secret-123' })).text(),
    ).toContain(M.passwordChanged);
    const c = new TestClient(t.baseUrl);
    expect((await signIn(c, 'reset.proves@example.com', 'new-secret-123')).status).toBe(200);
    expect(await sessionUser(c)).toMatchObject({ emailVerified: true });
    const dev = new TestClient(t.baseUrl);
    const login = await signIn(dev, 'dev@portico.local', 'DevPortal#2026');
    expect(login.body).toMatchObject({ emailVerified: true });
  });

  it('verifyThroughOutbox (the fixture other tests use) confirms the newest link', async () => {
    const c = await signUp(t, 'fixture.user@example.com');
    await verifyThroughOutbox(t, 'fixture.user@example.com');
    expect(await sessionUser(c)).toMatchObject({ emailVerified: true });
  });
});

describe('accounts: a password reset ends every session, at the portal and at the provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const providerRecords = async (uuid: string) =>
    (
      await t.app.db
        .selectFrom('oidc_payloads')
        .select('model')
        .where('model', 'like', 'idp:%')
        .where(sql`payload->>'accountId'`, '=', uuid)
        .execute()
    ).map((r) => r.model);

  it('the provider cookie no longer signs the account in, and its grants and tokens are gone', async () => {
    const user = await createUser(t, 'reset.all@example.com');
    const browser = new TestClient(t.baseUrl);
    expect((await signIn(browser, 'reset.all@example.com', PASSWORD)).status).toBe(200);
    const other = new TestClient(t.baseUrl);
    expect((await signIn(other, 'reset.all@example.com', PASSWORD)).status).toBe(200);
    const before = await providerRecords(user.uuid);
    expect(before).toEqual(expect.arrayContaining(['idp:Session', 'idp:Grant', 'idp:AccessToken']));

    await new TestClient(t.baseUrl).postForm('/idp/reset', { email: 'reset.all@example.com' });
    const path = await lastLink(t, 'reset.all@example.com', 'reset');
    await new TestClient(t.baseUrl).postForm(path, { password: 'changed-secret-1' });

    expect(await providerRecords(user.uuid)).toEqual([]);
    for (const c of [browser, other])
      expect(await (await c.get('/user/login_status?_format=json')).text()).toBe('0');
    // The browser still holds the provider's cookie: the next LOGIN asks for the password.
    const info = (await (await browser.get('/openid-connect/authorization-info/generic')).json()) as {
      baseUrl: string;
      parameters: Record<string, string>;
    };
    const { url, res } = await browser.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
    expect(new URL(url).pathname).toMatch(/^\/idp\/interaction\//);
    expect(await res.text()).toContain(M.passwordLabel);
  });
});

describe('accounts: growing delays instead of a lockout', () => {
  let t: TestApp;
  const owner = { email: 'owner.slow@example.com' };
  const client = (ip: string) => new TestClient(t.baseUrl, { 'x-forwarded-for': ip });

  beforeAll(async () => {
    // 3 failures per address (15 per IP) go through; then 30 s, 60 s, ... Clients are told apart
    // by X-Forwarded-For behind the (trusted) proxy.
    t = await startTestApp({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: 'true', IMPORT_CONTENT: 'false' });
    await createUser(t, owner.email);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('slows an attacker down, while the owner keeps signing in from where they signed in before', async () => {
    // The owner has signed in before, from home (198.51.100.7), on this browser.
    const ownerBrowser = client('198.51.100.7');
    expect((await signIn(ownerBrowser, owner.email, PASSWORD)).status).toBe(200);
    expect([...ownerBrowser.cookies.keys()]).toContain('portico_device');

    // Someone elsewhere guesses: three failures, then a wait that is told, not a lock.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await signIn(client('203.0.113.9'), owner.email, `guess-${i}-wrong`)).pageStatus);
    expect(statuses).toEqual([401, 401, 401]);
    const slowed = await signIn(client('203.0.113.9'), owner.email, 'guess-3-wrong');
    expect(slowed.pageStatus).toBe(429);
    const wait = M.signInThrottled.replace('{{wait}}', '(\\d+) seconds');
    const seconds = Number(new RegExp(wait).exec(slowed.pageHtml)?.[1]);
    expect(seconds).toBeGreaterThan(25);
    expect(seconds).toBeLessThanOrEqual(30);
    // The right password from an unknown client waits as well (else the delay would tell it apart).
    expect((await signIn(client('192.0.2.44'), owner.email, PASSWORD)).pageStatus).toBe(429);

    // The owner is not locked out: from the same IP address...
    expect((await signIn(client('198.51.100.7'), owner.email, PASSWORD)).status).toBe(200);
    // ...and on the same browser from anywhere (its device cookie).
    const travelling = client('192.0.2.200');
    for (const [k, v] of ownerBrowser.cookies) if (k === 'portico_device') travelling.cookies.set(k, v);
    expect((await signIn(travelling, owner.email, PASSWORD)).status).toBe(200);
  });

  it('doubles the wait after each attempt that comes after the previous wait', async () => {
    const key = 'login:email:nobody.here@example.com';
    for (let i = 0; i < 3; i++)
      expect(
        (await signIn(client(`203.0.113.${20 + i}`), 'nobody.here@example.com', 'x-wrong-1')).pageStatus,
      ).toBe(401);
    const retryAfter = async () => {
      const c = client('203.0.113.40');
      const info = (await (await c.get('/openid-connect/authorization-info/generic')).json()) as {
        baseUrl: string;
        parameters: Record<string, string>;
      };
      const { url } = await c.follow(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
      const res = await c.postForm(`${new URL(url).pathname}/login`, {
        email: 'nobody.here@example.com',
        password: 'x-wrong-2',
      });
      return { status: res.status, retryAfter: Number(res.headers.get('retry-after')) };
    };
    const first = await retryAfter();
    expect(first.status).toBe(429);
    expect(first.retryAfter).toBeGreaterThan(25);
    expect(first.retryAfter).toBeLessThanOrEqual(30);
    // The wait passes (moved back in time rather than waited for): one more attempt goes through,
    // and the next wait is twice as long.
    await t.app.db
      .updateTable('rate_limits')
      .set({ next_allowed_at: new Date(Date.now() - 1000) })
      .where('key', '=', key)
      .execute();
    expect((await retryAfter()).status).toBe(401);
    const second = await retryAfter();
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBeGreaterThan(55);
    expect(second.retryAfter).toBeLessThanOrEqual(60);
  });
});
