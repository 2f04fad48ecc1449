import { createHash, randomBytes } from 'node:crypto';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct, sandbox } from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The scripted sandbox customers (issue 28, authz-server/scripted-customers.ts), over real HTTP. */
const A = en.sandboxAuth;
const PASSWORD = 'Sandbox#2026';
const REDIRECT_URI = 'https://tpp.example/callback';

let t: TestApp;
let client: { clientId: string; clientSecret: string };
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
  await insertProduct(t.app.db, {
    alias: 'scripted-bank',
    scope: 'accounts:read',
    documentation: 'scripted-bank',
  });
  const created = await t.app.oauthClients.createClient({
    environment: 'DEVELOPMENT',
    grantTypes: ['authorization_code'],
    redirectUris: [REDIRECT_URI],
    scopes: ['accounts:read'],
  });
  client = { clientId: created.clientId, clientSecret: created.clientSecret! };
});
afterAll(async () => {
  await t?.close();
});

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Opens the authorization request in a fresh browser: the sign-in page's interaction path. */
async function start(state: string) {
  const browser = new TestClient(t.baseUrl);
  const { verifier, challenge } = pkce();
  const { res, url } = await browser.follow(
    `/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'accounts:read',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`,
  );
  expect(await res.text()).toContain(A.signInTitle);
  return { browser, path: new URL(url).pathname, verifier };
}

/** Follows the redirects after a posted form to the application's redirect URI. */
async function toApplication(browser: TestClient, posted: Response): Promise<URL> {
  expect(posted.status).toBe(303);
  const { url } = await browser.follow(posted.headers.get('location')!);
  const back = new URL(url);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  return back;
}

async function token(fields: Record<string, string>) {
  const res = await fetch(`${t.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** Signs `username` in, consents, and exchanges the code: the tokens. */
async function tokensOf(username: string) {
  const { browser, path, verifier } = await start(`st-${username}`);
  const signedIn = await browser.postForm(`${path}/login`, { username, password: PASSWORD });
  expect(signedIn.status).toBe(303);
  const consent = await browser.follow(signedIn.headers.get('location')!);
  expect(await consent.res.text()).toContain(A.consentTitle);
  const back = await toApplication(
    browser,
    await browser.postForm(`${new URL(consent.url).pathname}/confirm`, {}),
  );
  const exchanged = await token({
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  expect(exchanged.status).toBe(200);
  return { access: exchanged.body.access_token!, refresh: exchanged.body.refresh_token! };
}

describe('scripted sandbox customers', () => {
  it('sca.fails: the password is right, strong customer authentication fails, access_denied', async () => {
    const { browser, path } = await start('st-sca');
    const failed = await browser.postForm(`${path}/login`, { username: 'sca.fails', password: PASSWORD });
    expect(failed.status).toBe(401);
    const page = await failed.text();
    expect(page).toContain(A.scaFailedTitle);
    expect(page).toContain(A.scaFailed);
    expect(page).toContain('role="alert"');
    expect(page).toContain(`action="${path}/abort"`);
    // A wrong password is still a wrong password.
    const wrong = await browser.postForm(`${path}/login`, { username: 'sca.fails', password: 'nope-nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(A.invalidCredentials);

    const back = await toApplication(browser, await browser.postForm(`${path}/abort`, { reason: 'sca' }));
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe(A.scaFailedDescription);
    expect(back.searchParams.get('state')).toBe('st-sca');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('consent.rejects: signed in, the consent is rejected at once: access_denied', async () => {
    const { browser, path } = await start('st-reject');
    const signedIn = await browser.postForm(`${path}/login`, {
      username: 'consent.rejects',
      password: PASSWORD,
    });
    const back = await toApplication(browser, signedIn);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe(A.consentRejected);
    expect(back.searchParams.get('state')).toBe('st-reject');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('consent.revoked: tokens work until the first refresh, which is refused invalid_grant; the sandbox then answers 401', async () => {
    const first = await tokensOf('consent.revoked');
    expect((await sandbox(t, 'scripted-bank/accounts', first.access)).status).toBe(200);

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh });
    expect(refreshed).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: A.consentRevoked },
    });
    const refused = await sandbox(t, 'scripted-bank/accounts', first.access);
    expect(refused).toEqual({
      status: 401,
      body: { error: 'invalid_token', error_description: A.consentRevokedToken },
    });
    // The refresh token went with the grant.
    const again = await token({ grant_type: 'refresh_token', refresh_token: first.refresh });
    expect(again.body.error).toBe('invalid_grant');

    // A new authorization gives working tokens again; the revoked one stays refused.
    const second = await tokensOf('consent.revoked');
    expect((await sandbox(t, 'scripted-bank/accounts', second.access)).status).toBe(200);
    expect((await sandbox(t, 'scripted-bank/accounts', first.access)).status).toBe(401);
  });

  it('leaves the other customers alone: alice.customer refreshes as usual', async () => {
    const alice = await tokensOf('alice.customer');
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: alice.refresh });
    expect(refreshed.status).toBe(200);
    expect((await sandbox(t, 'scripted-bank/accounts', refreshed.body.access_token!)).status).toBe(200);
    expect((await sandbox(t, 'scripted-bank/accounts', alice.access)).status).toBe(200);
  });
});
