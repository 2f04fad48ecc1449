import fs from 'node:fs';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { demoDeveloper, e2eApiManager, signIn } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * An API manager uploads a new version of a demo API and reads its documentation before
 * publishing it: the draft rendered by the documentation page's own reference, marked as a
 * preview, while developers still read the published version and cannot open the preview (issue
 * 27). Nothing is published: the draft is discarded at the end, the demo's documentation as it was.
 */
const M = en.console.apis;

/** The demo's Payments API, version 1.2.0, as content/ has it. */
const V1 = fs.readFileSync(new URL('../../content/openapi/payments-v1.yaml', import.meta.url), 'utf8');

/** Version 1.3.0: GET /refunds added. */
function nextVersion(): string {
  const at = V1.indexOf('webhooks:\n');
  expect(at).toBeGreaterThan(0);
  const refunds = `  /refunds:
    get:
      tags: [Payments]
      operationId: listRefunds
      summary: List refunds
      description: The refunds of the customer's payments, newest first.
      security:
        - oauth2: [payments:read]
      parameters:
        - name: since
          in: query
          description: Only refunds made on or after this day.
          schema: { type: string, format: date }
      responses:
        '200':
          description: The refunds.
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  properties:
                    refundId: { type: string }
                    amount: { type: string }
              example:
                - refundId: ref-77
                  amount: '12.50'
`;
  return (V1.slice(0, at) + refunds + V1.slice(at)).replace('version: 1.2.0', 'version: 1.3.0');
}

test('an API manager previews a new version as developers will see it, before publishing it', async ({
  browser,
  page,
  context,
}) => {
  // Two sign-ins, an upload compared in the worker threads, the preview and axe runs.
  test.setTimeout(90_000);
  await signIn(page, e2eApiManager.email, e2eApiManager.password);
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
  await page.goto('/admin/apis');
  const row = page.getByTestId('api-row-payments-v1');
  await expect(row).toContainText('1.2.0');
  await row.getByRole('button', { name: new RegExp(M.uploadNewVersion) }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: M.fileLabel }).click();
  await (
    await chooser
  ).setFiles({ name: 'payments-v1.yaml', mimeType: 'application/yaml', buffer: Buffer.from(nextVersion()) });
  await page.getByRole('button', { name: M.upload }).click();
  await expect(
    page.getByRole('heading', { name: format(M.draftTitle, { version: '1.3.0', title: 'Payments API' }) }),
  ).toBeVisible();
  await expect(page.getByTestId('draft-preview')).toContainText('List refunds');

  // The preview opens in a tab of its own; the review stays.
  const [preview] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: M.previewOpen }).click(),
  ]);
  await expect(preview).toHaveURL(/\/admin\/apis\/payments-v1\/drafts\/[0-9a-f-]{36}\/preview$/);
  const draftId = /drafts\/([0-9a-f-]{36})\//.exec(preview.url())![1]!;
  const banner = preview.getByTestId('preview-banner');
  await expect(banner).toContainText(M.previewBannerTitle);
  await expect(banner).toContainText(format(M.previewBanner, { version: '1.3.0', title: 'Payments API' }));
  await expect(preview.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  // Never indexed: the page's HTML and the draft's answers say so.
  const html = await preview.request.get(preview.url());
  expect(html.headers()['x-robots-tag']).toContain('noindex');

  // The documentation page's reference: operations under their tags, the new one among them.
  const reference = preview.getByTestId('api-reference');
  await expect(reference.getByTestId('operation-tag').first()).toBeVisible();
  await expect(preview.locator('[data-operation="createPayment"]')).toBeVisible();
  const refunds = preview.locator('[data-operation="listRefunds"]');
  await expect(refunds).toContainText('List refunds');
  await refunds.locator('button[aria-expanded]').click();
  const details = preview.getByTestId('operation-details-listRefunds');
  await expect(details).toContainText("The refunds of the customer's payments, newest first.");
  await expect(details.getByTestId('parameters-query')).toContainText('since');
  await expect(details.getByTestId('response-200')).toContainText('ref-77');
  await expect(details.getByTestId('security-requirement')).toContainText('payments:read');
  // The sandbox answers the published version: no try-out in a preview.
  await expect(details.getByTestId('try-out')).toHaveCount(0);
  await expectNoViolations(preview, 'draft documentation preview');

  // A developer still reads the published version, and may not open the preview.
  const devContext = await browser.newContext();
  trackTraffic(devContext);
  const dev = await devContext.newPage();
  await signIn(dev, demoDeveloper.email, demoDeveloper.password);
  await dev.goto('/documentation/payments-v1');
  await expect(dev.locator('[data-operation="createPayment"]')).toBeVisible();
  await expect(dev.locator('[data-operation="listRefunds"]')).toHaveCount(0);
  const denied = await dev.request.get(
    `/admin-api/catalog/apis/payments-v1/drafts/${draftId}/documentation/index`,
  );
  expect(denied.status()).toBe(403);
  expect(await denied.text()).not.toContain('listRefunds');
  await dev.goto(`/admin/apis/payments-v1/drafts/${draftId}/preview`);
  await expect(dev.getByTestId('console-refused')).toBeVisible();
  await expect(dev.locator('[data-operation="listRefunds"]')).toHaveCount(0);
  await devContext.close();

  // Nothing was published: the list still shows version 1.2.0.
  await preview.close();
  const apis = await page.request.get('/admin-api/catalog/apis');
  const payments = ((await apis.json()) as { data: { alias: string; version: string | null }[] }).data.find(
    (a) => a.alias === 'payments-v1',
  );
  expect(payments?.version).toBe('1.2.0');

  // The API manager discards the draft, after a confirmation: it and its preview are gone.
  await page.getByRole('button', { name: M.discard }).click();
  const confirm = page.getByRole('dialog', { name: M.discardConfirmTitle });
  await expect(confirm).toContainText(format(M.discardConfirm, { version: '1.3.0', title: 'Payments API' }));
  await confirm.getByRole('button', { name: M.discard }).click();
  await expect(page.getByTestId('draft-discarded')).toHaveText(
    format(M.discarded, { version: '1.3.0', title: 'Payments API' }),
  );
  await expect(page.getByRole('heading', { name: /^Draft 1\.3\.0/ })).toHaveCount(0);
  await expectNoViolations(page, 'console API products after a discard');
  const gone = await page.request.get(`/admin-api/catalog/apis/payments-v1/drafts/${draftId}`);
  expect(gone.status()).toBe(404);
  const after = await page.request.get('/admin-api/catalog/apis');
  const drafts = ((await after.json()) as { data: { alias: string; drafts: { id: string }[] }[] }).data.find(
    (a) => a.alias === 'payments-v1',
  )?.drafts;
  expect(drafts?.map((d) => d.id)).not.toContain(draftId);
});
