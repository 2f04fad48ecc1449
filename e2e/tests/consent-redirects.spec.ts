import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/traffic.ts';
import { en } from '@portico/contracts/messages';
import {
  createApplication,
  createOrganization,
  productUuid,
  signUp,
  subscribe,
} from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { baseURL } from '../playwright.config.ts';

/**
 * The sandbox's consent screen sends the bank customer back to any redirect URI the application
 * registered, on another origin and port, with a path and a query of its own (issue 28): the
 * sign-in and consent pages' form-action names the request's redirect URI, so the browser follows
 * the redirects that end there after Allow and after Deny.
 */

const A = en.sandboxAuth;

/** An application's callback: a tiny server on a free loopback port (another origin than the portal). */
async function startCallback(host: string): Promise<{
  base: string;
  received: URL[];
  close(): Promise<void>;
}> {
  const received: URL[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    received.push(url);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><title>Budget app</title><h1>Back at the application</h1></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { base, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function authorizationUrl(clientId: string, redirectUri: string, state: string): string {
  const verifier = randomBytes(32).toString('base64url');
  return `/oauth/auth?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'accounts:read',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  })}`;
}

async function signInCustomer(page: Page): Promise<void> {
  await page.getByLabel(A.usernameLabel).fill('alice.customer');
  await page.getByLabel(A.passwordLabel).fill('Sandbox#2026');
  await page.getByRole('button', { name: A.signInButton }).click();
  await expect(page.getByRole('heading', { name: A.consentTitle })).toBeVisible();
}

test('the consent screen returns to any registered redirect URI on another origin, after Allow and after Deny', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const first = await startCallback('127.0.0.1');
  const second = await startCallback('localhost');
  try {
    await signUp(page, 'Rita', 'Redirects');
    const organization = await createOrganization(page, `Redirects ${Date.now()}`);
    const withQuery = `${first.base}/oauth/callback?tenant=blue`;
    const other = `${second.base}/return`;
    const app = await createApplication(page, organization, `Redirects ${Date.now()}`, {
      grantTypes: ['authorization_code'],
      redirectUris: [withQuery, other],
    });
    await subscribe(page, app.uuid, await productUuid(page, 'Accounts API'));
    const clientId = app.clientId.development!;

    // Allow, to the first URI (its own query kept).
    await page.goto(authorizationUrl(clientId, withQuery, 'allow-1'));
    await signInCustomer(page);
    await expectNoViolations(page, 'sandbox consent');
    await page.getByRole('button', { name: A.allowButton }).click();
    await page.waitForURL((url) => url.href.startsWith(`${first.base}/oauth/callback`));
    await expect(page.getByRole('heading', { name: 'Back at the application' })).toBeVisible();
    const allowed = first.received.find((u) => u.pathname === '/oauth/callback')!;
    expect(allowed.searchParams.get('tenant')).toBe('blue');
    expect(allowed.searchParams.get('state')).toBe('allow-1');
    expect(allowed.searchParams.get('code')).toBeTruthy();
    expect(allowed.searchParams.get('iss')).toMatch(/\/oauth$/);

    // Deny, to the second URI on another host and port, in a new browser context (no sandbox session).
    const denying = await page.context().browser()!.newContext();
    try {
      const page2 = await denying.newPage();
      await page2.goto(`${baseURL}${authorizationUrl(clientId, other, 'deny-1')}`);
      await signInCustomer(page2);
      await page2.getByRole('button', { name: A.denyButton }).click();
      await page2.waitForURL((url) => url.href.startsWith(other));
      await expect(page2.getByRole('heading', { name: 'Back at the application' })).toBeVisible();
      const denied = second.received.find((u) => u.pathname === '/return')!;
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe('deny-1');
    } finally {
      await denying.close();
    }
  } finally {
    await first.close();
    await second.close();
  }
});
