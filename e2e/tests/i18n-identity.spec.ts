import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import de from '../../apps/server/src/locales/de/pages.json' with { type: 'json' };
import deMails from '../../apps/server/src/locales/de/emails.json' with { type: 'json' };
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { lastMail, uniqueEmail } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * Issue 30: the identity provider in German for a browser that asks for German
 * (Accept-Language de-DE): the pages, their errors, the verification e-mail, with axe on each.
 * The texts are the server's message files (apps/server/src/locales/de/pages.json).
 */
const D = de.identity;
test.use({ locale: 'de-DE' });

/** The portal's own pages end the sign-in: the account is signed in there. */
async function expectSignedIn(page: Page) {
  await page.waitForURL((url) => !url.pathname.startsWith('/idp/') && url.pathname !== '/oauth2/callback');
  await expect.poll(async () => (await page.request.get('/user/login_status?_format=json')).text()).toBe('1');
}

test.describe('the identity provider in German', () => {
  test('a German visitor signs up, confirms the address and signs in again, all in German', async ({
    page,
    browser,
  }) => {
    const email = uniqueEmail('deutsch');
    await page.goto('/login');
    await page.waitForURL(/\/idp\/interaction\//);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: D.signInTitle })).toBeVisible();
    await expect(page).toHaveTitle(format(D.documentTitle, { title: D.signInTitle, site: de.site.title }));
    await expectNoViolations(page, 'German sign-in page');

    await page.getByRole('link', { name: D.createAccountLink }).click();
    await expect(page.getByRole('heading', { name: D.signUpTitle })).toBeVisible();
    await page.getByLabel(D.firstNameLabel).fill('Greta');
    await page.getByLabel(D.lastNameLabel).fill('Deutsch');
    await page.getByLabel(D.emailLabel).fill(email);
    await page.getByLabel(D.passwordLabel, { exact: true }).fill('kurz');
    await page.getByRole('button', { name: D.createAccountButton }).click();
    // The server's refusal, in the page's language.
    await expect(page.getByRole('alert')).toHaveText(D.passwordTooShort);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expectNoViolations(page, 'German sign-up page with an error');

    await page.getByLabel(D.passwordLabel, { exact: true }).fill('Geheim#Passw0rt');
    await page.getByRole('button', { name: D.createAccountButton }).click();
    await expectSignedIn(page);

    // The verification mail is German: the account was created in German.
    const mail = await lastMail(browser, email);
    expect(mail.subject).toBe(format(deMails.identity.verifyMailSubject, { site: de.site.title }));
    expect(mail.text).toContain('Guten Tag Greta Deutsch,');
    const link = /https?:\/\/\S+\/idp\/verify\/\S+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    await page.goto(link!);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: D.verifyTitle })).toBeVisible();
    await expectNoViolations(page, 'German confirmation page');
    await page.getByRole('button', { name: D.verifyButton }).click();
    await expect(page.getByRole('status')).toHaveText(D.verifyDone);

    // Another German browser signs the same account in.
    const context = await browser.newContext({ locale: 'de-DE' });
    try {
      const again = await context.newPage();
      await again.goto('/login');
      await again.waitForURL(/\/idp\/interaction\//);
      await again.getByLabel(D.emailLabel).fill(email);
      await again.getByLabel(D.passwordLabel).fill('Geheim#Passw0rt');
      await again.getByRole('button', { name: D.signInButton }).click();
      await expectSignedIn(again);
    } finally {
      await context.close();
    }
  });

  test('a wrong password is refused in German, and the reset page is German', async ({ page }) => {
    await page.goto('/login');
    await page.waitForURL(/\/idp\/interaction\//);
    await page.getByLabel(D.emailLabel).fill(uniqueEmail('niemand'));
    await page.getByLabel(D.passwordLabel).fill('falsches-Passwort');
    await page.getByRole('button', { name: D.signInButton }).click();
    await expect(page.getByRole('alert')).toHaveText(D.invalidCredentials);
    await expectNoViolations(page, 'German sign-in page with an error');

    await page.getByRole('link', { name: D.forgotPasswordLink }).click();
    await expect(page.getByRole('heading', { name: D.resetTitle })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expectNoViolations(page, 'German password reset page');
  });
});

test.describe('the sandbox bank in German', () => {
  test('a German browser signs a sandbox customer in and allows the access, in German', async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>TPP</title><main><h1>Back</h1></main></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
    // The developer's side in an English browser (the portal's own pages are not under test here).
    const context = await browser.newContext({ locale: 'en-GB' });
    try {
      const developer = await context.newPage();
      await signUp(developer, 'Berta', 'Bank');
      const organization = await createOrganization(developer, `Sprachen ${Date.now()}`);
      const app = await createApplication(developer, organization, `Sprachtest ${Date.now()}`, {
        grantTypes: ['authorization_code'],
        redirectUris: [redirectUri],
      });
      const S = de.sandboxAuth;
      await page.goto(
        `/oauth/auth?${new URLSearchParams({
          response_type: 'code',
          client_id: app.clientId.development!,
          redirect_uri: redirectUri,
          // The customer's identity: a scope the consent page asks about.
          scope: 'openid',
          state: 'de-state',
        })}`,
      );
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(page.getByRole('heading', { name: S.signInTitle })).toBeVisible();
      await expectNoViolations(page, 'German sandbox sign-in');
      await page.getByLabel(S.usernameLabel).fill('alice.customer');
      await page.getByLabel(S.passwordLabel).fill('Sandbox#2026');
      await page.getByRole('button', { name: S.signInButton }).click();

      await expect(page.getByRole('heading', { name: S.consentTitle })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expectNoViolations(page, 'German sandbox consent');
      await page.getByRole('button', { name: S.allowButton }).click();
      await page.waitForURL((url) => url.href.startsWith(redirectUri));
      const back = new URL(page.url());
      expect(back.searchParams.get('code')).toBeTruthy();
      expect(back.searchParams.get('state')).toBe('de-state');
    } finally {
      await context.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
