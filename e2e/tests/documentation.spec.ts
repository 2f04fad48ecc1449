import { expect, test } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { createApplicationByApi } from '../support/products.ts';
import { signIn } from '../support/session.ts';
import { requestedPaths } from '../support/requests.ts';

const P = en.products;

test('a documentation page shows its title, breadcrumb, downloads, plan and the operations by tag', async ({
  page,
}) => {
  await page.goto('/documentation/accounts-v1');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts API Documentation' })).toBeVisible();
  await expect(page).toHaveTitle(/Accounts API Documentation/);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs).toContainText(P.breadcrumbProducts);
  await expect(crumbs.getByRole('link', { name: P.breadcrumbDocumentation })).toHaveAttribute(
    'href',
    '/apiProduct/accounts-api-v1/documentation',
  );

  const downloads = page.getByRole('group', { name: P.openApiDocumentations });
  await expect(downloads.getByRole('link', { name: 'Original (YAML)' })).toHaveAttribute(
    'href',
    /\/api\/apidocs\/accounts-v1\/download\/original$/,
  );
  await expect(downloads.getByRole('link', { name: P.downloadJson })).toHaveAttribute(
    'href',
    /\/api\/apidocs\/accounts-v1\/download\/openapi\.json$/,
  );
  const download = await page.request.get(
    (await downloads.getByRole('link', { name: P.downloadJson }).getAttribute('href')) ?? '',
  );
  expect(download.ok()).toBe(true);
  expect(((await download.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);

  await expect(page.getByTestId('plan-table')).toContainText(en.catalog.defaultPlan);
  await expect(page.getByTestId('changelog')).toContainText('15-01-2026');

  await expect(page.getByTestId('operation-tag')).toHaveText(['Accounts', 'Balances', 'Transactions']);
  await expect(page.getByTestId('operation')).toHaveCount(4);
  // Each security scheme says which of the application's credentials it takes (decision 016).
  await expect(page.getByTestId('scheme-credential')).toHaveText([P.credential_accessToken]);
});

test('the page takes the documentation and the index its HTML preloaded; the first operations are fetched before a click', async ({
  page,
}) => {
  const requests = requestedPaths(page);
  await page.goto('/documentation/accounts-v1');
  // Decision 034: the HTML names both answers; the page's own requests are served by the preloads.
  // Decision 043: then the details of the first screen's operations (the first four).
  const preloads = await page
    .locator('link[rel="preload"][as="fetch"]')
    .evaluateAll((links) => links.map((l) => `${l.getAttribute('href')} ${l.getAttribute('crossorigin')}`));
  expect(preloads).toEqual([
    '/jsonapi/node/api_documentation/accounts-v1?include=field_products%2Cfield_products.field_image%2Cfield_change_log use-credentials',
    '/api/apidocs/accounts-v1/index use-credentials',
    ...['listAccounts', 'getAccount', 'getBalances', 'listTransactions'].map(
      (key) => `/api/apidocs/accounts-v1/operations/${key} use-credentials`,
    ),
  ]);
  await expect(page.getByTestId('operation')).toHaveCount(4);
  await expect(page.getByTestId('api-reference')).toBeVisible();
  expect(requests.filter((p) => p === '/api/apidocs/accounts-v1/index')).toHaveLength(1);
  expect(requests.filter((p) => p === '/jsonapi/node/api_documentation/accounts-v1')).toHaveLength(1);
  // Once the page is idle, the details of the first operations are asked for without a click.
  await expect
    .poll(() => requests.filter((p) => p.startsWith('/api/apidocs/accounts-v1/operations/')).length)
    .toBeGreaterThan(0);
  const fetched = requests.filter((p) => p.startsWith('/api/apidocs/accounts-v1/operations/')).length;
  // Opening one of them asks for nothing more.
  await page.getByTestId('operation').first().getByRole('button', { expanded: false }).first().click();
  await expect(
    page.locator('[data-testid^="operation-details-"] [data-testid^="response-"]').first(),
  ).toBeVisible();
  expect(requests.filter((p) => p.startsWith('/api/apidocs/accounts-v1/operations/'))).toHaveLength(fetched);
});

test('expanding an operation shows its parameters, responses and request samples; the curl sample copies', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/documentation/accounts-v1');
  const operation = page.getByTestId('operation').filter({ hasText: '/accounts/{accountId}/transactions' });
  const toggle = operation.getByRole('button', { name: /GET \/accounts\/\{accountId\}\/transactions/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  // The address names the open operation.
  await expect(page).toHaveURL(/#operation\/listTransactions$/);

  const details = page.getByTestId('operation-details-listTransactions');
  const pathParams = details.getByTestId('parameters-path');
  await expect(pathParams).toContainText('accountId');
  await expect(pathParams.getByLabel(P.requiredMark)).toHaveCount(1);
  const query = details.getByTestId('parameters-query');
  await expect(query.getByRole('row', { name: /bookingStatus/ })).toContainText('booked');
  await expect(query.getByRole('row', { name: /bookingStatus/ }).getByLabel(P.requiredMark)).toHaveCount(1);
  await expect(query.getByRole('row', { name: /dateFrom/ }).getByLabel(P.requiredMark)).toHaveCount(0);
  await expect(query).toContainText('string (date)');

  await expect(details.getByTestId('response-200')).toContainText('The transactions, newest first.');
  await expect(details.getByTestId('response-200')).toContainText('application/json');
  await expect(details.getByTestId('response-200')).toContainText('array<Transaction>');
  await expect(details.getByTestId('response-404')).toContainText('No such account.');
  await expect(details.getByTestId('security-requirement')).toContainText('accounts:read');

  // The nested schema: Transaction's properties, with its circular reversalOf not followed forever.
  const schema = details.getByTestId('response-200').getByTestId('schema-tree');
  await expect(schema).toContainText('transactionId');
  await expect(schema).toContainText('reversalOf');
  await expect(schema).toContainText(P.circular);
  // Deeper levels open on demand.
  await expect(schema.getByText(P.hideSchema).first()).toBeVisible();

  const tabs = details.getByRole('tablist', { name: P.requestSamples });
  for (const label of ['cURL', 'JavaScript', 'Python', 'Java']) {
    await expect(tabs.getByRole('tab', { name: label, exact: true })).toBeVisible();
  }
  const curl = details.getByTestId('sample-curl');
  await expect(curl).toContainText('curl --request GET');
  await expect(curl).toContainText('/sandbox/accounts-v1/accounts/');
  await curl.getByRole('button', { name: P.copy }).click();
  await expect(curl.getByRole('button', { name: P.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('curl --request GET');

  await tabs.getByRole('tab', { name: 'Python' }).click();
  await expect(details.getByTestId('sample-python')).toContainText('import requests');
});

test('a deep link opens and scrolls to its operation; the search filters operations', async ({ page }) => {
  await page.goto('/documentation/accounts-v1#operation/getBalances');
  const details = page.getByTestId('operation-details-getBalances');
  await expect(details).toBeVisible();
  await expect(details).toBeInViewport();
  await expect(details.getByTestId('sample-curl')).toContainText('/balances');

  await page.getByLabel(P.searchOperations).fill('transactions');
  await expect(page.getByTestId('operation')).toHaveCount(1);
  await expect(page.getByTestId('operation-tag')).toHaveText(['Transactions']);
  await page.getByLabel(P.searchOperations).fill('no operation like this');
  await expect(page.getByText(P.noOperations)).toBeVisible();
});

test('anonymous visitors cannot subscribe: START USING THIS API asks them to log in', async ({ page }) => {
  await page.goto('/documentation/accounts-v1');
  await expect(page.getByRole('button', { name: P.subscribe, exact: true })).toBeDisabled();
  await page.getByRole('button', { name: P.startUsing }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(P.youHaveToLogin)).toBeVisible();
  await expect(dialog.getByRole('link', { name: P.login })).toHaveAttribute(
    'href',
    /\/login\?returnTo=%2Fdocumentation%2Faccounts-v1/,
  );
});

test('the Get Token API has no breadcrumb and its own changelog; a deprecated API shows its tag and own plan', async ({
  page,
}) => {
  await page.goto('/documentation/get-token');
  await expect(page.getByRole('heading', { level: 1, name: 'Get Token API Documentation' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0);
  // The Get Token API belongs to four products: its changelog is its own product's, not theirs.
  const changelog = page.getByTestId('changelog');
  await expect(changelog).toContainText('Refresh tokens for the authorization code grant.');
  await expect(changelog).toContainText('01-08-2025');
  await expect(changelog).not.toContainText('Standing orders');
  await expect(changelog).not.toContainText('15-01-2026');

  await page.goto('/documentation/accounts-v0');
  await expect(page.getByRole('heading', { level: 1, name: 'Accounts API Documentation' })).toBeVisible();
  await expect(page.getByTestId('deprecated-tag')).toHaveText(P.deprecatedTag);
  await expect(page.getByTestId('plan-table')).toContainText('10 per hour');
});

test('descriptions in the reference are Markdown, rendered: API, tag, operation, parameter, schema', async ({
  page,
}) => {
  // The deprecated API's description starts with '**Deprecated.**' (content/openapi/accounts-v0.yaml).
  // Raw HTML is CommonMark too, so a document could carry a script: it is sanitized away.
  await page.route('**/api/apidocs/accounts-v0/index', async (route) => {
    const response = await route.fetch();
    const index = (await response.json()) as { description: string };
    index.description +=
      '\n<img src="x" onerror="window.hacked=1"> <script>window.hacked=2</script> [bad](javascript:window.hacked=3)';
    await route.fulfill({ response, json: index });
  });
  await page.goto('/documentation/accounts-v0');
  const api = page.getByTestId('api-description');
  await expect(api.locator('strong')).toHaveText('Deprecated.');
  await expect(api).not.toContainText('**');
  await expect(api.locator('script, [onerror]')).toHaveCount(0);
  await expect(api.getByText('bad')).toBeVisible();
  await expect(api.locator('a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

  await page.goto('/documentation/accounts-v1');
  await expect(page.getByText('Booked and pending transactions of an account.').locator('em')).toHaveText(
    'pending',
  );
  const operation = page.getByTestId('operation').filter({ hasText: '/accounts/{accountId}/transactions' });
  await operation.getByRole('button', { name: /GET \/accounts\/\{accountId\}\/transactions/ }).click();
  const details = page.getByTestId('operation-details-listTransactions');
  await expect(details.locator('strong').filter({ hasText: 'last 90 days' })).toBeVisible();
  await expect(details.getByRole('listitem').filter({ hasText: 'transactions are final.' })).toBeVisible();
  await expect(details.getByText(/\*\*|`/)).toHaveCount(0);
  const bookingStatus = details.getByTestId('parameters-query').getByRole('row', { name: /bookingStatus/ });
  await expect(bookingStatus.getByText('Which transactions to list;').locator('code')).toHaveText('both');
  // A schema property's description (Amount.amount), a level down in the response schema.
  const schema = details.getByTestId('response-200').getByTestId('schema-tree');
  await expect(schema.getByText('Decimal amount as a').first().locator('strong')).toHaveText('string');
});

test('an unknown documentation shows the not-found page', async ({ page }) => {
  await page.goto('/documentation/no-such-api');
  await expect(page.getByText(en.errors.notFoundTitle)).toBeVisible();
});

test('a signed-in developer chooses the product, then subscribes an application', async ({ page }) => {
  await signIn(page);
  const app = await createApplicationByApi(page, `Docs app ${Date.now()}`);

  // The Get Token API belongs to several products: one must be chosen before subscribing.
  await page.goto('/documentation/get-token');
  await expect(page.getByRole('heading', { level: 1, name: 'Get Token API Documentation' })).toBeVisible();
  const subscribe = page.getByRole('button', { name: P.subscribe, exact: true });
  await expect(subscribe).toBeDisabled();
  await page.getByRole('combobox', { name: P.chooseProduct }).click();
  // (The demo developer's applications already use the Accounts and Payments APIs.)
  await page.getByRole('option', { name: 'Get Token API' }).click();
  await expect(page).toHaveURL(/product=[0-9a-f-]{36}/);
  await expect(subscribe).toBeEnabled();
  // The changelog stays the Get Token API's whichever product is chosen.
  await expect(page.getByTestId('changelog')).toContainText(
    'Refresh tokens for the authorization code grant.',
  );
  await expect(page.getByTestId('changelog')).not.toContainText('Pending transactions');

  // Until an application is subscribed there is no client id.
  await expect(page.getByRole('textbox', { name: P.clientId })).toBeDisabled();

  await subscribe.click();
  const dialog = page.getByRole('dialog', { name: P.chooseApplication });
  const row = dialog.getByRole('row', { name: new RegExp(app.title) });
  await row.getByRole('button', { name: `${P.subscribe}: ${app.title}` }).click();
  await expect(dialog.getByText(P.subscribeSuccess)).toBeVisible();
  await expect(row.getByText(P.subscribed)).toBeVisible();

  // The filter of the application table matches titles case-insensitively.
  await dialog.getByLabel(P.filterApplications).fill(app.title.toUpperCase());
  await expect(dialog.getByRole('row', { name: new RegExp(app.title) })).toHaveCount(1);
  await dialog.getByLabel(P.filterApplications).fill('zzz-nothing');
  await expect(dialog.getByText(P.noMatchingApplications)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('client-id')).toContainText(app.title);
});
