import type { Page } from '@playwright/test';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { e2eApiManager, signIn } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * An API manager orders the catalog's products from the keyboard, deprecates the demo's FX Rates
 * API with the Payments API as its successor, a visitor's 'GO TO NEW VERSION' leads there, and the
 * manager undoes it all (issue 27): the demo catalog is left as it was found, which other specs read.
 */
const M = en.console.products;
const P = en.products;
// Two browsers, several saves and axe runs.
test.describe.configure({ timeout: 120_000 });

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

const rowTitles = (page: Page) =>
  page.getByTestId('console-product-row').locator('td:nth-child(2) p:first-child').allTextContents();

test('an API manager deprecates a product with a successor; a visitor goes to the new version; the manager undoes it', async ({
  browser,
  page,
}) => {
  await signIn(page, e2eApiManager.email, e2eApiManager.password);
  await declineCookies(page);
  await page.goto('/admin');
  await page
    .getByRole('navigation', { name: en.console.navLabel })
    .getByRole('link', { name: en.console.nav.products })
    .click();
  await expect(page).toHaveURL(/\/admin\/apis$/);
  const table = page.getByRole('table', { name: M.listLabel });
  await expect(table.getByTestId('console-product-row')).toHaveCount(5);
  const before = await rowTitles(page);
  expect(before.slice(0, 4)).toEqual(['Accounts API', 'Payments API', 'FX Rates API', 'Get Token API']);
  await expectNoViolations(page, 'console API products with the product list');

  // Moved down and back up from the keyboard: the focus stays on the moved product's buttons.
  const down = page.getByRole('button', { name: format(M.moveDown, { title: 'FX Rates API' }) });
  await down.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('products-status')).toHaveText(format(M.moved, { title: 'FX Rates API' }));
  await expect
    .poll(() => rowTitles(page))
    .toEqual(['Accounts API', 'Payments API', 'Get Token API', 'FX Rates API', 'Accounts API']);
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: format(M.moveUp, { title: 'FX Rates API' }) })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => rowTitles(page)).toEqual(before);

  // The form, with its preview.
  await page.getByRole('link', { name: format(M.editLabel, { title: 'FX Rates API' }) }).click();
  await expect(page).toHaveURL(/\/admin\/apis\/products\/[0-9a-f-]{36}$/);
  const form = page.getByRole('form', { name: M.editor.formLabel });
  await expect(form.getByRole('textbox', { name: M.editor.titleLabel, exact: true })).toHaveValue(
    'FX Rates API',
  );
  const preview = page.getByTestId('product-preview');
  await expect(preview).toContainText('FX Rates API');
  await expectNoViolations(page, 'console product form');

  await form.getByLabel(M.editor.deprecatedLabel).check();
  await form.getByRole('combobox', { name: M.editor.successorLabel }).click();
  await page.getByRole('option', { name: /^Payments API/ }).click();
  await expect(preview).toContainText(P.goToNewVersion);
  await expect(preview).toContainText('/payments-api-v1');
  await expectNoViolations(page, 'console product form with a successor');
  await form.getByRole('button', { name: M.editor.save }).click();
  await expect(page.getByTestId('product-saved')).toBeVisible();

  // A visitor on the deprecated product is led to the Payments API.
  const visitorContext = await browser.newContext();
  trackTraffic(visitorContext);
  const visitor = await visitorContext.newPage();
  await visitor.goto('/apiProduct/fx-rates-api-v2');
  await declineCookies(visitor);
  await expect(visitor.getByRole('heading', { level: 1, name: 'FX Rates API' })).toBeVisible();
  const popup = visitor.getByTestId('deprecated-popup');
  await expect(popup.getByText(P.deprecatedTitle)).toBeVisible();
  await expect(popup).toContainText('Payments API');
  await popup.getByRole('link', { name: P.goToNewVersion }).click();
  await expect(visitor).toHaveURL(/\/apiProduct\/payments-api-v1$/);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Payments API' })).toBeVisible();

  // The manager undoes it: the product is supported again, with no successor.
  await form.getByLabel(M.editor.deprecatedLabel).uncheck();
  await expect(form.getByRole('combobox', { name: M.editor.successorLabel })).toHaveCount(0);
  await form.getByRole('button', { name: M.editor.save }).click();
  await expect(page.getByTestId('product-saved')).toContainText(/version \d+/);
  await expect(preview).not.toContainText(P.goToNewVersion);

  await visitor.goto('/apiProduct/fx-rates-api-v2');
  await expect(visitor.getByRole('heading', { level: 1, name: 'FX Rates API' })).toBeVisible();
  await expect(visitor.getByTestId('deprecated-popup')).toHaveCount(0);
  await visitor.goto('/');
  const products = await visitor.request.get('/jsonapi/node/api_product');
  const titles = ((await products.json()) as { data: { attributes: { title: string } }[] }).data.map(
    (d) => d.attributes.title,
  );
  expect(titles).toEqual(['Accounts API', 'Payments API', 'FX Rates API', 'Get Token API']);
  await visitorContext.close();

  await page.getByRole('link', { name: M.editor.back }).click();
  await expect(page.getByRole('table', { name: M.listLabel })).toContainText('FX Rates API');
  expect(await rowTitles(page)).toEqual(before);
});

test('an API manager edits a product twice, compares the first save with now and restores it; the product is put back', async ({
  page,
}) => {
  const R = en.console.content.revisions;
  const version = (n: number) => R.version.replace('{{version}}', String(n));
  await signIn(page, e2eApiManager.email, e2eApiManager.password);
  await declineCookies(page);
  await page.goto('/admin/apis');
  await page.getByRole('link', { name: format(M.editLabel, { title: 'Get Token API' }) }).click();
  const form = page.getByRole('form', { name: M.editor.formLabel });
  const label = form.getByRole('textbox', { name: M.editor.labelLabel, exact: true });
  await expect(form.getByRole('textbox', { name: M.editor.titleLabel, exact: true })).toHaveValue(
    'Get Token API',
  );
  const original = await label.inputValue();
  const saved = page.getByTestId('product-saved');

  await label.fill('ALPHA');
  await expect(page.getByTestId('product-unsaved')).toBeVisible();
  await form.getByRole('button', { name: M.editor.save }).click();
  await expect(saved).toBeVisible();
  const first = Number(/(\d+)/.exec((await saved.textContent()) ?? '')![1]);
  await label.fill('BETA');
  await form.getByRole('button', { name: M.editor.save }).click();
  await expect(saved).toHaveText(format(M.editor.saved, { version: first + 1 }));

  // The first save compared with now: its label removed, the current one added; then restored.
  const revisions = page.getByTestId('product-revisions');
  await expect(revisions).toContainText(version(first + 1));
  const entry = revisions
    .locator('div')
    .filter({ hasText: version(first) })
    .last();
  await entry.getByRole('button', { name: R.show }).click();
  await expect(entry).toContainText(M.editor.labelLabel);
  await expect(entry.locator('del')).toHaveText('ALPHA');
  await expect(entry.locator('ins')).toHaveText('BETA');
  await expectNoViolations(page, 'console product form with its revisions');
  await entry.getByRole('button', { name: R.restore }).click();
  await expect(label).toHaveValue('ALPHA');
  await expect(revisions).toContainText(version(first + 2));
  await expect(page.getByTestId('product-version')).toHaveText(
    format(M.editor.version, { version: first + 2 }),
  );

  // Put back as it was found.
  await label.fill(original);
  await form.getByRole('button', { name: M.editor.save }).click();
  await expect(saved).toHaveText(format(M.editor.saved, { version: first + 3 }));
  await page.reload();
  await expect(
    page
      .getByRole('form', { name: M.editor.formLabel })
      .getByRole('textbox', { name: M.editor.labelLabel, exact: true }),
  ).toHaveValue(original);
});
