import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { en } from '@portico/contracts/messages';
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * A scripted sandbox customer in the browser (issue 28): sca.fails signs in with the right
 * password, strong customer authentication fails with a bank-like page, and its button brings
 * the browser back to the application with error=access_denied.
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
