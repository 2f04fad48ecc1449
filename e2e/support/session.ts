import { expect, type Browser, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';

/** Demo accounts created on first start from content/users.yaml (listed in the README). */
export const demoDeveloper = {
  email: 'dev@portico.local',
  password: 'DevPortal#2026',
  name: 'Dana Developer',
};
export const demoAdmin = { email: 'admin@portico.local', password: 'AdminPortal#2026' };
/** The demo API manager of content/users.yaml (issue 27). */
export const e2eApiManager = { email: 'api.manager@portico.local', password: 'ApiManager#2026' };

/** Fills the built-in identity provider's sign-in form (after the portal redirected there). */
export async function signInAtProvider(page: Page, email: string, password: string): Promise<void> {
  // The portal page has an Email field too (newsletter): wait until the provider's page is shown.
  await page.waitForURL(/\/idp\/interaction\//);
  await page.getByLabel(en.identity.emailLabel).fill(email);
  await page.getByLabel(en.identity.passwordLabel).fill(password);
  await page.getByRole('button', { name: en.identity.signInButton }).click();
}

/** Signs in through the portal's LOGIN link, as a user would, and waits for the welcome line. */
export async function signIn(page: Page, email = demoDeveloper.email, password = demoDeveloper.password) {
  await page.goto('/');
  await page.getByRole('link', { name: en.user.login, exact: true }).click();
  await signInAtProvider(page, email, password);
  await expect(page.getByText(/^Welcome /)).toBeVisible();
}

/** Signs in (signIn) and declines the cookie popup, which otherwise covers the page's foot. */
export async function signInDecliningCookies(page: Page, email: string, password: string): Promise<void> {
  await signIn(page, email, password);
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** A fresh address per test run, so tests never depend on each other's accounts. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * The newest e-mail to `email`, read from the outbox as the provider administrator (a fresh
 * browser context on English pages, signed in as the demo admin): without SMTP that is where the
 * e-mails are.
 */
export async function lastMail(browser: Browser, email: string): Promise<{ subject: string; text: string }> {
  const context = await browser.newContext({ locale: 'en-GB' });
  try {
    const admin = await context.newPage();
    await signIn(admin, demoAdmin.email, demoAdmin.password);
    const res = await admin.request.get(
      `/admin-api/outbox?filter[to]=${encodeURIComponent(email)}&page[limit]=1`,
    );
    expect(res.status()).toBe(200);
    const doc = (await res.json()) as { data: { attributes: { subject: string; text: string } }[] };
    expect(doc.data[0], `mail to ${email}`).toBeDefined();
    return doc.data[0]!.attributes;
  } finally {
    await context.close();
  }
}

/** The verification link the portal sent to `email` (lastMail). */
export async function verificationLink(browser: Browser, email: string): Promise<string> {
  const link = /https?:\/\/\S+\/idp\/verify\/\S+/.exec((await lastMail(browser, email)).text)?.[0];
  expect(link, `verification link for ${email}`).toBeDefined();
  return link!;
}

/** Proves the address of the account signed in on `page`: opens the link and confirms it. */
export async function verifyEmail(page: Page, browser: Browser, email: string): Promise<void> {
  const back = page.url();
  await page.goto(await verificationLink(browser, email));
  await page.getByRole('button', { name: en.identity.verifyButton }).click();
  await expect(page.getByRole('status')).toHaveText(en.identity.verifyDone);
  await page.goto(back);
}
