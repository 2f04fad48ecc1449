import { expect, test } from '@playwright/test';
import { en } from '@portico/contracts/messages';

const P = en.products;

test('webhooks have their own section with payload and expected answers, and are counted apart', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/documentation/payments-v1');
  await expect(page.getByTestId('operation-count')).toHaveText('4 operations · 1 webhook');
  await expect(page.getByTestId('operation')).toHaveCount(4);

  const heading = page.getByTestId('webhooks-heading');
  await heading.scrollIntoViewIfNeeded();
  await expect(heading).toHaveText(P.webhooks);
  await expect(page.getByText(P.webhooksIntro)).toBeVisible();
  const webhook = page.getByTestId('webhook');
  await expect(webhook).toHaveCount(1);
  await expect(webhook).toContainText('paymentStatusChanged');
  await expect(webhook).toContainText(P.webhookBadge);

  const toggle = webhook.getByRole('button', { name: /POST paymentStatusChanged/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page).toHaveURL(/#operation\/paymentStatusChanged$/);
  const details = page.getByTestId('operation-details-paymentStatusChanged');
  await expect(details.getByRole('heading', { name: P.webhookPayload })).toBeVisible();
  await expect(details.getByRole('heading', { name: P.webhookResponses })).toBeVisible();
  await expect(details).toContainText('eventId');
  await expect(details).toContainText('settled');
  await expect(details.getByTestId('response-410')).toContainText('notifications for it stop');
  await expect(details.getByTestId('parameters-header')).toContainText('X-Signature');
  // Nothing to call: no request samples for a request the API sends.
  await expect(details.getByRole('tablist', { name: P.requestSamples })).toHaveCount(0);

  // The search finds webhooks too.
  await page.getByLabel(P.searchOperations).fill('status changed');
  await expect(page.getByTestId('operation-count')).toHaveText('1 webhook');
  await expect(page.getByTestId('operation')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("the count says '1 operation' / 'N operations'; samples put values, not type names", async ({
  page,
}) => {
  await page.goto('/documentation/accounts-v1');
  await expect(page.getByTestId('operation-count')).toHaveText('4 operations');
  await page.getByLabel(P.searchOperations).fill('transactions');
  await expect(page.getByTestId('operation-count')).toHaveText('1 operation');

  await page.goto('/documentation/payments-v1#operation/getPayment');
  const curl = page.getByTestId('operation-details-getPayment').getByTestId('sample-curl');
  await expect(curl).toContainText('/sandbox/payments-v1/payments/12345');
  await expect(curl).not.toContainText('/payments/string');
});
