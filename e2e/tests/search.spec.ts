import type { Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

// The site search (spec B 2.6, 8): the header's search icon, 'Search in', result cards and links,
// the pager of 10, and the empty and no-results texts.

async function dismissCookies(page: Page) {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

test('the search icon opens the search page, which asks for a query first', async ({ page }) => {
  await page.goto('/');
  await dismissCookies(page);
  await page.getByRole('banner').getByRole('link', { name: en.menu.search }).first().click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole('heading', { level: 1, name: en.search.title })).toBeVisible();
  await expect(page.getByText(en.search.emptyQuery)).toBeVisible();
  // Nothing typed: nothing is asked of the server.
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/phpsdk/search')) asked.push(r.url());
  });
  await page.getByRole('button', { name: en.search.submit }).click();
  await expect(page.getByText(en.search.emptyQuery)).toBeVisible();
  expect(asked).toEqual([]);
});

test('finds an endpoint and opens its operation in the documentation', async ({ page }) => {
  await page.goto('/search');
  await dismissCookies(page);
  await page.getByLabel(en.search.queryLabel).fill('transactions');
  await page.getByLabel(en.search.searchIn).selectOption({ label: en.search.types.api_endpoint });
  await page.getByRole('button', { name: en.search.submit }).click();
  const card = page.getByRole('listitem').filter({ hasText: 'List the transactions of an account' }).first();
  await expect(card).toBeVisible();
  // The words searched for are highlighted, the created date reads DD-MM-YYYY.
  await expect(card.locator('mark').first()).toHaveText(/transactions/i);
  await expect(card.locator('time')).toHaveText(/^\d{2}-\d{2}-\d{4}$/);
  await card.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/documentation\/[0-9a-f-]{36}#operation\//);
  await expect(page.getByRole('heading', { level: 1, name: /Documentation$/ })).toBeVisible();
});

test('Search in narrows the results; a page result leads to its page; the pager moves by 10', async ({
  page,
}) => {
  // The demo content has more than one page of results for 'api'.
  const answer = (await (await page.request.get('/phpsdk/search?q=api')).json()) as {
    meta: { count: number };
  };
  expect(answer.meta.count).toBeGreaterThan(10);
  await page.goto('/search?q=api');
  await dismissCookies(page);
  const results = page.getByRole('main').getByRole('listitem');
  await expect(results).toHaveCount(10);
  const pager = page.getByRole('navigation', { name: en.search.pagination });
  await expect(pager).toBeVisible();
  const first = await results.first().textContent();
  await pager.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/page=1/);
  await expect(results.first()).not.toHaveText(first ?? '');

  // A new type starts again at the first page.
  await page.getByLabel(en.search.searchIn).selectOption({ label: en.search.types.page });
  await expect(page).not.toHaveURL(/page=/);
  await page.getByLabel(en.search.queryLabel).fill('privacy');
  await page.getByRole('button', { name: en.search.submit }).click();
  await page.getByRole('main').getByRole('link', { name: 'Privacy policy' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
});

test('past the most results a search serves, the count says "at least" and the pager ends there', async ({
  page,
}) => {
  // e2e/start-portal.ts lets a search serve 20 results (SEARCH_RESULTS_MAX); 'api' finds more.
  const answer = (await (await page.request.get('/phpsdk/search?q=api')).json()) as {
    meta: { count: number; countExact: boolean };
  };
  expect(answer.meta).toEqual(expect.objectContaining({ count: 20, countExact: false }));
  await page.goto('/search?q=api');
  await dismissCookies(page);
  await expect(
    page.getByText(format(en.search.resultCountAtLeast, { count: '20', query: 'api' })),
  ).toBeVisible();
  const pager = page.getByRole('navigation', { name: en.search.pagination });
  await expect(pager.getByRole('button', { name: '2', exact: true })).toBeVisible();
  await expect(pager.getByRole('button', { name: '3', exact: true })).toHaveCount(0);
  await pager.getByRole('button', { name: '2', exact: true }).click();
  await expect(page).toHaveURL(/page=1/);
  await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(10);
  await expect(pager.getByRole('button', { name: 'next page' })).toBeDisabled();
});

test('a search that finds nothing says so, and two-letter words are not highlighted', async ({ page }) => {
  await page.goto('/search?q=zzqxv');
  await dismissCookies(page);
  await expect(page.getByText(en.search.noResultsTitle)).toBeVisible();
  await expect(page.getByText(en.search.noResultsHint)).toBeVisible();

  await page.goto('/search?q=fx');
  await expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('main').locator('mark')).toHaveCount(0);
});

test('the search page has no accessibility violations', async ({ page }) => {
  await page.goto('/search?q=payments');
  await dismissCookies(page);
  await expect(page.getByRole('main').getByRole('listitem').first()).toBeVisible();
  await expectNoViolations(page, '/search?q=payments');
});
