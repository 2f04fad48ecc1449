import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import { createApplication, createOrganization, signUp } from '../support/applications.ts';
import { expectNoViolations } from '../support/axe.ts';
import { expect, test } from '../support/traffic.ts';

const M = en.certificates;
const UI = en.applications.ui;

/**
 * Sandbox test certificates (issue 28): a fresh owner reaches the certificates page from the
 * organization page, downloads the sandbox CA, has a QWAC issued for a key made by the browser
 * (only the CSR is sent; the private key is downloaded), sees it listed, links it to an application
 * and sees why that AISP-only application cannot subscribe to the Payments API. Everything is made
 * in a fresh organization: the demo content stays as it was.
 */
test.describe.configure({ timeout: 90_000 });

const suffix = `${Date.now()}`.slice(-6);

async function text(download: Download): Promise<string> {
  return readFile((await download.path())!, 'utf8');
}

async function downloadOf(page: Page, click: () => Promise<void>): Promise<Download> {
  const waiting = page.waitForEvent('download');
  await click();
  return waiting;
}

test('an owner issues a sandbox QWAC with a browser key and its PSD2 roles limit an application', async ({
  page,
}) => {
  await signUp(page, 'Cora', `Cert${suffix}`);
  const org = await createOrganization(page, `Cert TPP ${suffix}`);

  // From the organization page's menu.
  await page.goto(`/organization/${org}`);
  await page.getByRole('button', { name: en.organizations.organizationMenu }).click();
  await page.getByRole('menuitem', { name: M.menuLink }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${org}/certificates$`));
  await expect(page.getByRole('heading', { name: M.title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('sandbox-ca-warning')).toHaveText(M.caWarning);
  await expect(page.getByText(M.listEmpty)).toBeVisible();

  // The sandbox CA certificate.
  const ca = await downloadOf(page, () => page.getByRole('button', { name: M.caDownload }).click());
  expect(ca.suggestedFilename()).toBe('portico-sandbox-ca.pem');
  expect(await text(ca)).toMatch(/^-----BEGIN CERTIFICATE-----/);

  // A malformed CSR file is refused with the server's precise message.
  await page.getByLabel(M.keyCsr).check();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: M.csrFile }).click();
  await (
    await chooser
  ).setFiles({
    name: 'request.csr',
    mimeType: 'text/plain',
    buffer: Buffer.from('not a certificate request\n'),
  });
  await expect(page.getByLabel(M.csrLabel)).toHaveValue('not a certificate request\n');
  await page.getByRole('button', { name: M.issueButton }).click();
  await expect(page.getByRole('alert').filter({ hasText: M.csrNotPem })).toBeVisible();

  // A key made in the browser: QWAC with the account information role (the default choice).
  await page.getByLabel(M.keyBrowser).check();
  await page.getByRole('button', { name: M.issueButton }).click();
  await expect(page.getByText(M.commonNameRequired)).toBeVisible();
  await page.getByLabel(M.commonNameLabel).fill(`Cert TPP app ${suffix}`);
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith(`/api/organizations/${org}/certificates`))
      requests.push(r.postData() ?? '');
  });
  await page.getByRole('button', { name: M.issueButton }).click();
  const row = page
    .getByTestId('certificates-table')
    .getByRole('row')
    .filter({ hasText: `CN=Cert TPP app ${suffix}` });
  await expect(row).toBeVisible();
  await expect(row).toContainText(M.kindQwac);
  await expect(row).toContainText('PSP_AI');
  await expect(row).toContainText(M.statusActive);
  const serial = (await row.locator('code').textContent()) ?? '';
  expect(serial).toMatch(/^[0-9a-f]{32}$/);
  await expect(
    page.getByRole('status').filter({ hasText: M.issued.replace('{{serial}}', serial) }),
  ).toBeVisible();
  // Only the CSR went to the portal, never the private key.
  expect(requests).toHaveLength(1);
  expect(requests[0]).toContain('BEGIN CERTIFICATE REQUEST');
  expect(requests[0]).not.toContain('PRIVATE KEY');
  const key = await downloadOf(page, () => page.getByRole('button', { name: M.downloadKey }).click());
  expect(await text(key)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  const cert = await downloadOf(page, () =>
    row.getByRole('button', { name: M.downloadLabel.replace('{{serial}}', serial) }).click(),
  );
  expect(await text(cert)).toMatch(/^-----BEGIN CERTIFICATE-----/);
  await expectNoViolations(page, 'the sandbox certificates page');

  // The application uses the certificate: the Payments API needs PSP_PI.
  const app = await createApplication(page, org, `AISP app ${suffix}`);
  await page.goto(`/application/${app.uuid}?organization=${org}`);
  const section = page.getByTestId('psd2-certificate');
  await section.getByLabel(M.appCertificateLabel).selectOption({ index: 1 });
  await section.getByRole('button', { name: M.appCertificateSave }).click();
  await expect(section.getByText(M.appCertificateSaved)).toBeVisible();
  await expect(section.getByText(M.appCertificateHolds.replace('{{roles}}', 'PSP_AI'))).toBeVisible();

  await page.getByRole('button', { name: UI.addProducts }).click();
  const modal = page.getByRole('dialog', { name: UI.selectProduct });
  await modal.getByRole('button', { name: `${UI.subscribe} Payments API`, exact: true }).click();
  await expect(
    modal.getByRole('alert').filter({
      hasText: "Payments API needs the PSD2 role PSP_PI; this application's certificate holds PSP_AI.",
    }),
  ).toBeVisible();
  await expect(
    modal.getByRole('button', { name: `${UI.subscribe} Payments API`, exact: true }),
  ).toBeVisible();
  // The Accounts API is the AISP's.
  await modal.getByRole('button', { name: `${UI.subscribe} Accounts API`, exact: true }).click();
  await expect(modal.getByRole('button', { name: `${UI.unsubscribe} Accounts API` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expectNoViolations(page, 'the application view with its PSD2 certificate', {
    include: ['[data-testid="psd2-certificate"]'],
  });
});
