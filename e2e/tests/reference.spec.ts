import { expect, test, type Locator } from '@playwright/test';
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

/**
 * Issue 26: GitHub's webhooks description has summaries of a paragraph; beside one, a webhook's
 * name was squeezed into a column about 50 px wide. The demo webhook is served with such a summary
 * (the page and its index rewritten on the way), and its name must keep its own width, on the
 * server's first screen and in the app, wide and narrow.
 */
const LONG_SUMMARY =
  'This event occurs when there is activity relating to branch protection rules. For more ' +
  'information, see About protected branches. For information about the APIs to manage branch ' +
  'protection rules, see the GraphQL documentation or Branch protection in the REST API ' +
  'documentation. To subscribe to this event, a GitHub App must have at least read-level access ' +
  'for the Administration repository permission.';

/** The name's box and the width its text takes on one line (a hidden copy that never wraps). */
function widths(name: Locator): Promise<{ box: number; text: number; summary: number; line: number }> {
  return name.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    copy.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap;width:auto;max-width:none';
    el.parentElement!.appendChild(copy);
    const text = copy.getBoundingClientRect().width;
    copy.remove();
    const summary = [...el.parentElement!.children].find((c) => c.textContent?.startsWith('This event'));
    const row = getComputedStyle(el.parentElement!);
    return {
      box: el.getBoundingClientRect().width,
      text,
      summary: summary?.getBoundingClientRect().width ?? 0,
      // The row's width inside its padding: what a line of it can hold.
      line: el.parentElement!.clientWidth - parseFloat(row.paddingLeft) - parseFloat(row.paddingRight),
    };
  });
}

for (const width of [1280, 375]) {
  test(`a webhook's name keeps its width beside a long summary at ${width} px`, async ({ browser }) => {
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
      try {
        const page = await context.newPage();
        await page.route(
          /\/(documentation\/payments-v1|api\/apidocs\/payments-v1\/index)(\?|$)/,
          async (route) => {
            const response = await route.fetch();
            const headers = { ...response.headers() };
            delete headers['content-length'];
            delete headers['content-encoding'];
            const body = (await response.text()).replaceAll('Payment status changed', LONG_SUMMARY);
            await route.fulfill({ status: response.status(), headers, body });
          },
        );
        await page.goto('/documentation/payments-v1');
        // Without script the server's first screen stays; with it the app's reference replaces it.
        const row = javaScriptEnabled
          ? page.getByTestId('webhook')
          : page.locator('[data-operation-key="paymentStatusChanged"]');
        await row.scrollIntoViewIfNeeded();
        await expect(row).toContainText(LONG_SUMMARY);
        const name = row.getByText('paymentStatusChanged', { exact: true });
        const { box, text, summary, line } = await widths(name);
        const where = `${javaScriptEnabled ? 'app' : 'first screen'} at ${width} px`;
        expect.soft(box, `the name's box on the ${where}`).toBeGreaterThanOrEqual(text - 0.5);
        expect
          .soft(summary, `the summary's box on the ${where}`)
          .toBeGreaterThanOrEqual(Math.min(400, line - 1));
      } finally {
        await context.close();
      }
    }
  });
}
