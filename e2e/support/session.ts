import { expect, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';

/** Demo accounts created on first start from content/users.yaml (listed in the README). */
export const demoDeveloper = {
  email: 'dev@portico.local',
  password: 'DevPortal#2026',
  name: 'Dana Developer',
};
export const demoAdmin = { email: 'admin@portico.local', password: 'AdminPortal#2026' };

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

/** A fresh address per test run, so tests never depend on each other's accounts. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
