import type { Locator, Page } from '@playwright/test';
import type { Application } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import {
  createApplication,
  createOrganization,
  productUuid,
  signUp,
  subscribe,
  write,
} from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The try-out console's tokens (issue 28): kept for the documentation across a reload (the tab's
 * session storage), cleared on sign-out, renewed with the refresh token after expiry without a new
 * sign-in, and DPoP-bound when the application asks for it (a proof of a key kept in IndexedDB).
 * Each test signs a fresh developer up with an application of their own: the demo content stays.
 */

const T = en.tryout;
const A = en.sandboxAuth;
const S = en.tokenSecurity;
const TOKEN_KEY = 'portico:tryout-token';
test.describe.configure({ timeout: 90_000 });

async function developerWithApp(
  page: Page,
  grantTypes: string[],
): Promise<{ app: Application; org: string }> {
  await signUp(page, 'Tess', 'Tokens');
  const org = await createOrganization(page, `Tokens ${Date.now()}`);
  const app = await createApplication(page, org, `Tokens app ${Date.now()}`, {
    grantTypes,
    redirectUris: grantTypes.includes('authorization_code') ? ['https://tokens.example/callback'] : [],
  });
  await subscribe(page, app.uuid, await productUuid(page, 'Accounts API'));
  return { app, org };
}

async function openConsole(page: Page, operation = 'listAccounts'): Promise<Locator> {
  await page.goto(`/documentation/accounts-v1#operation/${operation}`);
  await page.getByTestId(`operation-details-${operation}`).getByRole('button', { name: T.tryItOut }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(T.consoleTitle.split(' ')[0]!) });
  await expect(dialog.getByTestId('tryout-panel')).toBeVisible();
  return dialog;
}

/** The authorization_code token of the popup, with alice.customer's consent. */
async function codeToken(page: Page, c: Locator, app: Application): Promise<void> {
  await c.getByLabel(T.clientId).selectOption(app.clientId.development!);
  await c.getByLabel(T.flow).selectOption('authorization_code');
  await c.getByLabel(T.clientSecret).fill(app.clientSecret!);
  const popupPromise = page.waitForEvent('popup');
  await c.getByRole('button', { name: T.getToken }).click();
  const popup = await popupPromise;
  await popup.getByLabel(A.usernameLabel).fill('alice.customer');
  await popup.getByLabel(A.passwordLabel).fill('Sandbox#2026');
  await popup.getByRole('button', { name: A.signInButton }).click();
  await popup.getByRole('button', { name: A.allowButton }).click();
  await expect(c.getByTestId('tryout-token')).toContainText('Expires in 60 min');
}

test('the token survives a reload of the documentation and is gone after sign-out', async ({ page }) => {
  const { app } = await developerWithApp(page, ['authorization_code']);
  let c = await openConsole(page);
  await codeToken(page, c, app);
  await c.getByTestId('tryout-token').getByRole('button', { name: T.apply }).click();
  const accessToken = await c.getByTestId('tryout-token').locator('pre, code').first().innerText();

  await page.reload();
  c = await openConsole(page);
  await expect(c.getByTestId('tryout-token-notice')).toHaveText(T.tokenRestored);
  await expect(c.getByTestId('tryout-token')).toContainText(accessToken);
  await expect(c.getByTestId('tryout-request')).toContainText(
    `Authorization: Bearer ${accessToken.slice(0, 20)}`,
  );
  await c.getByRole('button', { name: T.send, exact: true }).click();
  await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');
  await expectNoViolations(page, 'try-out console with a kept token');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: en.user.signOut }).click();
  await expect(page.getByRole('link', { name: en.user.login, exact: true })).toBeVisible();
  expect(await page.evaluate((key) => sessionStorage.getItem(key), TOKEN_KEY)).toBeNull();
});

test('an expired token is renewed with the refresh token, without a new sign-in', async ({ page }) => {
  await page.clock.install();
  const { app } = await developerWithApp(page, ['authorization_code']);
  const c = await openConsole(page);
  await codeToken(page, c, app);
  const token = c.getByTestId('tryout-token');
  const first = await token.locator('pre, code').first().innerText();
  await token.getByRole('button', { name: T.apply }).click();

  // An hour and a minute later: expired, renewed at once, no popup.
  let popups = 0;
  page.on('popup', () => popups++);
  await page.clock.fastForward('01:01:00');
  await expect(c.getByTestId('tryout-token-notice')).toHaveText(T.tokenRenewed);
  await expect(token).toContainText('Expires in 60 min');
  await expect(token.locator('pre, code').first()).not.toHaveText(first);
  expect(popups).toBe(0);
  // The renewed token is the applied one.
  const renewed = await token.locator('pre, code').first().innerText();
  await expect(c.getByTestId('tryout-request')).toContainText(
    `Authorization: Bearer ${renewed.slice(0, 20)}`,
  );
});

test('a DPoP-bound application: chosen on the application, its console token carries a proof', async ({
  page,
}) => {
  const { app, org } = await developerWithApp(page, ['client_credentials']);
  await page.goto(`/application/${app.uuid}?organization=${org}`);
  const section = page.getByRole('region', { name: S.title });
  await expect(section.getByRole('checkbox', { name: S.fapiLabel })).toBeDisabled();
  await expect(section).toContainText(`${S.fapiNeedsKeyAuth}.`);
  await section.getByRole('checkbox', { name: S.dpopLabel }).check();
  await section.getByRole('button', { name: S.save }).click();
  await expect(section.getByRole('status')).toHaveText(S.saved);
  await expectNoViolations(page, 'application token security');

  const c = await openConsole(page);
  await c.getByLabel(T.clientId).selectOption(app.clientId.development!);
  await c.getByLabel(T.clientSecret).fill(app.clientSecret!);
  await c.getByRole('button', { name: T.getToken }).click();
  await expect(c.getByTestId('tryout-token-dpop')).toHaveText(T.dpopBound);
  await c.getByTestId('tryout-token').getByRole('button', { name: T.apply }).click();
  await expect(c.getByTestId('tryout-request')).toContainText('Authorization: DPoP ');
  // The code samples carry a real proof of the console's key for this request, and say so.
  await expect(c.getByTestId('tryout-request')).toContainText(/DPoP: ey[\w-]+\.[\w-]+\.[\w-]+/);
  await expect(c.getByTestId('tryout-snippet')).toContainText(/DPoP: ey[\w-]+\.[\w-]+\.[\w-]+/);
  await expect(c.getByTestId('tryout-dpop-note')).toHaveText(T.dpopSnippetNote);
  const sandbox = page.waitForRequest((r) => r.url().includes('/sandbox/accounts-v1/'));
  await c.getByRole('button', { name: T.send, exact: true }).click();
  expect((await sandbox).headers()['dpop']).toMatch(/^ey/);
  await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');
});

test('a FAPI 2.0 application: the console says why it cannot get a token and shows the PAR, PKCE and DPoP flow', async ({
  page,
}) => {
  const { app } = await developerWithApp(page, ['authorization_code']);
  // A signed JWT (the TPP's public key) and FAPI 2.0, set through the portal's own calls.
  const { publicKey } = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  const jwk = {
    ...(await crypto.subtle.exportKey('jwk', publicKey)),
    kid: 'tpp-1',
    use: 'sig',
    alg: 'ES256',
  };
  delete jwk.key_ops;
  delete jwk.ext;
  await write(page.request, 'patch', `/jsonapi/node/application/${app.uuid}/edit_app_custom`, {
    data: {
      type: 'node--application',
      id: app.uuid,
      attributes: {
        field_client_auth_method: 'private_key_jwt',
        field_client_jwks: JSON.stringify({ keys: [jwk] }),
      },
    },
  });
  await write(
    page.request,
    'put',
    `/api/applications/${app.uuid}/token-security`,
    { dpopBoundAccessTokens: true, fapi: true },
    'application/json',
  );

  const c = await openConsole(page);
  await c.getByLabel(T.clientId).selectOption(app.clientId.development!);
  const notice = c.getByTestId('tryout-key-auth');
  await expect(notice).toContainText(T.fapiNoToken);
  await expect(notice).toContainText(T.fapiExampleTitle);
  const example = c.getByTestId('tryout-fapi-example');
  await expect(example).toContainText('/oauth/request');
  await expect(example).toContainText('code_challenge_method=S256');
  await expect(example).toContainText(
    'client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  );
  await expect(example).toContainText('-H "DPoP: $DPOP_PROOF"');
  await expect(example).toContainText(`client_id=${app.clientId.development}`);
  await expect(c.getByRole('button', { name: T.getToken })).toBeDisabled();
  await expectNoViolations(page, 'the console of a FAPI 2.0 application');
});
