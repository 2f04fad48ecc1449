import type { Browser, Page } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import deShell from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import { expectNoViolations } from '../support/axe.ts';
import { consoleCall, contentEditor } from '../support/console.ts';
import { signInDecliningCookies } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * The site's own texts in German (issue 30, decision 064): a reader on /de/ sees the demo
 * content's German footer, banners and cookie popup; a content editor translates one footer text
 * in the console (/admin/content/site) and the German home page shows it. The demo overlay is put
 * back at the end.
 */
const LAYOUT = '/admin-api/site/block-layout/translations';

test.describe.configure({ timeout: 90_000 });

/** A German reader's home page in a browser of its own. */
async function germanHome(browser: Browser, check: (reader: Page) => Promise<void>) {
  const context = await browser.newContext({ locale: 'de-DE' });
  trackTraffic(context);
  try {
    const reader = await context.newPage();
    await reader.goto('/de/');
    await check(reader);
  } finally {
    await context.close();
  }
}

test('a German reader sees the site texts in German; an editor translates a footer text', async ({
  page,
  browser,
}) => {
  await germanHome(browser, async (reader) => {
    const popup = reader.getByRole('dialog', { name: deShell.cookies.settingsTitle });
    await expect(popup.getByText('Diese Website verwendet Cookies')).toBeVisible();
    await expect(
      popup.getByText('Ich bin mit der Verwendung von Cookies zur Analyse einverstanden'),
    ).toBeVisible();
    await expect(reader.getByRole('heading', { name: 'API-Studio-Sitzungen' })).toBeVisible();
    const footer = reader.getByRole('contentinfo');
    await expect(footer.getByRole('heading', { name: 'Rechtliches' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Datenschutzerklärung' })).toHaveAttribute(
      'href',
      /privacy/,
    );
    // Translated: nothing of the document is marked as English.
    await expect(
      footer.getByRole('heading', { name: 'Rechtliches' }).locator('xpath=..'),
    ).not.toHaveAttribute('lang', 'en');
    // The bottom banners load once they come near the viewport.
    await footer.scrollIntoViewIfNeeded();
    await expect(reader.getByRole('heading', { name: 'Registrieren', exact: true })).toBeVisible();
    await expect(reader.getByText('Legen Sie Ihr Entwicklerkonto')).toBeVisible();
    await expectNoViolations(reader, 'the German home page with the site texts');
    await popup.getByRole('button', { name: deShell.cookies.decline }).click();
    await expect(popup).toBeHidden();
  });

  await signInDecliningCookies(page, contentEditor.email, contentEditor.password);
  const demo = await consoleCall(page, 'GET', LAYOUT);
  expect(demo.status).toBe(200);
  const demoFields = (
    demo.body as { data: { langcode: string; fields: Record<string, string> }[] }
  ).data.find((r) => r.langcode === 'de')!.fields;

  try {
    await page.goto('/admin/content/site');
    const german = page.getByTestId('translation-de');
    await german
      .getByRole('button', { name: en.translations.console.open.replace('{{language}}', 'Deutsch') })
      .click();
    // Each English text labels the field of its German.
    const legal = german.getByLabel('Legal (Deutsch)', { exact: true });
    await expect(legal).toHaveValue('Rechtliches');
    await legal.fill('Recht und Datenschutz');
    await german.getByRole('button', { name: en.translations.console.save }).click();
    await expect(german.getByRole('status')).toHaveText(
      en.translations.console.saved.replace('{{language}}', 'Deutsch'),
    );
    await expectNoViolations(page, 'the site texts with their translations');

    await germanHome(browser, async (reader) => {
      const footer = reader.getByRole('contentinfo');
      await expect(footer.getByRole('heading', { name: 'Recht und Datenschutz' })).toBeVisible();
      await expect(footer.getByRole('heading', { name: 'Rechtliches' })).toHaveCount(0);
    });
    // English readers keep the document's own text.
    await page.goto('/');
    await expect(page.getByRole('contentinfo').getByRole('heading', { name: 'Legal' })).toBeVisible();
  } finally {
    expect((await consoleCall(page, 'PUT', `${LAYOUT}/de`, { fields: demoFields })).status).toBe(200);
  }
});
