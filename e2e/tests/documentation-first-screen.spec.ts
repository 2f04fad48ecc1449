import { expect, test, type Locator, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { requestedPaths } from '../support/requests.ts';

const P = en.products;

// The documentation page's first screen (decision 043): the server writes the title and the first
// operations into the page's HTML, so that they are read and opened before the app has run.

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the documentation page lists its operations, and a click shows the operation', async ({ page }) => {
    await page.goto('/documentation/accounts-v1');
    await expect(page).toHaveTitle('Accounts API Documentation | Developers Portal');
    await expect(page.getByRole('heading', { level: 1, name: 'Accounts API Documentation' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: P.reference })).toBeVisible();
    await expect(page.getByText('4 operations')).toBeVisible();
    await expect(page.getByRole('heading', { level: 3 })).toHaveText([
      'Accounts',
      'Balances',
      'Transactions',
    ]);

    // The first operations came with their details: they open in place.
    const balances = page.locator('details', { hasText: '/accounts/{accountId}/balances' });
    await expect(balances.getByRole('heading', { name: P.responses })).toBeHidden();
    await balances.locator('summary').click();
    await expect(balances.getByRole('heading', { name: P.parameters })).toBeVisible();
    await expect(balances.getByRole('heading', { name: P.responses })).toBeVisible();
    await expect(balances.getByText('The balances.')).toBeVisible();
    await expect(balances.getByText('curl --request GET')).toBeVisible();
    await expect(page).toHaveURL(/\/documentation\/accounts-v1$/);
  });

  test("an operation past the first ones is a link to the server's rendering of it", async ({ page }) => {
    await page.goto('/documentation/payments-v1');
    await expect(page.getByRole('heading', { level: 3 })).toHaveText([
      'Payments',
      'Standing orders',
      P.webhooks,
    ]);
    await page.getByRole('link', { name: /POST paymentStatusChanged/ }).click();
    await expect(page).toHaveURL(
      /\/documentation\/payments-v1\?operation=paymentStatusChanged#operation\/paymentStatusChanged$/,
    );
    const details = page.getByRole('article', { name: 'POST paymentStatusChanged' });
    await expect(details.getByRole('heading', { name: P.webhookResponses })).toBeVisible();
  });
});

test('the app takes the first screen over: one copy of the page, the named operation opened', async ({
  page,
}) => {
  const requests = requestedPaths(page);
  // Named by the query alone (a shared address): the app opens it too.
  await page.goto('/documentation/accounts-v1?operation=getBalances');
  const details = page.getByTestId('operation-details-getBalances');
  await expect(details).toBeVisible();
  await expect(details).toBeInViewport();
  // Its details were preloaded by the HTML, and the app's request was served by the preload.
  await expect(
    page.locator('link[rel="preload"][href="/api/apidocs/accounts-v1/operations/getBalances"]'),
  ).toHaveCount(1);
  expect(requests.filter((p) => p === '/api/apidocs/accounts-v1/operations/getBalances')).toHaveLength(1);
  await expect(page.locator('#first-screen')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accounts API Documentation');

  // Opening another operation names it in the address the server renders.
  await page
    .getByTestId('operation')
    .filter({ hasText: '/accounts/{accountId}/transactions' })
    .getByRole('button')
    .click();
  await expect(page.getByTestId(/^operation-details-/).last()).toBeVisible();
  const key = await page
    .getByTestId('operation')
    .filter({ hasText: '/transactions' })
    .getAttribute('data-operation');
  expect(key).toBeTruthy();
  await expect(page).toHaveURL(new RegExp(`\\?operation=${key}#operation/${key}$`));
  const link = page.getByRole('link', { name: `${P.operationLink}: GET /accounts/{accountId}/transactions` });
  await expect(link).toHaveAttribute('href', `/documentation/accounts-v1?operation=${key}#operation/${key}`);
});

/**
 * Holds the documentation's operation index back until `release()`, so that the first screen stays
 * while the app waits for it; resolves once the app has run (it holds its root out of the document
 * meanwhile) and marks the document, so that a test can tell it was not loaded again.
 */
async function loadHoldingIndex(
  page: Page,
  alias: string,
): Promise<{ release: () => void; screen: Locator }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/api/apidocs/${alias}/index`, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`/documentation/${alias}`);
  const screen = page.locator('#first-screen');
  await expect(screen).toHaveAttribute('aria-busy', 'true');
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  return { release, screen };
}

/** The first response of the app's details of getBalances. */
const appResponseOfBalances = (page: Page) =>
  page
    .getByTestId('operation-details-getBalances')
    .getByTestId(/^response-/)
    .first();

const sameDocument = (page: Page) => page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument);

test('an operation opened on the first screen while the app loads stays open when the app takes over', async ({
  page,
}) => {
  const { release, screen } = await loadHoldingIndex(page, 'accounts-v1');
  // What the address says while the click is dispatched (after the screen's own listeners): the
  // operation is named in the click's task, before the app's next render can take over.
  await page.evaluate(() =>
    window.addEventListener('click', () => Object.assign(window, { addressAtClick: location.search }), {
      once: true,
    }),
  );
  const balances = screen.locator('details', { hasText: '/accounts/{accountId}/balances' });
  await balances.locator('summary').click();
  await expect(balances).toHaveAttribute('open', '');
  await expect(page).toHaveURL(/\?operation=getBalances#operation\/getBalances$/);
  expect(await page.evaluate(() => (window as { addressAtClick?: string }).addressAtClick)).toBe(
    '?operation=getBalances',
  );
  release();

  await expect(page.getByTestId('operation-details-getBalances')).toBeVisible();
  await expect(screen).toHaveCount(0);
  expect(await sameDocument(page)).toBe(true);
});

test('a link of the first screen clicked while the app loads opens its operation in place', async ({
  page,
}) => {
  const { release, screen } = await loadHoldingIndex(page, 'payments-v1');
  const link = screen.getByRole('link', { name: /POST paymentStatusChanged/ });
  await link.click();
  await expect(page).toHaveURL(/\?operation=paymentStatusChanged#operation\/paymentStatusChanged$/);
  await expect(link).toHaveAttribute('aria-current', 'true');
  release();

  await expect(page.getByTestId('operation-details-paymentStatusChanged')).toBeVisible();
  await expect(screen).toHaveCount(0);
  expect(await sameDocument(page)).toBe(true);
});

test('the app takes the first screen over only once the visitor has left it alone for a moment', async ({
  page,
}) => {
  const { release, screen } = await loadHoldingIndex(page, 'accounts-v1');
  // The page's own clock: the visitor's click, and the moment the first screen leaves the document.
  await page.evaluate(() => {
    const w = window as { clickAt?: number; takeoverAt?: number };
    window.addEventListener('click', (e) => (w.clickAt = e.timeStamp), { capture: true, once: true });
    new MutationObserver((_, observer) => {
      if (document.getElementById('first-screen')) return;
      w.takeoverAt = performance.now();
      observer.disconnect();
    }).observe(document.body, { childList: true, subtree: true });
  });
  const balances = screen.locator('details', { hasText: '/accounts/{accountId}/balances' });
  await balances.locator('summary').click();
  await expect(balances.locator('[data-response]').first()).toBeVisible();
  release();

  await expect(screen).toHaveCount(0);
  await expect(appResponseOfBalances(page)).toBeVisible();
  const { clickAt, takeoverAt } = await page.evaluate(() => {
    const w = window as { clickAt?: number; takeoverAt?: number };
    return { clickAt: w.clickAt, takeoverAt: w.takeoverAt };
  });
  // QUIET_BEFORE_TAKEOVER_MS (apps/web/src/lib/first-screen.ts, decision 062).
  expect(takeoverAt! - clickAt!).toBeGreaterThanOrEqual(500);
  expect(await sameDocument(page)).toBe(true);
});

test('the app takes over an operation opened on the first screen with its details, never closing it while they load', async ({
  page,
}) => {
  // The operation's details are held back too: the app waits for them before it takes over.
  let releaseDetails!: () => void;
  const detailsReleased = new Promise<void>((resolve) => (releaseDetails = resolve));
  let askedForDetails!: () => void;
  const detailsAsked = new Promise<void>((resolve) => (askedForDetails = resolve));
  await page.route('**/api/apidocs/accounts-v1/operations/getBalances', async (route) => {
    askedForDetails();
    await detailsReleased;
    await route.continue();
  });
  const { release, screen } = await loadHoldingIndex(page, 'accounts-v1');
  const balances = screen.locator('details', { hasText: '/accounts/{accountId}/balances' });
  await balances.locator('summary').click();
  await expect(balances).toHaveAttribute('open', '');
  release();

  // The index is in and the app asks for the opened operation's details: the first screen stays,
  // the operation open on it, until they answer.
  await detailsAsked;
  await expect(page.getByTestId('api-reference')).toHaveCount(0);
  await expect(screen).toHaveCount(1);
  await expect(balances.locator('[data-response]').first()).toBeVisible();
  releaseDetails();

  // Then the app shows it open, with its responses, at once.
  await expect(screen).toHaveCount(0);
  await expect(appResponseOfBalances(page)).toBeVisible();
  expect(await sameDocument(page)).toBe(true);
});

test("the first screen's operations are preloaded by the HTML and the app opens them from there", async ({
  page,
}) => {
  const requests = requestedPaths(page);
  await page.goto('/documentation/accounts-v1');
  await expect(page.locator('#first-screen')).toHaveCount(0);
  await expect(
    page.locator('link[rel="preload"][href="/api/apidocs/accounts-v1/operations/getBalances"]'),
  ).toHaveCount(1);
  const balances = page.getByTestId('operation').filter({ hasText: '/accounts/{accountId}/balances' });
  await balances.getByRole('button', { expanded: false }).click();
  await expect(appResponseOfBalances(page)).toBeVisible();
  // One request: the preload's, which the app's own request was served from.
  expect(requests.filter((p) => p === '/api/apidocs/accounts-v1/operations/getBalances')).toHaveLength(1);
});

test("the app's scripts are fetched and run only once the first screen has been left alone for a moment", async ({
  page,
}) => {
  // The page's own clock: every press and click, from the document's start (decision 068).
  await page.addInitScript(() => {
    const w = window as { touches?: number[] };
    w.touches = [];
    for (const type of ['pointerdown', 'click'])
      window.addEventListener(type, (e) => w.touches!.push(e.timeStamp), { capture: true });
  });
  await page.goto('/documentation/accounts-v1', { waitUntil: 'commit' });
  const screen = page.locator('#first-screen');
  const balances = screen.locator('details', { hasText: '/accounts/{accountId}/balances' });
  await balances.locator('summary').click();
  await expect(balances.locator('[data-response]').first()).toBeVisible();

  // The app takes over with the operation open.
  await expect(screen).toHaveCount(0);
  await expect(appResponseOfBalances(page)).toBeVisible();
  const { scripts, touches, interactive } = await page.evaluate(() => ({
    scripts: performance
      .getEntriesByType('resource')
      .filter((e) => /\/assets\/[\w.-]+\.js$/.test(e.name) && !e.name.includes('first-screen-start'))
      .map((e) => e.startTime),
    touches: (window as { touches?: number[] }).touches ?? [],
    interactive: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
      .domInteractive,
  }));
  expect(scripts.length).toBeGreaterThan(1);
  // No script of the app's was asked for before the screen had been left alone for 500 ms
  // (QUIET_BEFORE_TAKEOVER_MS): after the HTML's parsing, and after the last touch before them.
  const first = Math.min(...scripts);
  const lastQuietFrom = Math.max(interactive, ...touches.filter((t) => t < first));
  expect(first - lastQuietFrom).toBeGreaterThanOrEqual(500);
});
