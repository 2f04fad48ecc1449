import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import { createOrg, createUser, PASSWORD, signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** A browser behind a TLS-terminating proxy: every request arrives with X-Forwarded-Proto: https. */
class ProxiedClient extends TestClient {
  readonly setCookies: string[] = [];
  override async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-proto', 'https');
    const res = await super.request(url, { ...init, headers });
    this.setCookies.push(...res.headers.getSetCookie());
    return res;
  }
}

/**
 * A browser that reaches the portal over TLS: every address it is sent to (PUBLIC_URL, or the
 * https address the provider builds from the request) is this portal, reached on its local port as
 * a TLS-terminating proxy would (with `headers`, e.g. X-Forwarded-Proto). Every answer is kept.
 */
class TlsBrowser extends TestClient {
  readonly answers: { url: string; status: number; hsts: string | null; cookies: string[] }[] = [];
  override async request(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url, this.baseUrl);
    const res = await super.request(`${this.baseUrl}${target.pathname}${target.search}`, init);
    this.answers.push({
      url: `${init.method ?? 'GET'} ${target.pathname}`,
      status: res.status,
      hsts: res.headers.get('strict-transport-security'),
      cookies: res.headers.getSetCookie(),
    });
    return res;
  }

  /** Follows redirects from `url` until an answer that is none, or one that leaves for `outside`. */
  async walk(url: string, outside?: string): Promise<URL> {
    let current = new URL(url, this.baseUrl);
    for (let i = 0; i < 10; i++) {
      const res = await this.get(current.toString());
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return current;
      current = new URL(location, current);
      if (current.pathname === '/oauth2/callback' || current.origin === outside) return current;
    }
    throw new Error('too many redirects');
  }
}

const ALICE = { username: 'alice.customer', password: 'Sandbox#2026' };

/**
 * Signs `email` in at the portal through the identity provider (/idp), then a sandbox customer
 * in at the API authorization server (/oauth) with consent, as a browser would.
 */
async function signInEverywhere(t: TestApp, browser: TlsBrowser, email: string): Promise<void> {
  const info = (await (await browser.get('/openid-connect/authorization-info/generic')).json()) as {
    baseUrl: string;
    parameters: Record<string, string>;
  };
  const page = await browser.walk(`${info.baseUrl}?${new URLSearchParams(info.parameters)}`);
  expect(page.pathname).toMatch(/^\/idp\/interaction\//);
  const posted = await browser.postForm(`${page.pathname}/login`, { email, password: PASSWORD });
  expect(posted.status).toBe(303);
  const callback = await browser.walk(posted.headers.get('location')!);
  expect(callback.pathname).toBe('/oauth2/callback');
  expect((await browser.get(`/openid-connect/generic?${callback.searchParams}`)).status).toBe(200);

  const redirectUri = 'https://app.example/tls';
  const { clientId } = await t.app.oauthClients.createClient({
    environment: 'DEVELOPMENT',
    grantTypes: ['authorization_code'],
    redirectUris: [redirectUri],
    scopes: ['accounts:read'],
  });
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'accounts:read',
    code_challenge: 'x'.repeat(43),
    code_challenge_method: 'S256',
  });
  const signIn = await browser.walk(`/authorize?${query}`, 'https://app.example');
  expect(signIn.pathname).toMatch(/^\/oauth\/interaction\//);
  const signedIn = await browser.postForm(`${signIn.pathname}/login`, ALICE);
  expect(signedIn.status).toBe(303);
  const consent = await browser.walk(signedIn.headers.get('location')!, 'https://app.example');
  const allowed = await browser.postForm(`${consent.pathname}/confirm`, {});
  expect(allowed.status).toBe(303);
  const back = await browser.walk(allowed.headers.get('location')!, 'https://app.example');
  expect(back.origin).toBe('https://app.example');
  expect(back.searchParams.get('code')).toBeTruthy();
}

/** Every cookie set on the way is Secure, and every answer carries HSTS. */
function expectAllOverTls(t: TestApp, browser: TlsBrowser): void {
  const cookies = browser.answers.flatMap((a) => a.cookies);
  const names = new Set(cookies.map((c) => c.slice(0, c.indexOf('='))));
  for (const name of [
    'portico_login',
    'portico_device',
    t.app.sessionCookieName,
    '_interaction',
    '_interaction.sig',
    '_interaction_resume',
    '_session',
    '_session.sig',
    '_oauth_interaction',
    '_oauth_interaction_resume',
    '_oauth_session',
  ]) {
    expect(names, name).toContain(name);
  }
  for (const cookie of cookies) expect(cookie).toMatch(/;\s*secure(;|$)/i);
  for (const answer of browser.answers) {
    expect(answer.hsts, `${answer.url} ${answer.status}`).toMatch(/max-age=\d+/);
  }
}

describe('with an https PUBLIC_URL (TLS ends at a proxy that says nothing)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://portal.example' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sets every cookie of the sign-in through /idp and /oauth Secure, with HSTS on every answer', async () => {
    await createUser(t, 'https.user@example.com');
    const browser = new TlsBrowser(t.baseUrl);
    await signInEverywhere(t, browser, 'https.user@example.com');
    expectAllOverTls(t, browser);
  });
});

describe('behind a TLS proxy with TRUST_PROXY=true and a plain PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true' }, (app) => {
      app.get<{ Params: { id: string } }>('/test/start-session/:id', async (request, reply) => {
        await app.startSession(request, reply, Number(request.params.id), null);
        return reply.status(204).send();
      });
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends HSTS and Secure session cookies over TLS, neither over plain http', async () => {
    expect(t.config.publicUrl.startsWith('http:')).toBe(true);
    const proxied = new ProxiedClient(t.baseUrl);
    expect((await proxied.get('/healthz')).headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const plain = new TestClient(t.baseUrl);
    expect((await plain.get('/healthz')).headers.get('strict-transport-security')).toBeNull();

    // A session started over TLS gets a Secure cookie; one started over plain http cannot.
    const user = await createUser(t, 'tls.user@example.com');
    const started = await proxied.get(`/test/start-session/${user.id}`);
    expect(started.status).toBe(204);
    expect(proxied.setCookies.find((c) => c.startsWith(t.app.sessionCookieName))).toMatch(/;\s*Secure/i);
    const direct = await plain.get(`/test/start-session/${user.id}`);
    expect(direct.headers.getSetCookie().find((c) => c.startsWith(t.app.sessionCookieName))).not.toMatch(
      /;\s*Secure/i,
    );
  });

  it('sets every cookie of the sign-in through /idp and /oauth Secure when the proxy says https', async () => {
    await createUser(t, 'proxied.user@example.com');
    const browser = new TlsBrowser(t.baseUrl, { 'x-forwarded-proto': 'https' });
    await signInEverywhere(t, browser, 'proxied.user@example.com');
    expectAllOverTls(t, browser);

    // Over plain http the same cookies cannot be Secure (the browser would drop them).
    const plain = new TlsBrowser(t.baseUrl);
    await createUser(t, 'plain.user@example.com');
    await signInEverywhere(t, plain, 'plain.user@example.com');
    const cookies = plain.answers.flatMap((a) => a.cookies);
    expect(cookies.length).toBeGreaterThan(5);
    for (const cookie of cookies) expect(cookie).not.toMatch(/;\s*secure(;|$)/i);
    for (const answer of plain.answers) expect(answer.hsts).toBeNull();
  });
});

describe('Cache-Control of answers that depend on the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks signed-in API answers private, no-store, and leaves routes that chose their own', async () => {
    const user = await signedInUser(t, 'cache.user@example.com');
    const org = await createOrg(user, 'Cached Ltd');
    for (const url of [
      '/jsonapi/group/organization',
      `/jsonapi/group/organization/${org.id}`,
      '/jsonapi/group_content/organization-group_membership?filter[gid]=' + org.id,
      '/jsonapi/user/user',
    ]) {
      const res = await user.get(url);
      expect(res.headers.get('cache-control'), `${url} ${res.status}`).toBe('private, no-store');
    }
    // A route's own choice stands.
    expect((await user.get('/block-layout')).headers.get('cache-control')).toBe('public, max-age=60');
    // Anonymous public answers may be stored by anyone and are revalidated with their ETag
    // (decision 018).
    const anon = new TestClient(t.baseUrl);
    expect((await anon.get('/jsonapi/node/api_product')).headers.get('cache-control')).toBe(
      'public, no-cache',
    );
  });
});
