import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { en } from '@portico/contracts/messages';
import {
  createApplication,
  createOrganization,
  productUuid,
  signUp,
  subscribe,
} from '../support/applications.ts';
import { baseURL } from '../playwright.config.ts';

/**
 * A third-party application, as its developer would write it: a real OpenID client library
 * (openid-client) builds the authorization request with PKCE, the bank customer signs in and
 * allows it in the browser, the browser lands on the application's own callback on another origin,
 * and the library exchanges the code. The sign-in and consent pages' CSP form-action must let
 * their forms' redirects reach that callback (issue 26).
 */

const A = en.sandboxAuth;

/** The application's callback: a tiny server on a free loopback port, on another origin. */
async function startCallback(): Promise<{
  redirectUri: string;
  received: Promise<URL>;
  close(): Promise<void>;
}> {
  let receive!: (url: URL) => void;
  const received = new Promise<URL>((resolve) => (receive = resolve));
  const server = http.createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    receive(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Budget app</title><h1>Back at the application</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('a third-party application gets a token by authorization code with PKCE at its own callback', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const callback = await startCallback();
  try {
    // The developer registers the application with its own redirect URI.
    await signUp(page, 'Theo', 'Thirdparty');
    const organization = await createOrganization(page, `Third Party ${Date.now()}`);
    const app = await createApplication(page, organization, `Own callback ${Date.now()}`, {
      grantTypes: ['authorization_code'],
      redirectUris: [callback.redirectUri],
    });
    await subscribe(page, app.uuid, await productUuid(page, 'Accounts API'));
    const clientId = app.clientId.development!;
    const secret = app.clientSecrets.development ?? app.clientSecret;
    expect(clientId).toBeTruthy();
    expect(secret).toBeTruthy();

    // The application's own code, with its OpenID library (plain http on this test portal).
    const config = await oidc.discovery(
      new URL(`${baseURL}/oauth`),
      clientId,
      undefined,
      oidc.ClientSecretBasic(secret!),
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback.redirectUri,
      scope: 'accounts:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });

    // The bank customer, in the browser.
    await page.goto(authorizationUrl.href);
    await page.getByLabel(A.usernameLabel).fill('alice.customer');
    await page.getByLabel(A.passwordLabel).fill('Sandbox#2026');
    await page.getByRole('button', { name: A.signInButton }).click();
    await expect(page.getByRole('heading', { name: A.consentTitle })).toBeVisible();
    await expect(page.getByText('accounts:read')).toBeVisible();
    await page.getByRole('button', { name: A.allowButton }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.redirectUri), { timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'Back at the application' })).toBeVisible();

    // The application exchanges the code with its verifier.
    const tokens = await oidc.authorizationCodeGrant(config, await callback.received, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('accounts:read');
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as {
      aud: string;
      client_id: string;
    };
    expect(claims).toMatchObject({ aud: `${baseURL}/sandbox`, client_id: clientId });
  } finally {
    await callback.close();
  }
});
