import type { Page } from '@playwright/test';
import type { ConsoleProductListItem } from '@portico/contracts/console-products';
import { format } from '@portico/contracts/format';
import de from '../../apps/web/src/locales/de/console.json' with { type: 'json' };
import deShell from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import { expectNoViolations } from '../support/axe.ts';
import { demoAdmin, signInDecliningCookies } from '../support/session.ts';
import { expect, test } from '../support/traffic.ts';

/**
 * The provider console in German (issue 30): an administrator reads the console's main pages
 * under `/de/admin/...`, each with its German headings and labels (the web app's message files,
 * src/locales/de/console.json) and axe, then creates an API product in German, is refused an
 * invalid alias in German (the server's errors.json, decision 058) and deletes the product again.
 * The demo catalog is left as it was found (a failure deletes the product through the API).
 */
const C = de.console;
const I = de.apiImport;

/** The console page's own heading (the navigation has the console's title as text, not heading). */
async function expectHeading(page: Page, name: string) {
  await expect(page.getByRole('heading', { name, exact: true, level: 1 })).toBeVisible();
}

/** The console's navigation, in German. */
async function expectGermanNavigation(page: Page) {
  const nav = page.getByRole('navigation', { name: C.navLabel });
  await expect(nav.getByRole('link', { name: C.nav.audit })).toBeVisible();
  await expect(nav.getByRole('link', { name: C.nav.importApi })).toBeVisible();
}

/** Deletes the product the test made, if it is still there (after a failure). */
async function cleanUp(page: Page, alias: string) {
  const token = await (await page.request.get('/session/token')).text();
  const headers = { 'X-CSRF-Token': token, Accept: 'application/json' };
  const products = await page.request.get('/admin-api/catalog/products', { headers });
  if (!products.ok()) return;
  for (const p of ((await products.json()) as { data: ConsoleProductListItem[] }).data)
    if (p.alias === alias) await page.request.delete(`/admin-api/catalog/products/${p.id}`, { headers });
}

test.describe('the provider console in German', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeEach(async ({ page }) => {
    await signInDecliningCookies(page, demoAdmin.email, demoAdmin.password);
  });

  test("an administrator reads the console's main pages in German", async ({ page }) => {
    // The dashboard (the console's home for an administrator), with the link in the header.
    await page.goto('/de/admin');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expectHeading(page, C.title);
    await expect(page.getByRole('banner').getByRole('link', { name: C.link })).toHaveAttribute(
      'href',
      '/de/admin',
    );
    await expectGermanNavigation(page);
    await expect(page.getByRole('form', { name: C.dashboard.range })).toBeVisible();
    await expect(page.getByRole('button', { name: C.dashboard.apply })).toBeVisible();
    await expect(page.getByText(C.dashboard.activeOrganizations)).toBeVisible();
    // Its summaries write the range's days as German does (Intl, lib/text.ts).
    await expect(
      page.getByText(/^\d+ Registrierungen vom \d{2}\.\d{2}\.\d{4} bis \d{2}\.\d{2}\.\d{4}\.$/),
    ).toBeVisible();
    await expectNoViolations(page, 'console dashboard in German');

    // Users, with the list's German columns and dates.
    await page.goto('/de/admin/users');
    await expectHeading(page, C.users.title);
    await expect(page.getByRole('columnheader', { name: C.users.columns.lastSignIn })).toBeVisible();
    await expect(page.getByLabel(C.users.searchLabel)).toBeVisible();
    await expectNoViolations(page, 'console users in German');

    // The audit log.
    await page.goto('/de/admin/audit');
    await expectHeading(page, C.audit.title);
    await expect(page.getByRole('button', { name: C.audit.apply })).toBeVisible();
    await expect(page.getByRole('textbox', { name: C.audit.actor })).toBeVisible();
    await expect(page.getByRole('link', { name: C.audit.exportCsv })).toBeVisible();
    await expectNoViolations(page, 'console audit log in German');

    // API products: the APIs and the catalog's products.
    await page.goto('/de/admin/apis');
    await expectHeading(page, C.apis.title);
    await expect(page.getByRole('heading', { name: C.products.title })).toBeVisible();
    await expect(page.getByRole('link', { name: C.products.newProduct })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: C.apis.columns.operations })).toBeVisible();
    await expectNoViolations(page, 'console API products in German');

    // The API import.
    await page.goto('/de/admin/import-api');
    await expectHeading(page, I.title);
    await expect(page.getByText(I.intro)).toBeVisible();
    await expect(page.getByRole('button', { name: I.submit })).toBeVisible();
    await expectNoViolations(page, 'console API import in German');

    // Content: the articles, the basic pages, the site texts.
    await page.goto('/de/admin/content');
    await expectHeading(page, C.content.articles.title);
    await expect(page.getByRole('link', { name: C.content.articles.newArticle })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: C.content.articles.columns.changed })).toBeVisible();
    await expectNoViolations(page, 'console articles in German');

    await page.goto('/de/admin/content/pages');
    await expectHeading(page, C.pages.list.title);
    await expect(page.getByRole('link', { name: C.pages.list.newPage })).toBeVisible();
    await expect(page.getByText(C.pages.list.intro)).toBeVisible();
    await expectNoViolations(page, 'console pages in German');

    await page.goto('/de/admin/content/site');
    await expectHeading(page, C.site.title);
    await expect(page.getByRole('tab', { name: C.site.tabs.footer })).toBeVisible();
    await expect(page.getByRole('button', { name: C.site.saveDraft })).toBeVisible();
    await expectNoViolations(page, 'console site texts in German');
  });

  test('an administrator creates an API product in German, is refused a bad alias in German and deletes it', async ({
    page,
  }) => {
    const n = Date.now().toString(36);
    const alias = `e2e-kredit-api-${n}`;
    const title = `E2E Kredit-API ${n}`;
    const E = C.products.editor;
    try {
      await page.goto('/de/admin/apis');
      await page.getByRole('link', { name: C.products.newProduct }).click();
      await expect(page).toHaveURL(/\/de\/admin\/apis\/products\/new$/);
      await expectHeading(page, E.newTitle);
      const form = page.getByRole('form', { name: E.formLabel });
      await form.getByRole('textbox', { name: E.aliasLabel }).fill('Kein gültiger Alias');
      await form.getByRole('textbox', { name: E.titleLabel, exact: true }).fill(title);
      await form.getByRole('button', { name: E.create }).click();
      // The server's refusal, in the page's language.
      await expect(page.getByRole('alert')).toContainText(C.products.errors.aliasInvalid);
      await expectNoViolations(page, 'console new product with an error in German');

      // A check whose message is zod's own (a version longer than 32 characters): in German too.
      await form.getByRole('textbox', { name: E.aliasLabel }).fill(alias);
      const version = form.getByRole('textbox', { name: E.productVersionLabel });
      await version.fill('v'.repeat(40));
      await form.getByRole('button', { name: E.create }).click();
      await expect(page.getByText('Zu groß: erwartet, dass string <=32 Zeichen hat')).toBeVisible();
      await version.fill('');
      await form.getByRole('button', { name: E.create }).click();
      await expect(page).toHaveURL(/\/de\/admin\/apis\/products\/[0-9a-f-]{36}$/);
      await expect(page.getByTestId('product-version')).toHaveText(format(E.version, { version: 1 }));
      await expectHeading(page, format(E.title, { title }));

      await page.getByRole('button', { name: E.delete }).click();
      const dialog = page.getByRole('dialog', { name: E.delete });
      await expect(dialog).toHaveCSS('opacity', '1');
      await expect(dialog).toContainText(format(E.deleteConfirm, { title }));
      await expectNoViolations(page, 'console delete dialog in German');
      await dialog.getByRole('button', { name: E.deleteConfirmButton }).click();
      await expect(page).toHaveURL(/\/de\/admin\/apis$/);
      await expect(page.getByTestId('products-status')).toHaveText(format(E.deleted, { title }));
      await expect(page.getByRole('table', { name: C.products.listLabel })).not.toContainText(title);
      // The shell around the console is German too.
      await expect(
        page.getByRole('banner').getByRole('button', { name: deShell.user.signOut }),
      ).toBeVisible();
    } finally {
      await cleanUp(page, alias);
    }
  });
});
