import type { Page } from '@playwright/test';
import type {
  ConsoleComparisonTableListItem,
  ConsoleProductListItem,
} from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { expectNoViolations } from '../support/axe.ts';
import { demoDeveloper, e2eApiManager, signIn } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * An API manager creates a product, writes its first changelog entry and a comparison table with
 * a text row and a yes/no row shown on it, each with its preview; a developer sees all of it on
 * the product page; the manager deletes the table and the product (issue 27). The demo catalog is
 * left as it was found (a failure deletes what the test made through the API).
 */
const M = en.console.products;
const C = M.comparison;
const L = M.changelog;

async function declineCookies(page: Page): Promise<void> {
  await page
    .getByRole('dialog', { name: en.cookies.settingsTitle })
    .getByRole('button', { name: en.cookies.decline })
    .click();
}

/** Deletes what the test made, if it is still there (after a failure). */
async function cleanUp(page: Page, alias: string, key: string) {
  const token = await (await page.request.get('/session/token')).text();
  const headers = { 'X-CSRF-Token': token, Accept: 'application/json' };
  const tables = await page.request.get('/admin-api/catalog/comparison-tables', { headers });
  if (tables.ok()) {
    for (const x of ((await tables.json()) as { data: ConsoleComparisonTableListItem[] }).data)
      if (x.key === key)
        await page.request.delete(`/admin-api/catalog/comparison-tables/${x.id}`, { headers });
  }
  const products = await page.request.get('/admin-api/catalog/products', { headers });
  if (products.ok()) {
    for (const p of ((await products.json()) as { data: ConsoleProductListItem[] }).data)
      if (p.alias === alias) await page.request.delete(`/admin-api/catalog/products/${p.id}`, { headers });
  }
}

test('an API manager creates a product with a changelog entry and a comparison table; a developer sees them; the manager deletes them', async ({
  browser,
  page,
}) => {
  test.setTimeout(90_000);
  const n = Date.now().toString(36);
  const alias = `e2e-loans-api-${n}`;
  const key = `e2e-loans-${n}`;
  const title = `E2E Loans API ${n}`;

  await signIn(page, e2eApiManager.email, e2eApiManager.password);
  await declineCookies(page);
  try {
    await page.goto('/admin/apis');
    const list = page.getByRole('table', { name: M.listLabel });
    await expect(list.getByTestId('console-product-row')).toHaveCount(5);

    // The new product, with its preview.
    await page.getByRole('link', { name: M.newProduct }).click();
    await expect(page).toHaveURL(/\/admin\/apis\/products\/new$/);
    const form = page.getByRole('form', { name: M.editor.formLabel });
    await form.getByRole('textbox', { name: M.editor.aliasLabel }).fill(alias);
    await form.getByRole('textbox', { name: M.editor.productVersionLabel }).fill('1.0');
    await form.getByRole('textbox', { name: M.editor.titleLabel, exact: true }).fill(title);
    await form
      .getByRole('textbox', { name: M.editor.descriptionLabel })
      .fill('<p>Loan offers in seconds.</p>');
    const preview = page.getByTestId('product-preview');
    await expect(preview).toContainText(title);
    await expect(preview).toContainText('Loan offers in seconds.');
    await expectNoViolations(page, 'console new product form');
    await form.getByRole('button', { name: M.editor.create }).click();
    await expect(page).toHaveURL(/\/admin\/apis\/products\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('product-version')).toHaveText(format(M.editor.version, { version: 1 }));

    // Its first changelog entry, in Markdown with the preview.
    const changelog = page.getByTestId('changelog-editor');
    await expect(changelog).toContainText(L.empty);
    await changelog.getByRole('button', { name: L.add }).click();
    const entry = changelog.getByRole('form', { name: L.title });
    await entry.getByRole('textbox', { name: L.versionLabel }).fill('1.0');
    await entry.getByLabel(L.dateLabel).fill('2026-12-01');
    await entry.getByRole('textbox', { name: L.notesLabel }).fill('**Launch** of the loan offers.');
    await expect(changelog.getByTestId('changelog-preview').locator('strong')).toHaveText('Launch');
    await expectNoViolations(page, 'console changelog entry form');
    await entry.getByRole('button', { name: L.save }).click();
    await expect(changelog.getByTestId('changelog-status')).toHaveText(L.saved);
    await expect(changelog.getByTestId('changelog-entry')).toHaveCount(1);
    await expect(changelog.getByTestId('changelog-entry')).toContainText('Launch of the loan offers.');

    // The entry edited in its own form, with the version it was opened at: a revision of each save.
    await changelog.getByRole('button', { name: format(L.editLabel, { version: '1.0' }) }).click();
    const saved = changelog.getByRole('form', { name: format(L.editTitle, { version: '1.0' }) });
    await saved.getByRole('textbox', { name: L.notesLabel }).fill('**Launch** of the loan offers in EUR.');
    await saved.getByRole('button', { name: L.save }).click();
    await expect(
      changelog.getByRole('status').filter({ hasText: format(L.savedVersion, { version: 2 }) }),
    ).toBeVisible();
    const entryRevisions = changelog.getByTestId('changelog-revisions');
    await expect(entryRevisions).toContainText(format(en.console.content.revisions.version, { version: 2 }));
    await entryRevisions.getByRole('button', { name: en.console.content.revisions.show }).click();
    await expect(entryRevisions.locator('ins')).toHaveText([/^\s*in EUR\s*$/]);
    await expectNoViolations(page, 'console changelog entry with its revisions');
    await expect(changelog.getByTestId('changelog-entry')).toContainText('Launch of the loan offers in EUR.');
    await saved.getByRole('button', { name: L.close }).click();

    // A comparison table shown on the new product: a text row and a yes/no row.
    await page.goto('/admin/apis');
    await page.getByRole('link', { name: C.newTable }).click();
    await expect(page).toHaveURL(/\/admin\/apis\/comparison-tables\/new$/);
    const table = page.getByRole('form', { name: C.formLabel });
    await table.getByRole('textbox', { name: C.keyLabel }).fill(key);
    await table.getByRole('textbox', { name: C.titleLabel, exact: true }).fill('Compare the loan APIs');
    await table.getByRole('combobox', { name: format(C.columnProduct, { n: 1 }) }).click();
    await page.getByRole('option', { name: new RegExp(`^${title}`) }).click();
    await table.getByRole('textbox', { name: format(C.columnTitle, { n: 2 }) }).fill('Branch loans');
    await table.getByRole('button', { name: C.addRow }).click();
    await table.getByRole('textbox', { name: format(C.rowTitle, { n: 1 }) }).fill('Rate');
    await table.getByRole('textbox', { name: format(C.rowValue, { n: 1, column: 1 }) }).fill('3%');
    await table.getByRole('textbox', { name: format(C.rowValue, { n: 1, column: 2 }) }).fill('5%');
    await table.getByRole('button', { name: C.addRow }).click();
    await table.getByRole('combobox', { name: format(C.rowType, { n: 2 }) }).click();
    await page.getByRole('option', { name: C.types.comparison_boolean_row }).click();
    await table.getByRole('textbox', { name: format(C.rowTitle, { n: 2 }) }).fill('Online');
    await table.getByLabel(format(C.rowValue, { n: 2, column: 1 })).check();
    await table.getByRole('combobox', { name: C.productsLabel }).click();
    await page.getByRole('option', { name: new RegExp(`^${title}`) }).click();
    await page.keyboard.press('Escape');
    const tablePreview = page.getByTestId('comparison-preview');
    await expect(tablePreview.getByRole('columnheader', { name: title })).toBeVisible();
    await expect(tablePreview.getByRole('columnheader', { name: 'Branch loans' })).toBeVisible();
    await expect(tablePreview.getByRole('row', { name: /Rate/ })).toContainText('3%');
    await expect(tablePreview.getByRole('img', { name: en.products.yes })).toHaveCount(1);
    await expectNoViolations(page, 'console comparison table form');
    await table.getByRole('button', { name: C.create }).click();
    await expect(page).toHaveURL(/\/admin\/apis\/comparison-tables\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('comparison-version')).toHaveText(format(C.version, { version: 1 }));

    // A developer sees the product, its changelog and the table on the product page.
    const devContext = await browser.newContext();
    trackTraffic(devContext);
    const dev = await devContext.newPage();
    await signIn(dev, demoDeveloper.email, demoDeveloper.password);
    await declineCookies(dev);
    await dev.goto(`/apiProduct/${alias}`);
    await expect(dev.getByRole('heading', { level: 1, name: title })).toBeVisible();
    const shown = dev.getByTestId('comparison-table');
    await expect(shown.getByRole('columnheader', { name: 'Branch loans' })).toBeVisible();
    await expect(shown.getByRole('row', { name: /Rate/ })).toContainText('5%');
    await expect(
      shown.getByRole('row', { name: /Online/ }).getByRole('img', { name: en.products.yes }),
    ).toHaveCount(1);
    await expect(dev.getByTestId('changelog')).toContainText('Launch of the loan offers in EUR.');
    await expect(dev.getByTestId('changelog').locator('strong')).toHaveText('Launch');
    await expectNoViolations(dev, 'product page with a console changelog and comparison table');
    await devContext.close();

    // The manager deletes the table, then the product.
    await page.getByRole('button', { name: C.delete }).click();
    await page
      .getByRole('dialog', { name: C.delete })
      .getByRole('button', { name: C.deleteConfirmButton })
      .click();
    await expect(page).toHaveURL(/\/admin\/apis$/);
    await expect(page.getByTestId('products-status')).toHaveText(
      format(C.deleted, { title: 'Compare the loan APIs' }),
    );
    await page.getByRole('link', { name: format(M.editLabel, { title }) }).click();
    await page.getByRole('button', { name: M.editor.delete }).click();
    await page
      .getByRole('dialog', { name: M.editor.delete })
      .getByRole('button', { name: M.editor.deleteConfirmButton })
      .click();
    await expect(page).toHaveURL(/\/admin\/apis$/);
    await expect(page.getByTestId('products-status')).toHaveText(format(M.editor.deleted, { title }));
    await expect(list.getByTestId('console-product-row')).toHaveCount(5);
    await expect(page.getByTestId('console-comparison-tables')).not.toContainText('Compare the loan APIs');
  } finally {
    await cleanUp(page, alias, key);
  }
});
