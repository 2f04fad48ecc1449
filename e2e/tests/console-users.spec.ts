import { en } from '@portico/contracts/messages';
import type { Browser } from '@playwright/test';
import {
  createApplication,
  createOrganization,
  productUuid,
  signUp,
  subscribe,
} from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { demoAdmin, signIn } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/** The console's users (issue 27, decision 045): an administrator blocks a developer account. */
const U = en.console.users;
// Each test signs in two people, blocks, re-roles and checks six pages with axe: on a busy
// machine that takes longer than the default 30 s.
test.describe.configure({ timeout: 90_000 });

/** A developer signed up in a browser context of its own, with an application that has a sandbox token. */
async function developerWithToken(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = await signUp(page, 'Bert', 'Blocked');
  const organization = await createOrganization(page, 'Blocked Bank');
  const app = await createApplication(page, organization, 'Blocked Budget');
  await subscribe(page, app.uuid, await productUuid(page, 'Accounts API'));
  const token = await page.request.post('/oauth/token', {
    form: {
      grant_type: 'client_credentials',
      client_id: app.clientId.development!,
      client_secret: app.clientSecret!,
    },
  });
  expect(token.ok(), await token.text()).toBe(true);
  const accessToken = ((await token.json()) as { access_token: string }).access_token;
  const call = await page.request.get('/sandbox/accounts-v1/accounts', {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(call.status()).toBe(200);
  return { context, page, email, accessToken };
}

test('an administrator blocks a developer: its open session ends and its sandbox token is refused', async ({
  page,
  browser,
}) => {
  const developer = await developerWithToken(browser);
  try {
    await signIn(page, demoAdmin.email, demoAdmin.password);
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: U.title, level: 1 })).toBeVisible();
    // Every demo account of the provider's team, with their role badges.
    await expect(page.getByTestId('console-users').getByRole('row').nth(1)).toBeVisible();
    await expectNoViolations(page, 'the console user list with every role');
    await page.getByLabel(U.searchLabel).fill(developer.email);
    const table = page.getByTestId('console-users');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toContainText(U.active);
    await expectNoViolations(page, 'the console user list');

    await table.getByRole('link', { name: 'Bert Blocked' }).click();
    await expect(page.getByRole('heading', { name: 'Bert Blocked', level: 1 })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Blocked Budget' })).toBeVisible();
    await expectNoViolations(page, 'the console user page');

    await page.getByRole('button', { name: U.block }).click();
    const dialog = page.getByRole('dialog', { name: U.blockTitle.replace('{{name}}', 'Bert Blocked') });
    await expect(dialog).toBeVisible();
    // Colours are measured once the dialog's opening transition is over.
    await expect(dialog).toHaveCSS('opacity', '1');
    await expectNoViolations(page, 'the block confirmation');
    await dialog.getByRole('button', { name: U.blockConfirm }).click();
    await expect(page.getByRole('status').filter({ hasText: U.blockedDone })).toBeVisible();
    await expect(page.getByRole('button', { name: U.unblock })).toBeVisible();
    await expect(page.getByText(U.blocked, { exact: true })).toBeVisible();
    await expectNoViolations(page, 'the console user page of a blocked account');

    // Roles: a checkbox each, saved together.
    await page.getByRole('checkbox', { name: en.console.roles.support_agent }).check();
    await page.getByRole('button', { name: U.saveRoles }).click();
    await expect(page.getByRole('status').filter({ hasText: U.rolesSaved })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: en.console.roles.support_agent })).toBeChecked();

    // The developer's next navigation shows them signed out.
    await developer.page.goto('/');
    await expect(developer.page.getByRole('link', { name: en.user.login, exact: true })).toBeVisible();
    await expect(developer.page.getByText('Welcome Bert Blocked')).toHaveCount(0);

    // The token their application got before is refused by the sandbox.
    const refused = await developer.page.request.get('/sandbox/accounts-v1/accounts', {
      headers: { Authorization: `Bearer ${developer.accessToken}` },
    });
    expect(refused.status()).toBe(401);
  } finally {
    await developer.context.close();
  }
});

test("the last administrator cannot give up the role: the server's message is shown, nothing changes", async ({
  page,
}) => {
  await signIn(page, demoAdmin.email, demoAdmin.password);
  await page.goto('/admin/users');
  await page.getByLabel(U.searchLabel).fill(demoAdmin.email);
  const table = page.getByTestId('console-users');
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('link').first().click();
  const admin = page.getByRole('checkbox', { name: en.console.roles.administrator });
  await expect(admin).toBeChecked();
  await admin.uncheck();
  await page.getByRole('button', { name: U.saveRoles }).click();
  await expect(page.getByRole('alert').filter({ hasText: U.lastAdministrator })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: en.console.roles.administrator })).toBeChecked();
});
