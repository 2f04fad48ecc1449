import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import {
  createApplication,
  createOrganization,
  productUuid,
  signUp,
  subscribe,
} from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * Scripted sandbox customers in the browser (issue 28): sca.fails signs in with the right
 * password, strong customer authentication fails with a bank-like page, and its button brings
 * the browser back to the application with error=access_denied; consent.rejects is sent back with
 * access_denied at once; consent.revoked consents, its tokens work, and its first refresh is
 * refused (the consent was revoked at the bank).
 */
const A = en.sandboxAuth;

async function startCallback(): Promise<{ redirectUri: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>TPP</title><main><h1>Back at the application</h1></main></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test('sca.fails: the second factor fails, and the application gets access_denied', async ({ page }) => {
  test.setTimeout(60_000);
  const callback = await startCallback();
  try {
    await signUp(page, 'Scott', 'Scripted');
    const organization = await createOrganization(page, `Scripted ${Date.now()}`);
    const app = await createApplication(page, organization, `SCA test ${Date.now()}`, {
      grantTypes: ['authorization_code'],
      redirectUris: [callback.redirectUri],
    });
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId.development!,
      redirect_uri: callback.redirectUri,
      state: 'sca-state',
    });
    await page.goto(`/oauth/auth?${query}`);
    await page.getByLabel(A.usernameLabel).fill('sca.fails');
    await page.getByLabel(A.passwordLabel).fill('Sandbox#2026');
    await page.getByRole('button', { name: A.signInButton }).click();

    await expect(page.getByRole('heading', { name: A.scaFailedTitle })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(A.scaFailed);
    await expectNoViolations(page, 'the failed strong customer authentication');
    await page.getByRole('button', { name: A.scaBackButton }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
    const back = new URL(page.url());
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe(A.scaFailedDescription);
    expect(back.searchParams.get('state')).toBe('sca-state');
  } finally {
    await callback.close();
  }
});

/** A new developer's application of the code flow, redirecting to the local callback. */
async function codeApplication(page: Page, redirectUri: string, label: string) {
  await signUp(page, 'Scott', 'Scripted');
  const organization = await createOrganization(page, `${label} ${Date.now()}`);
  const app = await createApplication(page, organization, `${label} app ${Date.now()}`, {
    grantTypes: ['authorization_code'],
    redirectUris: [redirectUri],
  });
  // Subscribed: the authorization asks the customer to consent to the Accounts API's scopes.
  await subscribe(page, app.uuid, await productUuid(page, 'Accounts API'));
  return app;
}

async function signInAs(page: Page, username: string) {
  await page.getByLabel(A.usernameLabel).fill(username);
  await page.getByLabel(A.passwordLabel).fill('Sandbox#2026');
  await page.getByRole('button', { name: A.signInButton }).click();
}

test('consent.rejects: signed in, the customer rejects the consent and the application gets access_denied', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const callback = await startCallback();
  try {
    const app = await codeApplication(page, callback.redirectUri, 'Rejects');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId.development!,
      redirect_uri: callback.redirectUri,
      state: 'rejects-state',
    });
    await page.goto(`/oauth/auth?${query}`);
    await expectNoViolations(page, 'the sandbox sign-in page');
    await signInAs(page, 'consent.rejects');
    // No consent page: straight back to the application, as a bank answers a rejected consent.
    await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
    await expect(page.getByRole('heading', { name: 'Back at the application' })).toBeVisible();
    const back = new URL(page.url());
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe(A.consentRejected);
    expect(back.searchParams.get('state')).toBe('rejects-state');
    expect(back.searchParams.get('code')).toBeNull();
  } finally {
    await callback.close();
  }
});

test('consent.revoked: the consent is given and its token issued; the first refresh is refused as revoked', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const callback = await startCallback();
  try {
    const app = await codeApplication(page, callback.redirectUri, 'Revoked');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId.development!,
      redirect_uri: callback.redirectUri,
      state: 'revoked-state',
    });
    await page.goto(`/oauth/auth?${query}`);
    await signInAs(page, 'consent.revoked');
    await expect(page.getByRole('heading', { name: A.consentTitle })).toBeVisible();
    await expectNoViolations(page, "consent.revoked's consent page");
    await page.getByRole('button', { name: A.allowButton }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
    const back = new URL(page.url());
    expect(back.searchParams.get('state')).toBe('revoked-state');
    const code = back.searchParams.get('code');
    expect(code).toBeTruthy();

    // The application's back end exchanges the code: a token and a refresh token.
    const basic = `Basic ${Buffer.from(`${app.clientId.development}:${app.clientSecret}`).toString('base64')}`;
    const issued = await page.request.post('/oauth/token', {
      headers: { authorization: basic },
      form: { grant_type: 'authorization_code', code: code!, redirect_uri: callback.redirectUri },
    });
    expect(issued.status()).toBe(200);
    const tokens = (await issued.json()) as { access_token: string; refresh_token?: string };
    expect(tokens.refresh_token).toBeTruthy();
    const call = () =>
      page.request.get('/sandbox/accounts-v1/accounts', {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    expect((await call()).status()).toBe(200);

    // Later the customer revokes the consent at the bank: the refresh says so.
    const refreshed = await page.request.post('/oauth/token', {
      headers: { authorization: basic },
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
    });
    expect(refreshed.status()).toBe(400);
    expect(await refreshed.json()).toEqual({ error: 'invalid_grant', error_description: A.consentRevoked });
    // Its access token stops working at the sandbox too.
    const after = await call();
    expect(after.status()).toBe(401);
    expect(await after.json()).toMatchObject({
      error: 'invalid_token',
      error_description: A.consentRevokedToken,
    });
  } finally {
    await callback.close();
  }
});
