import { expect, test, type BrowserContext } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { baseURL } from '../playwright.config.ts';

async function plantAnalyticsCookies(context: BrowserContext) {
  const url = new URL(baseURL);
  await context.addCookies(
    ['_ga', '_gid', '_gat', 'AMP_TOKEN'].map((name) => ({
      name,
      value: 'GA1.1.123',
      domain: url.hostname,
      path: '/',
    })),
  );
}

async function cookieNames(context: BrowserContext): Promise<string[]> {
  return (await context.cookies()).map((c) => c.name);
}

test('accepting the popup with analytics keeps the choice and the analytics cookies', async ({
  page,
  context,
}) => {
  await plantAnalyticsCookies(context);
  await page.goto('/');
  const popup = page.getByRole('dialog', { name: en.cookies.settingsTitle });
  await expect(popup).toBeVisible();
  await popup.getByLabel(en.cookies.analyticsLabel).check();
  await popup.getByRole('button', { name: en.cookies.ok }).click();
  await expect(popup).toHaveCount(0);
  expect(await cookieNames(context)).toEqual(expect.arrayContaining(['_ga', 'cookieconsent_status']));

  await page.reload();
  await expect(page.getByRole('dialog', { name: en.cookies.settingsTitle })).toHaveCount(0);
  await page.goto('/cookie-settings');
  await expect(page.getByLabel(en.cookies.analyticsLabel)).toBeChecked();
});

test('declining deletes the analytics cookies', async ({ page, context }) => {
  await plantAnalyticsCookies(context);
  await page.goto('/');
  const popup = page.getByRole('dialog', { name: en.cookies.settingsTitle });
  await popup.getByRole('button', { name: en.cookies.decline }).click();
  await expect(popup).toHaveCount(0);
  const names = await cookieNames(context);
  for (const name of ['_ga', '_gid', '_gat', 'AMP_TOKEN']) expect(names).not.toContain(name);
  const consent = (await context.cookies()).find((c) => c.name === 'cookieconsent_status');
  expect(consent?.value).toBe('dismiss');
  // Kept for 365 days.
  const days = (consent!.expires - Date.now() / 1000) / 86400;
  expect(days).toBeGreaterThan(364);
  expect(days).toBeLessThanOrEqual(365);
});

test('the cookie settings page saves the analytics choice and says so for 2 seconds', async ({
  page,
  context,
}) => {
  await page.goto('/cookie-settings');
  await expect(page.getByRole('heading', { name: en.cookies.technicalTitle })).toBeVisible();
  await expect(page.getByText('SESS', { exact: false }).first()).toBeVisible();
  await page.getByLabel(en.cookies.analyticsLabel).check();
  await page.getByRole('button', { name: en.cookies.save }).click();
  await expect(page.getByText(en.cookies.saved)).toBeVisible();
  await expect(page.getByText(en.cookies.saved)).toHaveCount(0, { timeout: 4000 });

  await plantAnalyticsCookies(context);
  await page.getByLabel(en.cookies.analyticsLabel).uncheck();
  await page.getByRole('button', { name: en.cookies.save }).click();
  await expect(page.getByText(en.cookies.saved)).toBeVisible();
  expect(await cookieNames(context)).not.toContain('_ga');
});
