import { expect, test } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { signIn } from '../support/session.ts';

const P = en.products;

test('anonymous visitors get UNAUTHORIZED on the API products list', async ({ page }) => {
  await page.goto('/apiProducts');
  await expect(page.getByRole('heading', { name: en.errors.unauthorized })).toBeVisible();
  await expect(page.getByText(en.errors.onlyMembers)).toBeVisible();
  await expect(page.getByRole('link', { name: en.errors.loginToView })).toHaveAttribute(
    'href',
    /\/login\?returnTo=%2FapiProducts/,
  );
});

test('a signed-in developer filters the API products by category', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: en.menu.apiProducts }).first().click();
  await expect(page).toHaveURL(/\/apiProducts$/);
  await expect(page.getByRole('heading', { level: 1, name: P.listTitle })).toBeVisible();
  await expect(page.getByRole('heading', { name: P.filterTitle })).toBeVisible();
  const cards = page.getByTestId('product-card');
  // The four supported demo products; the deprecated Accounts API 0.9 is not listed.
  await expect(cards).toHaveCount(4);
  await expect(cards.first()).toContainText('Accounts API');
  await expect(cards.first()).toContainText('Version 1.0');
  await expect(cards.first()).toContainText('PSD2');

  await page.getByRole('button', { name: 'Payments', exact: true }).click();
  await expect(page).toHaveURL(/filterName=Payments&filterValue=[0-9a-f-]{36}/);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Payments API');

  // The filter survives a reload: it lives in the query string.
  await page.reload();
  await expect(cards).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Payments', exact: true })).toHaveAttribute(
    'aria-current',
    'true',
  );

  await page.getByRole('button', { name: P.allCategories }).click();
  await expect(page).not.toHaveURL(/filterValue/);
  await expect(cards).toHaveCount(4);

  await cards.filter({ hasText: 'FX Rates API' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/apiProduct\/fx-rates-api-v2$/);
  await expect(page.getByRole('heading', { level: 1, name: 'FX Rates API' })).toBeVisible();
});

test('a product opened by its alias shows features, advantages, comparison, related APIs and changelog', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/apiProduct/accounts-api-v1');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts API' })).toBeVisible();
  await expect(page.getByTestId('features')).toContainText('Every account type');
  await expect(page.getByTestId('features')).toContainText('Real-time balances');
  await expect(page.getByRole('heading', { name: 'Why build on the Accounts API' })).toBeVisible();
  await expect(page.getByTestId('advantages')).toContainText('PSD2 compliant');

  const table = page.getByTestId('comparison-table');
  // Category rows are column-group headers of the body; the products are the head's columns.
  await expect(table.locator('thead').getByRole('columnheader')).toHaveText([
    P.comparisonFeature,
    'Accounts API',
    P.deprecatedApi,
    'Corporate statements (SFTP)',
  ]);
  await expect(table.getByRole('row', { name: /Rate limit/ })).toContainText('100 per hour');
  const pending = table.getByRole('row', { name: /Pending transactions/ });
  await expect(pending.getByRole('img', { name: P.yes })).toHaveCount(1);
  await expect(pending.getByRole('img', { name: P.no })).toHaveCount(2);

  // Related APIs link by alias without the version suffix.
  await expect(page.getByTestId('related-apis').getByRole('link', { name: 'Payments API' })).toHaveAttribute(
    'href',
    '/apiProduct/payments-api',
  );
  const changelog = page.getByTestId('changelog');
  await expect(changelog).toContainText('15-01-2026');
  await expect(changelog).toContainText('General availability.');
  await expect(changelog).toContainText('1.0-beta');

  // A stripped alias resolves to the newest version.
  await page.getByTestId('related-apis').getByRole('link', { name: 'Payments API' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Payments API' })).toBeVisible();

  // The documentation view lists the product's API documentations.
  await page.goto('/apiProduct/accounts-api-v1/documentation');
  const docs = page.getByTestId('product-documentations');
  await expect(docs).toContainText('Accounts API');
  await expect(docs).toContainText('Get Token API');
  await docs.getByRole('link', { name: `${P.viewDocumentation}: Accounts API` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts API Documentation' })).toBeVisible();
});

test('a deprecated version shows the notice and GO TO NEW VERSION leads to the newest one', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/apiProduct/accounts-api-v0');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts API' })).toBeVisible();
  const popup = page.getByTestId('deprecated-popup');
  await expect(popup.getByText(P.deprecatedTitle)).toBeVisible();
  await expect(popup).toContainText('A newer version of this API is available: Accounts API 1.0');
  await popup.getByRole('link', { name: P.goToNewVersion }).click();
  await expect(page).toHaveURL(/\/apiProduct\/accounts-api-v1$/);
  await expect(page.getByText('Version 1.0', { exact: true })).toBeVisible();
  await expect(page.getByText(P.deprecatedTitle)).toHaveCount(0);
});

test('the deprecated notice goes away by itself after 20 seconds', async ({ page }) => {
  await page.clock.install();
  await page.goto('/apiProduct/accounts-api-v0');
  await expect(page.getByText(P.deprecatedTitle)).toBeVisible();
  await page.clock.fastForward(19_000);
  await expect(page.getByText(P.deprecatedTitle)).toBeVisible();
  await page.clock.fastForward(2_000);
  await expect(page.getByText(P.deprecatedTitle)).toBeHidden();
});

test('an unknown product shows the not-found page', async ({ page }) => {
  await page.goto('/apiProduct/no-such-product');
  await expect(page.getByText(en.errors.notFoundTitle)).toBeVisible();
});
