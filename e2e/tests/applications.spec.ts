import { expect, test, type Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import {
  createApplication,
  createOrganization,
  productUuid,
  requestGoLive,
  signUp,
  subscribe,
} from '../support/applications.ts';
import { certificates } from '../../apps/server/test/applications-certs.ts';
import { demoAdmin, signIn } from '../support/session.ts';

const M = en.applications;
const UI = en.applications.ui;
const APPLICATION_URL = /\/application\/([0-9a-f-]{36})\?organization=/;

/** Reveals a hidden credential (Show) and returns its text. */
async function reveal(page: Page, label: string, testId: string): Promise<string> {
  await page.getByRole('button', { name: `${UI.show} ${label}` }).click();
  const value = page.getByTestId(testId);
  await expect(value).toHaveAttribute('data-shown', 'true');
  return (await value.textContent()) ?? '';
}

test('a developer takes an application from the form to production', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signUp(page, 'Avery', 'Builder');
  const organization = await createOrganization(page, `Budget Co ${Date.now()}`);

  // The create form: the spec's messages on submit, then after a field is left.
  await page.goto(`/application?organization=${organization}`);
  await expect(page.getByRole('heading', { name: M.createTitle })).toBeVisible();
  const description = page.getByRole('textbox', { name: UI.description });
  await expect(description).toBeVisible();
  await page.getByRole('button', { name: UI.create }).click();
  await expect(page.getByText(M.required, { exact: true })).toHaveCount(2);
  await expect(page.getByText(M.grantTypeRequired)).toBeVisible();
  await description.fill('x'.repeat(1001));
  await expect(page.getByText(M.descriptionTooLong)).toBeVisible();

  const title = `Budget app ${Date.now()}`;
  await page.getByLabel(UI.title).fill(title);
  await description.fill('Reads balances for a budgeting app.');
  await expect(page.getByText(M.descriptionTooLong)).toBeHidden();
  await page.getByRole('checkbox', { name: UI.clientCredentials }).check();
  await expect(page.getByText(M.grantTypeRequired)).toBeHidden();
  await expect(page.getByText(M.required, { exact: true })).toHaveCount(0);
  // A redirect URI is added when the field is left (spec A 5).
  const redirects = page.getByRole('combobox', { name: UI.redirectUris, exact: true });
  await redirects.fill('https://budget.example/callback');
  await redirects.blur();
  await expect(page.getByText('https://budget.example/callback')).toBeVisible();
  await expect(page.getByTestId('redoc-callback')).toHaveText(/\/oauth2\/redoc-callback$/);
  await page.getByRole('button', { name: UI.create }).click();

  // The application view, keeping the organization parameter.
  await expect(page).toHaveURL(APPLICATION_URL);
  const applicationId = APPLICATION_URL.exec(page.url())?.[1] ?? '';
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByTestId('application-status')).toHaveText('DEVELOPMENT');
  await expect(page.getByText(M.noSubscription)).toBeVisible();
  await expect(page.getByText('https://budget.example/callback')).toBeVisible();
  const developmentId = await reveal(page, UI.clientIdDevelopment, 'client-id-development');
  expect(developmentId).toMatch(/^[0-9A-Za-z_-]{16,}$/);
  const oldSecret = await reveal(page, UI.clientSecret, 'client-secret');
  expect(oldSecret.length).toBeGreaterThan(15);

  // Reset client secret: confirmation, then the new secret with the notice.
  await page.getByRole('button', { name: UI.resetSecret }).click();
  const resetDialog = page.getByRole('dialog', { name: UI.resetSecret });
  await resetDialog.getByRole('button', { name: UI.confirm }).click();
  await expect(page.getByTestId('new-secret')).toContainText(M.copySecret);
  const newSecret = (await page.getByTestId('new-secret-value').textContent()) ?? '';
  expect(newSecret.length).toBeGreaterThan(15);
  expect(newSecret).not.toBe(oldSecret);

  // Select Product: commercial products (the demo's FX Rates API) are not offered; the search
  // narrows the table.
  await page.getByRole('button', { name: UI.addProducts }).click();
  const modal = page.getByRole('dialog', { name: UI.selectProduct });
  await expect(modal.getByTestId('product-row').first()).toBeVisible();
  await expect(modal.getByText('Accounts API', { exact: true })).toBeVisible();
  await expect(modal.getByText('Payments API', { exact: true })).toBeVisible();
  await expect(modal.getByText('FX Rates API', { exact: true })).toHaveCount(0);
  await modal.getByLabel(UI.searchProducts).fill('Pay');
  await expect(modal.getByTestId('product-row')).toHaveCount(1);
  await modal.getByRole('button', { name: `${UI.subscribe} Payments API`, exact: true }).click();
  await expect(modal.getByRole('button', { name: `${UI.unsubscribe} Payments API` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  const subscription = page.getByTestId('subscription').filter({ hasText: 'Payments API' });
  await expect(subscription).toBeVisible();
  await expect(page.getByText(M.noSubscription)).toBeHidden();
  await subscription.getByRole('button', { name: UI.scopes }).click();
  await expect(
    subscription.getByRole('cell', { name: 'payments:read payments:write' }).first(),
  ).toBeVisible();
  await expect(subscription.getByRole('link', { name: UI.viewDetails })).toHaveAttribute(
    'href',
    /^\/apiProduct\/[0-9a-f-]{36}$/,
  );

  // Unsubscribe from the list, with a confirmation.
  await subscription.getByRole('button', { name: UI.unsubscribe }).click();
  await page
    .getByRole('dialog', { name: UI.unsubscribeTitle })
    .getByRole('button', { name: UI.unsubscribe })
    .click();
  await expect(page.getByText(M.noSubscription)).toBeVisible();

  // Subscribe to the Accounts API for the go-live request.
  await page.getByRole('button', { name: UI.addProducts }).click();
  await modal.getByRole('button', { name: `${UI.subscribe} Accounts API`, exact: true }).click();
  await expect(modal.getByRole('button', { name: `${UI.unsubscribe} Accounts API` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('subscription').filter({ hasText: 'Accounts API' })).toBeVisible();

  // Edit: back on the view with the new title.
  await page.getByRole('link', { name: UI.edit, exact: true }).click();
  await expect(page.getByRole('heading', { name: M.editTitle })).toBeVisible();
  await expect(page.getByRole('link', { name: UI.backToOverview })).toBeVisible();
  const newTitle = `${title} v2`;
  await page.getByLabel(UI.title).fill(newTitle);
  await page.getByRole('button', { name: UI.save }).click();
  await expect(page).toHaveURL(new RegExp(`/application/${applicationId}\\?organization=${organization}$`));
  await expect(page.getByRole('heading', { name: newTitle })).toBeVisible();
  await expect(page.getByTestId('subscription').filter({ hasText: 'Accounts API' })).toBeVisible();

  // Go live: the certificate check passes (no PSD2 product), then the form.
  await page.getByRole('button', { name: UI.goLive }).click();
  await expect(
    page.getByRole('heading', { name: M.goLiveTitle.replace('{{title}}', newTitle) }),
  ).toBeVisible();
  const form = page.getByRole('form', { name: M.goLiveTitle.replace('{{title}}', newTitle) });
  await form.getByLabel(UI.firstName).focus();
  await form.getByLabel(UI.firstName).blur();
  await expect(form.getByText(M.required, { exact: true })).toHaveCount(1);
  await form.getByLabel(UI.email).fill('not-an-email');
  await form.getByLabel(UI.email).blur();
  await expect(form.getByText(M.invalidEmail)).toBeVisible();
  await form.getByRole('radio', { name: UI.company }).check();
  await form.getByLabel(UI.firstName).fill('Avery');
  await form.getByLabel(UI.lastName).fill('Builder');
  await form.getByLabel(UI.companyName).fill('Budget Co');
  await form.getByLabel(UI.address).fill('1 Main Street, Springfield');
  await form.getByLabel(UI.email).fill('avery@budget.example');
  await form.getByLabel(UI.siteUrl).fill('https://budget.example');
  await form.getByLabel(UI.useCases).fill('Shows balances and spending per category.');
  await expect(form.getByText(M.invalidEmail)).toBeHidden();
  await form.getByRole('button', { name: UI.submit }).click();
  await expect(page).toHaveURL(/golive=true/);
  await expect(page.getByTestId('go-live-banner')).toHaveText(M.goLiveBanner);
  await expect(page.getByTestId('application-status')).toHaveText('PRODUCTION');
  await expect(page.getByRole('button', { name: UI.goLive })).toHaveCount(0);

  // Only go-live reviewers and administrators review go-live requests (the console).
  await page.goto('/admin/go-live');
  await expect(page.getByRole('heading', { name: en.errors.unauthorized })).toBeVisible();

  // The provider approves.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, demoAdmin.email, demoAdmin.password);
  await admin.goto('/admin/go-live');
  await expect(admin.getByRole('heading', { name: UI.reviewTitle })).toBeVisible();
  const request = admin.getByTestId('go-live-request').filter({ hasText: newTitle });
  await expect(request).toContainText('avery@budget.example');
  await expect(request).toContainText('Shows balances and spending per category.');
  await request.getByRole('button', { name: UI.approve }).click();
  await admin.getByRole('dialog', { name: UI.approve }).getByRole('button', { name: UI.approve }).click();
  await expect(request).toHaveCount(0);
  await admin.getByText(UI.approved, { exact: true }).click();
  const decided = admin.getByTestId('go-live-request').filter({ hasText: newTitle });
  await expect(decided.getByTestId('request-status')).toHaveText(UI.approved);
  await expect(decided.getByTestId('decision')).toContainText(`${UI.approved} by Ada Admin`);
  await adminContext.close();

  // The developer sees the production application: production client ID, no Edit, no banner.
  await page.goto(`/application/${applicationId}?organization=${organization}`);
  await expect(page.getByTestId('application-status')).toHaveText('PRODUCTION');
  const productionId = await reveal(page, UI.clientIdProduction, 'client-id-production');
  expect(productionId).toMatch(/^[0-9A-Za-z_-]{16,}$/);
  const productionSecret = await reveal(page, UI.clientSecretProduction, 'client-secret-production');
  await expect(page.getByRole('link', { name: UI.edit, exact: true })).toHaveCount(0);
  await expect(page.getByTestId('go-live-banner')).toHaveCount(0);
  await expect(
    page
      .getByTestId('subscription')
      .filter({ hasText: 'Accounts API' })
      .getByRole('button', { name: UI.unsubscribe }),
  ).toHaveCount(0);

  // Analytics: a sandbox call with the production credentials is counted; the development
  // credentials keep working, but their calls are not production usage (docs/decisions/011).
  await expect(page.getByRole('heading', { name: UI.analytics })).toBeVisible();
  const devToken = await page.request.post('/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: developmentId, client_secret: newSecret },
  });
  expect(devToken.ok(), await devToken.text()).toBe(true);
  const devCall = await page.request.get('/sandbox/accounts-v1/accounts/acc-1/balances', {
    headers: {
      Authorization: `Bearer ${((await devToken.json()) as { access_token: string }).access_token}`,
    },
  });
  expect(devCall.status()).toBe(200);
  const token = await page.request.post('/oauth/token', {
    form: { grant_type: 'client_credentials', client_id: productionId, client_secret: productionSecret },
  });
  expect(token.ok(), await token.text()).toBe(true);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  const call = await page.request.get('/sandbox/accounts-v1/accounts', {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(call.status()).toBe(200);
  await expect(async () => {
    await page.reload();
    const row = page.getByTestId('analytics-table').getByRole('row').filter({ hasText: '/accounts' });
    await expect(row).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 20_000 });
  await expect(
    page.getByTestId('analytics-table').getByRole('row').filter({ hasText: '/balances' }),
  ).toHaveCount(0);

  // Editing a production application is refused.
  await page.goto(`/application/${applicationId}/edit?organization=${organization}`);
  await expect(page.getByText(M.cannotEdit)).toBeVisible();
  await expect(page.locator('meta[name="status-code"]')).toHaveAttribute('content', '403');
});

test('deleting an application leads back to its organization', async ({ page }) => {
  await signUp(page, 'Dale', 'Deleter');
  const organization = await createOrganization(page, `Cleanup Co ${Date.now()}`);
  const app = await createApplication(page, organization, `Short-lived ${Date.now()}`);
  await page.goto(`/application/${app.uuid}?organization=${organization}`);
  await expect(page.getByRole('heading', { name: app.title })).toBeVisible();
  await page.getByRole('button', { name: UI.delete, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: UI.deleteTitle });
  await expect(dialog).toContainText(app.title);
  await dialog.getByRole('button', { name: UI.delete, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${organization}$`));
  const gone = await page.request.get(`/jsonapi/node/application/${app.uuid}`);
  expect(gone.status()).toBe(404);
});

test('an organization with a production application cannot be deleted', async ({ page }) => {
  await signUp(page, 'Paula', 'Production');
  const organization = await createOrganization(page, `Live Co ${Date.now()}`);
  const app = await createApplication(page, organization, `Live app ${Date.now()}`);
  await subscribe(page, app.uuid, await productUuid(page, 'Accounts API'));
  await requestGoLive(page, app);

  await page.goto(`/organization/${organization}`);
  await page.getByRole('button', { name: en.organizations.deleteButton }).click();
  const dialog = page.getByRole('dialog', { name: en.organizations.deleteTitle });
  await dialog.getByRole('button', { name: en.organizations.deleteConfirm, exact: true }).click();
  await expect(dialog).toContainText('This action is not allowed. You should contact');
  // Still there.
  await page.goto(`/application/${app.uuid}?organization=${organization}`);
  await expect(page.getByTestId('application-status')).toHaveText('PRODUCTION');
});

test("the demo's Split Pay reaches the PSD2 certificate check; with a certificate it goes on to the form", async ({
  page,
}) => {
  // Demo content only (content/organizations.yaml): the demo developer's Northwind Fintech has Split
  // Pay, subscribed to the Payments API, which needs a PSD2 certificate to go live (spec A 4).
  await signIn(page);
  await page.goto('/organizations');
  await page.getByRole('link', { name: 'Northwind Fintech' }).click();
  await expect(page).toHaveURL(/\/organization\/[0-9a-f-]{36}$/);
  const organizationUrl = page.url();
  await page.getByRole('link', { name: 'Split Pay' }).click();
  await expect(page.getByRole('heading', { name: 'Split Pay' })).toBeVisible();
  const applicationUrl = page.url();
  await expect(page.getByTestId('subscription').filter({ hasText: 'Payments API' })).toBeVisible();

  // No certificate yet: the Error modal with the server's message and 'Add certificate'.
  await page.getByRole('button', { name: UI.goLive }).click();
  const error = page.getByRole('dialog', { name: UI.error });
  await expect(error.getByTestId('go-live-error')).toHaveText(
    M.certMissing.replace('{{products}}', 'Payments API'),
  );
  await error.getByRole('link', { name: UI.addCertificate }).click();
  await expect(page).toHaveURL(organizationUrl);

  // The owner uploads a qualified certificate to the organization's documents.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: en.organizations.chooseFiles }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'qwac.crt', mimeType: 'application/x-x509-ca-cert', buffer: Buffer.from(certificates.psd2()) },
  ]);
  await page.getByRole('button', { name: en.organizations.uploadButton, exact: true }).click();
  await expect(
    page.getByRole('list', { name: en.organizations.documentsTitle }).getByRole('link', { name: 'qwac.crt' }),
  ).toBeVisible();

  // Now the check passes and the go-live form opens.
  await page.goto(applicationUrl);
  await page.getByRole('button', { name: UI.goLive }).click();
  await expect(
    page.getByRole('heading', { name: M.goLiveTitle.replace('{{title}}', 'Split Pay') }),
  ).toBeVisible();
});
