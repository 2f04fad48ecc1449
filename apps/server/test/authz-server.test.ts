import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { startTestApp, type TestApp } from './test-app.ts';
import { TestClient } from './http-client.ts';

const ALICE = { username: 'alice.customer', password: 'Sandbox#2026' };

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function tokenRequest(
  baseUrl: string,
  fields: Record<string, string>,
  auth?: { id: string; secret: string },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(auth ? { authorization: basic(auth.id, auth.secret) } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

/** Runs the authorization_code flow as a browser: sign-in page, consent page, redirect with a code. */
async function authorize(
  t: TestApp,
  params: Record<string, string>,
  customer = ALICE,
): Promise<{ location: URL; pages: string[] }> {
  const browser = new TestClient(t.baseUrl);
  const pages: string[] = [];
  let { res, url } = await browser.follow(`/authorize?${new URLSearchParams(params)}`);
  for (let step = 0; step < 4; step++) {
    if (new URL(url).origin !== t.baseUrl) return { location: new URL(url), pages };
    const html = await res.text();
    pages.push(html);
    const path = new URL(url).pathname;
    const posted = html.includes('name="password"')
      ? await browser.postForm(`${path}/login`, customer)
      : await browser.postForm(`${path}/confirm`, {});
    expect(posted.status).toBe(303);
    ({ res, url } = await browser.follow(posted.headers.get('location')!));
  }
  throw new Error('the authorization flow did not end');
}

describe('API authorization server (/oauth)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('publishes its own issuer metadata and keys, separate from the identity provider', async () => {
    const meta = (await (await fetch(`${t.baseUrl}/oauth/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      token_endpoint: string;
      authorization_endpoint: string;
      grant_types_supported: string[];
      response_types_supported: string[];
      jwks_uri: string;
    };
    expect(meta.issuer).toBe(`${t.config.publicUrl}/oauth`);
    // Endpoints follow the host the request came to; the issuer is fixed.
    expect(new URL(meta.token_endpoint).pathname).toBe('/oauth/token');
    expect(new URL(meta.authorization_endpoint).pathname).toBe('/oauth/auth');
    expect(meta.grant_types_supported).toEqual(
      expect.arrayContaining(['client_credentials', 'authorization_code', 'refresh_token']),
    );
    // Only what it serves: the code flow, no implicit or id_token response types.
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.grant_types_supported).not.toContain('implicit');
    const oauthKeys = (await (await fetch(`${t.baseUrl}/oauth/jwks`)).json()) as { keys: { kid: string }[] };
    const idpKeys = (await (await fetch(`${t.baseUrl}/idp/jwks`)).json()) as { keys: { kid: string }[] };
    expect(oauthKeys.keys[0]?.kid).toMatch(/^oauth-/);
    expect(idpKeys.keys.map((k) => k.kid)).not.toContain(oauthKeys.keys[0]?.kid);
  });

  it('issues a JWT access token for client_credentials, verifiable with the issuer keys', async () => {
    const { clientId, clientSecret } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
      scopes: ['accounts:read', 'payments:write'],
    });
    // client_secret_post, as the try-out console sends it.
    const { status, body } = await tokenRequest(t.baseUrl, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret!,
      scope: 'accounts:read',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'accounts:read' });
    const token = String(body.access_token);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    const jwks = createLocalJWKSet({ keys: t.app.oauthServer.publicKeys });
    const { payload } = await jwtVerify(token, jwks, {
      issuer: `${t.config.publicUrl}/oauth`,
      audience: `${t.config.publicUrl}/sandbox`,
    });
    expect(payload).toMatchObject({ client_id: clientId, scope: 'accounts:read', sub: clientId });
    expect(payload.exp! - payload.iat!).toBe(3600);

    // Omitted scope: every allowed scope. Basic authentication works too.
    const all = await tokenRequest(
      t.baseUrl,
      { grant_type: 'client_credentials' },
      { id: clientId, secret: clientSecret! },
    );
    expect(all.status).toBe(200);
    expect(String(all.body.scope).split(' ').sort()).toEqual(['accounts:read', 'payments:write']);

    // A scope the client was not granted is refused.
    const refused = await tokenRequest(
      t.baseUrl,
      { grant_type: 'client_credentials', scope: 'accounts:read cards:read' },
      { id: clientId, secret: clientSecret! },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_scope' });

    // A resource other than the sandbox is refused.
    const target = await tokenRequest(
      t.baseUrl,
      { grant_type: 'client_credentials', resource: 'https://elsewhere.example/api' },
      { id: clientId, secret: clientSecret! },
    );
    expect(target.body).toMatchObject({ error: 'invalid_target' });
  });

  it('keeps the spec alias GET /authorize of the authorization endpoint', async () => {
    const authorize = await fetch(`${t.baseUrl}/authorize?client_id=abc&response_type=code`, {
      redirect: 'manual',
    });
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get('location')).toBe('/oauth/auth?client_id=abc&response_type=code');
  });

  it('stops accepting the old secret as soon as it is reset', async () => {
    const clients = t.app.oauthClients;
    const { clientId, clientSecret } = await clients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
      scopes: ['accounts:read'],
    });
    const fields = { grant_type: 'client_credentials' };
    expect((await tokenRequest(t.baseUrl, fields, { id: clientId, secret: clientSecret! })).status).toBe(200);
    const fresh = await clients.resetSecret(clientId);
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(clientSecret);
    expect(await clients.getClientSecret(clientId)).toBe(fresh);
    const old = await tokenRequest(t.baseUrl, fields, { id: clientId, secret: clientSecret! });
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ error: 'invalid_client' });
    expect((await tokenRequest(t.baseUrl, fields, { id: clientId, secret: fresh! })).status).toBe(200);
    // The secret is stored sealed, never in plain text.
    const row = await t.app.db
      .selectFrom('oauth_clients')
      .select('secret')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(fresh!);
    expect(row.secret).toMatch(/^v1\./);
  });

  it('refuses unknown and deleted clients, and clients without the grant type', async () => {
    const clients = t.app.oauthClients;
    const unknown = await tokenRequest(
      t.baseUrl,
      { grant_type: 'client_credentials' },
      { id: 'nobody', secret: 'x' },
    );
    expect(unknown.body).toMatchObject({ error: 'invalid_client' });
    const { clientId, clientSecret } = await clients.createClient({
      environment: 'PRODUCTION',
      grantTypes: ['authorization_code'],
      redirectUris: ['https://app.example/callback'],
    });
    const noGrant = await tokenRequest(
      t.baseUrl,
      { grant_type: 'client_credentials' },
      { id: clientId, secret: clientSecret! },
    );
    expect(noGrant.status).toBe(400);
    expect(noGrant.body).toMatchObject({ error: 'invalid_request' });
    expect(String(noGrant.body.error_description)).toMatch(/grant type is not allowed/);
    expect(await clients.deleteClient(clientId)).toBe(true);
    const deleted = await tokenRequest(
      t.baseUrl,
      { grant_type: 'client_credentials' },
      { id: clientId, secret: clientSecret! },
    );
    expect(deleted.body).toMatchObject({ error: 'invalid_client' });
    await expect(
      clients.createClient({ environment: 'DEVELOPMENT', grantTypes: ['authorization_code'] }),
    ).rejects.toThrow(/redirect URI/);
  });

  it('runs authorization_code with PKCE through the sandbox sign-in and consent, and rotates refresh tokens', async () => {
    const redirectUri = 'https://app.example/callback';
    const { clientId, clientSecret } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code', 'client_credentials'],
      redirectUris: [redirectUri],
      scopes: ['accounts:read', 'payments:write'],
    });
    const { verifier, challenge } = pkcePair();
    const { location, pages } = await authorize(t, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'accounts:read',
      state: 'st-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(pages[0]).toContain(en.sandboxAuth.signInTitle);
    expect(pages[1]).toContain(en.sandboxAuth.consentTitle);
    expect(pages[1]).toContain('accounts:read');
    expect(pages[1]).not.toContain('payments:write');
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('st-1');
    const code = location.searchParams.get('code');
    expect(code).toBeTruthy();

    const auth = { id: clientId, secret: clientSecret! };
    const wrongVerifier = await tokenRequest(
      t.baseUrl,
      {
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: redirectUri,
        code_verifier: 'x'.repeat(43),
      },
      auth,
    );
    expect(wrongVerifier.body).toMatchObject({ error: 'invalid_grant' });

    // The failed attempt above consumed nothing: PKCE is checked before the code is used.
    const exchanged = await tokenRequest(
      t.baseUrl,
      { grant_type: 'authorization_code', code: code!, redirect_uri: redirectUri, code_verifier: verifier },
      auth,
    );
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toMatchObject({ token_type: 'Bearer', scope: 'accounts:read' });
    const access = decodeJwt(String(exchanged.body.access_token));
    const alice = await t.app.db
      .selectFrom('sandbox_users')
      .select('uuid')
      .where('username', '=', ALICE.username)
      .executeTakeFirstOrThrow();
    expect(access).toMatchObject({ sub: alice.uuid, client_id: clientId, scope: 'accounts:read' });
    expect(access.aud).toBe(`${t.config.publicUrl}/sandbox`);
    const refresh1 = String(exchanged.body.refresh_token);
    expect(refresh1.length).toBeGreaterThan(20);

    const rotated = await tokenRequest(
      t.baseUrl,
      { grant_type: 'refresh_token', refresh_token: refresh1 },
      auth,
    );
    expect(rotated.status).toBe(200);
    const refresh2 = String(rotated.body.refresh_token);
    expect(refresh2).not.toBe(refresh1);
    expect(decodeJwt(String(rotated.body.access_token))).toMatchObject({ scope: 'accounts:read' });

    const reused = await tokenRequest(
      t.baseUrl,
      { grant_type: 'refresh_token', refresh_token: refresh1 },
      auth,
    );
    expect(reused.status).toBe(400);
    expect(reused.body).toMatchObject({ error: 'invalid_grant' });
  });

  it('gives every allowed scope when none is requested, and refuses scopes outside them', async () => {
    const redirectUri = 'https://app.example/cb';
    const { clientId } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [redirectUri],
      public: true,
      scopes: ['accounts:read', 'cards:read'],
    });
    const { verifier, challenge } = pkcePair();
    const base = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const { location, pages } = await authorize(t, base, {
      username: 'bob.customer',
      password: 'Sandbox#2026',
    });
    expect(pages[1]).toContain('cards:read');
    const exchanged = await tokenRequest(t.baseUrl, {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: location.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    expect(String(exchanged.body.scope).split(' ').sort()).toEqual(['accounts:read', 'cards:read']);

    // Public clients must use PKCE.
    const browser = new TestClient(t.baseUrl);
    const noPkce = await browser.follow(
      `/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri })}`,
    );
    expect(new URL(noPkce.url).searchParams.get('error')).toBe('invalid_request');

    // A scope outside the allowed ones goes back to the client as invalid_scope.
    const outside = await browser.follow(
      `/oauth/auth?${new URLSearchParams({ ...base, scope: 'payments:write' })}`,
    );
    expect(new URL(outside.url).searchParams.get('error')).toBe('invalid_scope');

    // Apps on devices may redirect to a custom scheme.
    const device = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: ['com.example.bank:/callback'],
      public: true,
      scopes: ['accounts:read'],
    });
    const native = await browser.follow(
      `/oauth/auth?${new URLSearchParams({ ...base, client_id: device.clientId, redirect_uri: 'com.example.bank:/callback' })}`,
    );
    expect(new URL(native.url).pathname).toMatch(/^\/oauth\/interaction\//);

    // Redirect URIs match exactly.
    const mismatch = await browser.follow(
      `/oauth/auth?${new URLSearchParams({ ...base, redirect_uri: `${redirectUri}/other` })}`,
    );
    expect(mismatch.res.status).toBe(400);
    expect(await mismatch.res.text()).toContain('redirect_uri');
  });

  it('passes OpenID scopes through: an id_token for the customer, API scopes in the access token', async () => {
    const redirectUri = 'https://app.example/oidc';
    const { clientId, clientSecret } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [redirectUri],
      scopes: ['accounts:read'],
    });
    const { verifier, challenge } = pkcePair();
    const { location } = await authorize(t, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'openid profile accounts:read',
      nonce: 'n-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const exchanged = await tokenRequest(
      t.baseUrl,
      {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
      { id: clientId, secret: clientSecret! },
    );
    expect(exchanged.status).toBe(200);
    expect(decodeJwt(String(exchanged.body.id_token))).toMatchObject({
      name: 'Alice Customer',
      nonce: 'n-1',
    });
    const access = decodeJwt(String(exchanged.body.access_token));
    expect(access.scope).toBe('accounts:read');
    expect(access.aud).toBe(`${t.config.publicUrl}/sandbox`);
  });

  it("lets the pages' forms end at the client's own redirect URI, and at no other client's", async () => {
    // CSP form-action governs the redirects after a form's POST too: Allow, Deny and a sign-in
    // end at the client's redirect URI, the logout confirmation at its post-logout URI.
    const formAction = (res: Response) =>
      (res.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .find(([name]) => name === 'form-action')
        ?.slice(1);
    const ownUri = 'http://127.0.0.1:4299/callback';
    const own = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [ownUri],
      postLogoutRedirectUris: ['https://own.example/bye'],
      scopes: ['accounts:read'],
    });
    const other = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: ['https://other.example/cb'],
      scopes: ['accounts:read'],
    });
    const device = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: ['com.example.wallet:/callback'],
      public: true,
      scopes: ['accounts:read'],
    });
    const start = (browser: TestClient, clientId: string, redirectUri: string) =>
      browser.follow(
        `/authorize?${new URLSearchParams({
          response_type: 'code',
          client_id: clientId,
          redirect_uri: redirectUri,
          scope: 'accounts:read',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        })}`,
      );

    const browser = new TestClient(t.baseUrl);
    const signIn = await start(browser, own.clientId, ownUri);
    const path = new URL(signIn.url).pathname;
    expect(path).toMatch(/^\/oauth\/interaction\//);
    expect(formAction(signIn.res)).toEqual(["'self'", 'http://127.0.0.1:4299']);
    const wrong = await browser.postForm(`${path}/login`, { ...ALICE, password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(formAction(wrong)).toEqual(["'self'", 'http://127.0.0.1:4299']);
    const signedIn = await browser.postForm(`${path}/login`, ALICE);
    const consent = await browser.follow(signedIn.headers.get('location')!);
    expect(await consent.res.text()).toContain(en.sandboxAuth.consentTitle);
    expect(formAction(consent.res)).toEqual(["'self'", 'http://127.0.0.1:4299']);
    const allowed = await browser.postForm(`${new URL(consent.url).pathname}/confirm`, {});
    expect(new URL((await browser.follow(allowed.headers.get('location')!)).url).origin).toBe(
      'http://127.0.0.1:4299',
    );
    // The provider's own form_post answer posts the code to the client (its script allowed too).
    const posted = await browser.follow(
      `/oauth/auth?${new URLSearchParams({
        response_type: 'code',
        response_mode: 'form_post',
        client_id: own.clientId,
        redirect_uri: ownUri,
        scope: 'accounts:read',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      })}`,
    );
    expect(await posted.res.text()).toContain(`action="${ownUri}"`);
    expect(formAction(posted.res)).toEqual(["'self'", 'http://127.0.0.1:4299']);
    expect(posted.res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);

    // Another client's interaction names its own origin only; a private-use scheme by its scheme.
    const otherSignIn = await start(new TestClient(t.baseUrl), other.clientId, 'https://other.example/cb');
    expect(formAction(otherSignIn.res)).toEqual(["'self'", 'https://other.example']);
    const deviceSignIn = await start(
      new TestClient(t.baseUrl),
      device.clientId,
      'com.example.wallet:/callback',
    );
    expect(formAction(deviceSignIn.res)).toEqual(["'self'", 'com.example.wallet:']);
    // Without the interaction's cookie the page is an error, and names nobody.
    const stranger = await new TestClient(t.baseUrl).get(path);
    expect(stranger.status).toBe(400);
    expect(formAction(stranger)).toEqual(["'self'"]);
    // The provider's logout confirmation ends at the client's registered post-logout URI.
    const logout = await browser.get(
      `/oauth/session/end?${new URLSearchParams({
        client_id: own.clientId,
        post_logout_redirect_uri: 'https://own.example/bye',
      })}`,
    );
    expect(logout.status).toBe(200);
    expect(formAction(logout)).toEqual(["'self'", 'https://own.example']);
  });

  it('shows an error on the sign-in page for a wrong password and lets the customer deny', async () => {
    const redirectUri = 'https://app.example/deny';
    const { clientId } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [redirectUri],
      scopes: ['accounts:read'],
    });
    const { challenge } = pkcePair();
    const browser = new TestClient(t.baseUrl);
    const { url } = await browser.follow(
      `/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })}`,
    );
    const path = new URL(url).pathname;
    expect(path).toMatch(/^\/oauth\/interaction\//);
    const wrong = await browser.postForm(`${path}/login`, {
      username: 'alice.customer',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(en.sandboxAuth.invalidCredentials);
    const ok = await browser.postForm(`${path}/login`, ALICE);
    const consent = await browser.follow(ok.headers.get('location')!);
    const denied = await browser.postForm(`${new URL(consent.url).pathname}/abort`, {});
    const back = await browser.follow(denied.headers.get('location')!);
    expect(new URL(back.url).searchParams.get('error')).toBe('access_denied');
  });

  it('slows guessing at a sandbox name down with growing delays, never a lock', async () => {
    const redirectUri = 'https://app.example/throttle';
    const { clientId } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [redirectUri],
      scopes: ['accounts:read'],
    });
    const { challenge } = pkcePair();
    const browser = new TestClient(t.baseUrl);
    const { url } = await browser.follow(
      `/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      })}`,
    );
    const login = `${new URL(url).pathname}/login`;
    const guess = () => browser.postForm(login, { username: 'guessed.customer', password: 'wrong-guess' });
    // LOGIN_RATE_LIMIT (10) failures go through; the next one is told to wait 30 seconds.
    for (let i = 0; i < 10; i++) expect((await guess()).status).toBe(401);
    const slowed = await guess();
    expect(slowed.status).toBe(429);
    const seconds = Number(slowed.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(25);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(await slowed.text()).toContain(
      en.sandboxAuth.tooManyAttempts.replace('{{seconds}}', String(seconds)),
    );
    // Once the wait has passed (moved back in time here) the name is usable again: no lock.
    await t.app.db
      .updateTable('rate_limits')
      .set({ next_allowed_at: new Date(Date.now() - 1000) })
      .where('key', '=', 'sandbox-login:127.0.0.1:guessed.customer')
      .execute();
    expect((await guess()).status).toBe(401);
    expect(Number((await guess()).headers.get('retry-after'))).toBeGreaterThan(55);
  });
});

describe('the shared sandbox customers: limits per caller, never per customer', () => {
  const BOB = { username: 'bob.customer', password: 'Sandbox#2026' };
  const WRONG = { username: 'bob.customer', password: 'not-his-password' };
  let t: TestApp;
  let clientId: string;
  const redirectUri = 'https://app.example/shared';
  beforeAll(async () => {
    // Callers are told apart by their address, as a proxy reports it.
    t = await startTestApp({ TRUST_PROXY: 'true', LOGIN_RATE_LIMIT: '3' });
    ({ clientId } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: [redirectUri],
      scopes: ['accounts:read'],
    }));
  });
  afterAll(async () => {
    await t.close();
  });

  /** A browser at `ip` opens the sandbox's sign-in page; returns where its form posts. */
  async function signInForm(browser: TestClient): Promise<string> {
    const { res, url } = await browser.follow(
      `/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        // Always the sign-in page, also for a browser the customer is signed in at.
        prompt: 'login',
      })}`,
    );
    expect(await res.text()).toContain('name="password"');
    return `${new URL(url).pathname}/login`;
  }
  const browserAt = (ip: string) => new TestClient(t.baseUrl, { 'x-forwarded-for': ip });

  it('slows the caller who guesses, while another caller signs the customer in at once', async () => {
    const a = browserAt('203.0.113.7');
    const formOfA = await signInForm(a);
    // LOGIN_RATE_LIMIT (3) failures go through; then caller A waits.
    for (let i = 0; i < 3; i++) expect((await a.postForm(formOfA, WRONG)).status).toBe(401);
    const slowed = await a.postForm(formOfA, WRONG);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(25);

    // Caller B (another address, another browser) is not slowed by A's guesses.
    const b = browserAt('198.51.100.20');
    const signedIn = await b.postForm(await signInForm(b), BOB);
    expect(signedIn.status).toBe(303);
    expect(new URL(signedIn.headers.get('location')!).pathname).toMatch(/^\/oauth\/auth\//);

    // Caller A still waits, even with the right password.
    expect((await a.postForm(formOfA, BOB)).status).toBe(429);
  });

  it('never keeps out a browser that signed the customer in before, whoever guesses from its address', async () => {
    const ip = '192.0.2.44';
    const known = browserAt(ip);
    expect((await known.postForm(await signInForm(known), BOB)).status).toBe(303);
    expect(known.cookies.get('portico_sandbox_device')).toBeTruthy();

    // A stranger behind the same address guesses until it is slowed.
    const stranger = browserAt(ip);
    const formOfStranger = await signInForm(stranger);
    for (let i = 0; i < 3; i++) expect((await stranger.postForm(formOfStranger, WRONG)).status).toBe(401);
    expect((await stranger.postForm(formOfStranger, WRONG)).status).toBe(429);
    // A device cookie the portal did not sign does not make it a known browser.
    stranger.cookies.set('portico_sandbox_device', `${known.cookies.get('portico_sandbox_device')}x`);
    expect((await stranger.postForm(formOfStranger, BOB)).status).toBe(429);

    // The browser that signed bob in before, from the same address, signs him in at once.
    expect((await known.postForm(await signInForm(known), BOB)).status).toBe(303);
    // A fresh browser at another address too.
    const other = browserAt('192.0.2.45');
    expect((await other.postForm(await signInForm(other), BOB)).status).toBe(303);
  });
});
