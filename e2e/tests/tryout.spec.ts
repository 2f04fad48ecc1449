import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { productUuid, signUp, subscribe } from '../support/applications.ts';
import { createApplicationByApi } from '../support/products.ts';
import { demoAdmin, signIn } from '../support/session.ts';
import { expectSpotlightOn, nextStep, tourTooltip } from '../support/tour.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

/** The try-out console (issue 12) on the demo Accounts API, with the demo developer's Budget Buddy. */

const T = en.tryout;
// Several round trips through a portal, an authorization server and a popup per test.
test.describe.configure({ timeout: 90_000 });
const A = en.sandboxAuth;

async function openConsole(page: Page, operation: string) {
  await page.goto(`/documentation/accounts-v1#operation/${operation}`);
  const details = page.getByTestId(`operation-details-${operation}`);
  await details.getByRole('button', { name: T.tryItOut }).click();
  const consoleDialog = page.getByRole('dialog', { name: new RegExp(T.consoleTitle.split(' ')[0]!) });
  await expect(consoleDialog.getByTestId('tryout-panel')).toBeVisible();
  return consoleDialog;
}

/** The demo developer's Budget Buddy: subscribed to the Accounts API; its development secret. */
async function budgetBuddySecret(page: Page): Promise<string> {
  const res = await page.request.get('/phpsdk/organization/apps?page[limit]=50');
  const body = (await res.json()) as { data: { title: string; clientSecret: string | null }[] };
  const app = body.data.find((a) => a.title === 'Budget Buddy');
  expect(app?.clientSecret).toBeTruthy();
  return app!.clientSecret!;
}

test('an empty required parameter is listed and highlighted, and nothing is sent', async ({ page }) => {
  const c = await openConsole(page, 'getAccount');
  await expect(c.getByTestId('tryout-state')).toHaveText(T.state_idle);
  const sandboxCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/sandbox/')) sandboxCalls.push(r.url());
  });
  await c.getByRole('button', { name: T.send, exact: true }).click();
  const errors = c.getByTestId('tryout-form-errors');
  await expect(errors).toContainText(T.formErrors);
  await expect(errors).toContainText('accountId (path) is required');
  await expect(c.getByRole('combobox', { name: 'accountId' })).toHaveAttribute('aria-invalid', 'true');
  await expect(c.getByTestId('tryout-state')).toHaveText(T.state_idle);
  expect(sandboxCalls).toEqual([]);
  // Anonymous visitors are told how to get a token.
  await expect(c).toContainText(T.signInForTokens);
});

test('a client_credentials token, applied, makes the sandbox call succeed; the response is shown', async ({
  page,
}) => {
  await signIn(page);
  const secret = await budgetBuddySecret(page);
  const c = await openConsole(page, 'getAccount');
  await expect(c.getByLabel(T.clientId)).toContainText('Budget Buddy');
  const getToken = c.getByRole('button', { name: T.getToken });
  await expect(getToken).toBeDisabled();
  await c.getByLabel(T.clientSecret).fill(secret);
  await expect(getToken).toBeEnabled();
  await getToken.click();
  const token = c.getByTestId('tryout-token');
  await expect(token).toContainText('Expires in 60 min');
  await expect(token).toContainText('accounts:read');
  await token.getByRole('button', { name: T.apply }).click();
  await expect(c.getByTestId('tryout-request')).toContainText('Authorization: Bearer ');

  await c.getByRole('combobox', { name: 'accountId' }).fill('acc-1001');
  await expect(c.getByTestId('tryout-request')).toContainText('/sandbox/accounts-v1/accounts/acc-1001');
  await c.getByRole('button', { name: T.send, exact: true }).click();
  await expect(c.getByTestId('tryout-state')).toHaveText(T.state_success);
  await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');
  await expect(c.getByTestId('tryout-schema')).toHaveText(T.schemaMatches);
  await expect(c.getByTestId('tryout-response-body')).toContainText('accountId');
  // Code samples of the filled-in request.
  await c.getByText('Python (requests)').click();
  await expect(c.getByTestId('tryout-snippet')).toContainText('import requests');
  await expect(c.getByTestId('tryout-snippet')).toContainText('acc-1001');
  // The call is in the history, and the secret is nowhere in the persisted store.
  await expect(c.getByTestId('tryout-history-item').first()).toContainText('GET /accounts/{accountId}');
  const stored = await page.evaluate(() => JSON.stringify(window.localStorage));
  expect(stored).not.toContain(secret);
});

test('the authorization_code popup flow with a sandbox customer gives a token', async ({ page }) => {
  await signIn(page);
  const secret = await budgetBuddySecret(page);
  const c = await openConsole(page, 'listAccounts');
  await c.getByLabel(T.flow).selectOption('authorization_code');
  await c.getByLabel(T.clientSecret).fill(secret);
  const popupPromise = page.waitForEvent('popup');
  await c.getByRole('button', { name: T.getToken }).click();
  const popup = await popupPromise;
  await popup.getByLabel(A.usernameLabel).fill('alice.customer');
  await popup.getByLabel(A.passwordLabel).fill('Sandbox#2026');
  await popup.getByRole('button', { name: A.signInButton }).click();
  await popup.getByRole('button', { name: A.allowButton }).click();
  await expect(c.getByTestId('tryout-token')).toContainText('accounts:read');
  await c.getByTestId('tryout-token').getByRole('button', { name: T.apply }).click();
  await c.getByRole('button', { name: T.send, exact: true }).click();
  await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');
});

test('a failed authorization closes the popup: Something went wrong please try again', async ({ page }) => {
  await signIn(page);
  const c = await openConsole(page, 'listAccounts');
  await c.getByLabel(T.flow).selectOption('authorization_code');
  await c.getByLabel(T.clientSecret).fill('any-secret');
  const popupPromise = page.waitForEvent('popup');
  await c.getByRole('button', { name: T.getToken }).click();
  const popup = await popupPromise;
  await popup.close();
  await expect(c.getByTestId('tryout-token-error')).toHaveText(T.authorizationFailed);
});

test('a wrong secret shows the server OAuth error; Reset Secret gives a new one', async ({ page }) => {
  await signIn(page);
  const c = await openConsole(page, 'listAccounts');
  await c.getByLabel(T.clientSecret).fill('not-the-secret');
  await c.getByRole('button', { name: T.getToken }).click();
  await expect(c.getByTestId('tryout-token-error')).toContainText('invalid_client');
  await c.getByRole('button', { name: T.resetSecret }).click();
  await expect(c.getByTestId('tryout-secret-notice')).toHaveText(T.copySecret);
  await c.getByRole('button', { name: T.getToken }).click();
  await expect(c.getByTestId('tryout-token')).toContainText('Expires in');
});

test('three identical failures open the help dialog, whose message reaches the provider', async ({
  page,
  browser,
}) => {
  await signIn(page);
  const c = await openConsole(page, 'listAccounts');
  const send = c.getByRole('button', { name: T.send, exact: true });
  for (let i = 1; i <= 3; i++) {
    // The state is 'loading' from the click on, 'failure' once the answer is shown.
    await send.click();
    await expect(c.getByTestId('tryout-response')).toHaveAttribute('data-state', 'failure');
  }
  await expect(c.getByTestId('tryout-status')).toHaveText('401 Unauthorized');
  await expect(c.getByTestId('tryout-why')).toContainText('invalid_token');
  const help = page.getByRole('dialog', { name: T.helpTitle });
  await expect(help).toBeVisible();
  await expect(help.getByLabel(T.helpSubject)).toHaveValue('Try-out: GET /accounts keeps failing');
  await help.getByLabel(T.helpMessage).fill('I keep getting 401 on GET /accounts from the try-out console.');
  await help.getByRole('button', { name: T.helpSend }).click();
  await expect(help.getByRole('status')).toHaveText(T.helpSent);

  // The provider sees it among the contact messages.
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, demoAdmin.email, demoAdmin.password);
  const messages = await adminPage.request.get('/admin-api/support/contact-messages');
  expect(messages.ok()).toBe(true);
  expect(await messages.text()).toContain('Try-out: GET /accounts keeps failing');
  await admin.close();
});

test('history: favorite, soft delete with Cancel, Delete All, export and import', async ({ page }) => {
  const c = await openConsole(page, 'listAccounts');
  const history = c.getByTestId('tryout-history');
  await expect(history).toContainText(T.historyEmpty);
  const send = c.getByRole('button', { name: T.send, exact: true });
  for (let i = 1; i <= 2; i++) {
    await send.click();
    await expect(history.getByTestId('tryout-history-item')).toHaveCount(i);
  }
  const items = history.getByTestId('tryout-history-item');
  // Favorite the older one: it moves to the top.
  await items.nth(1).getByRole('button', { name: T.favorite }).click();
  await expect(items.first()).toHaveAttribute('data-favorite', 'true');

  // Soft delete, then Cancel: the item stays.
  await items
    .nth(1)
    .getByRole('button', { name: /^Delete GET/ })
    .click();
  await expect(history.getByTestId('tryout-removed')).toContainText(T.removed);
  await expect(items).toHaveCount(1);
  await history.getByTestId('tryout-removed').getByRole('button', { name: T.cancel }).click();
  await expect(items).toHaveCount(2);

  // Export needs a selection.
  await history.getByRole('button', { name: T.export }).click();
  await expect(history.getByTestId('tryout-history-message')).toHaveText(T.selectAtLeastOne);
  await expect(history.getByTestId('tryout-history-message')).toBeHidden({ timeout: 5000 });
  await items.first().getByRole('checkbox').check();
  const downloadPromise = page.waitForEvent('download');
  await history.getByRole('button', { name: T.export }).click();
  const download = await downloadPromise;
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as unknown[];
  expect(exported).toHaveLength(1);

  // Delete All keeps the favorite.
  await history.getByRole('button', { name: T.deleteAll }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-favorite', 'true');

  // Import: unreadable, nothing to import, then the exported file.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tryout-'));
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };
  const upload = async (p: string) => {
    const chooser = page.waitForEvent('filechooser');
    await history.getByRole('button', { name: T.import }).click();
    await (await chooser).setFiles(p);
  };
  await upload(file('bad.json', '{not json'));
  await expect(history.getByTestId('tryout-history-message')).toHaveText(T.unreadableFile);
  await upload(
    file('other.json', JSON.stringify([{ documentationId: 'payments-v1', method: 'get', path: '/x' }])),
  );
  await expect(history.getByTestId('tryout-history-message')).toHaveText(T.nothingToImport);
  await upload(file('good.json', JSON.stringify(exported)));
  await expect(history.getByTestId('tryout-history-message')).toHaveText(T.imported);
  await expect(items).toHaveCount(2);
  await expect(history.getByText(T.badgeImported, { exact: true })).toBeVisible();
});

test("an unsubscribed application's token is refused by the sandbox, and the console shows why", async ({
  page,
}) => {
  await signIn(page);
  const app = await createApplicationByApi(page, `Tryout revoked ${Date.now()}`);
  const product = await productUuid(page, 'Accounts API');
  await subscribe(page, app.uuid, product);
  const res = await page.request.get('/phpsdk/organization/apps?page[limit]=50');
  const apps = (await res.json()) as {
    data: { uuid: string; clientSecret: string | null; clientId: { development: string } }[];
  };
  const mine = apps.data.find((a) => a.uuid === app.uuid)!;

  const c = await openConsole(page, 'listAccounts');
  await c.getByLabel(T.clientId).selectOption(mine.clientId.development);
  await c.getByLabel(T.clientSecret).fill(mine.clientSecret!);
  await c.getByRole('button', { name: T.getToken }).click();
  await c.getByTestId('tryout-token').getByRole('button', { name: T.apply }).click();
  await c.getByRole('button', { name: T.send, exact: true }).click();
  await expect(c.getByTestId('tryout-status')).toHaveText('200 OK');

  const token = await (await page.request.get('/session/token')).text();
  const unsub = await page.request.post('/api/application', {
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
    data: JSON.stringify({ type: 'unsubscribe', application: app.uuid, product }),
  });
  expect(unsub.ok()).toBe(true);
  await c.getByRole('button', { name: T.send, exact: true }).click();
  await expect(c.getByTestId('tryout-status')).toHaveText('403 Forbidden');
  await expect(c.getByTestId('tryout-why')).toContainText('insufficient_scope');
});

test('axe finds no violations on the open console after a call', async ({ page }) => {
  await signIn(page);
  const c = await openConsole(page, 'listAccounts');
  await c.getByRole('button', { name: T.send, exact: true }).click();
  await expect(c.getByTestId('tryout-response')).toHaveAttribute('data-state', 'failure');
  await expectNoViolations(page, 'the console after a call', { include: ['[data-testid="tryout-panel"]'] });
});

test("a call sent during the documentation's tour carries the 'tour' badge, in the browser and on the server; axe with the tour over the console", async ({
  page,
}) => {
  // A fresh account: its history holds only what this test sends.
  await signUp(page, 'Toni', 'Tour');
  const serverHistory = async () => {
    const res = await page.request.get('/api/tryout/history?documentationId=accounts-v1');
    expect(res.ok()).toBe(true);
    return ((await res.json()) as { data: { fromTour: boolean }[] }).data.map((i) => i.fromTour);
  };

  await page.goto('/documentation/accounts-v1');
  await page.getByRole('button', { name: en.quickstart.takeTheTour }).click();
  await nextStep(page, 'Download the OpenAPI document');
  await nextStep(page, 'The reference groups the operations');
  // The try-out step highlights the Try it out button of GET /accounts, which the tour opened.
  await expect(tourTooltip(page, 'Press Try it out on an operation')).toBeVisible({ timeout: 15_000 });
  const tryIt = page.locator('[data-operation="listAccounts"] [data-tour="try-out"]');
  await expectSpotlightOn(page, tryIt);
  await tryIt.click();
  const c = page.getByTestId('tryout-panel');
  await expect(tourTooltip(page, 'then press Send')).toBeVisible({ timeout: 15_000 });
  const send = c.locator('[data-tour="tryout-send"]');
  await expectSpotlightOn(page, send);

  await expectNoViolations(page, 'the tour over the console');

  await send.click();
  const items = c.getByTestId('tryout-history-item');
  await expect(items).toHaveCount(1);
  await expect(items.first().getByText(T.badgeTour, { exact: true })).toBeVisible();
  await expect.poll(serverHistory).toEqual([true]);
  await nextStep(page, "The sandbox's answer, checked against the documented schema");
  await expect(tourTooltip(page, "The sandbox's answer")).toHaveCount(0);

  // Once the tour is over, calls are plain ones again.
  await send.click();
  await expect(items).toHaveCount(2);
  await expect(c.getByText(T.badgeTour, { exact: true })).toHaveCount(1);
  await expect.poll(async () => (await serverHistory()).sort()).toEqual([false, true]);
});
