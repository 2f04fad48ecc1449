import { en } from '@portico/contracts/messages';
import deShell from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import deProducts from '../../apps/web/src/locales/de/products.json' with { type: 'json' };
import deTranslations from '../../apps/web/src/locales/de/translations.json' with { type: 'json' };
import { expectNoViolations } from '../support/axe.ts';
import { consoleCall, openGermanTranslation, saveGermanTranslation } from '../support/console.ts';
import { e2eApiManager, signInDecliningCookies } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * Documentation translations (issue 30, decision 063): a German reader reads the demo
 * documentation's German description and tag descriptions (content/catalog/documentation.yaml),
 * and an untranslated one in English with a note and `lang="en"`; an API manager saves a German
 * title in the console's Translations panel, which the German page then shows. The demo
 * translation it changes is put back at the end.
 */
const P = deProducts.products;
const T = deTranslations.translations;
const M = en.console.apis;
const DOCS = '/admin-api/catalog/documentations';

test.describe.configure({ timeout: 90_000 });

const documentationHeading = (title: string) => P.documentationTitle.replace('{{title}}', title);

test("the German documentation page's first screen is German before any script runs", async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE', javaScriptEnabled: false });
  trackTraffic(context);
  try {
    const reader = await context.newPage();
    await reader.goto('/de/documentation/accounts-v1');
    await expect(reader.locator('html')).toHaveAttribute('lang', 'de');
    await expect(reader).toHaveTitle(`${documentationHeading('Konten-API')} | ${deShell.site.title}`);
    await expect(
      reader.getByRole('heading', { level: 1, name: documentationHeading('Konten-API') }),
    ).toBeVisible();
    await expect(reader.getByRole('heading', { level: 2, name: P.reference })).toBeVisible();
    await expect(reader.getByText('Kontoinformationsdienst der PSD2')).toBeVisible();
    const balances = reader.locator('details', { hasText: '/accounts/{accountId}/balances' });
    await balances.locator('summary').click();
    await expect(balances.getByRole('heading', { name: P.parameters })).toBeVisible();
    await expect(balances.getByRole('heading', { name: P.responses })).toBeVisible();
    await expect(reader.getByRole('navigation', { name: deShell.layout.breadcrumb })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a German reader reads the documentation in German, an untranslated one marked', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  trackTraffic(context);
  try {
    const reader = await context.newPage();
    await reader.goto('/de/documentation/accounts-v1');
    await expect(
      reader.getByRole('heading', { level: 1, name: documentationHeading('Konten-API') }),
    ).toBeVisible();
    await expect(reader.getByTestId('api-description')).toContainText('Kontoinformationsdienst der PSD2');
    // The tags' headings with their German descriptions.
    const balances = reader.getByTestId('operation-tag').filter({ hasText: /^Balances$/ });
    await expect(balances).toBeVisible();
    await expect(reader.getByText('Gebuchte und verfügbare Salden eines Kontos.')).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
    await expectNoViolations(reader, 'a translated documentation in German');

    await reader.goto('/de/documentation/accounts-v0');
    await expect(reader.getByTestId('translation-fallback')).toHaveText(T.fallbackNote);
    await expect(reader.getByTestId('api-description')).toHaveAttribute('lang', 'en');
    await expectNoViolations(reader, 'an untranslated documentation in German');
  } finally {
    await context.close();
  }
});

test("an API manager saves a German title in the documentation's Translations panel", async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const title = `Devisenkurse ${stamp}`;
  await signInDecliningCookies(page, e2eApiManager.email, e2eApiManager.password);
  // The demo translation, put back at the end.
  const before = await consoleCall(page, 'GET', `${DOCS}/fx-rates-v2/translations`);
  expect(before.status).toBe(200);
  const demo = (before.body as { data: { langcode: string; fields: Record<string, unknown> }[] }).data.find(
    (r) => r.langcode === 'de',
  );
  expect(demo).toBeTruthy();

  try {
    await page.goto('/admin/apis');
    await page.getByRole('button', { name: `${M.translate}: FX Rates API` }).click();
    const german = await openGermanTranslation(page.getByTestId('documentation-translations'));
    await expect(german.getByLabel(`${M.translationTitle} (Deutsch)`)).toHaveValue('Devisenkurs-API');
    await expect(german.getByLabel(`${M.translationTag.replace('{{tag}}', 'Rates')} (Deutsch)`)).toHaveValue(
      'Aktuelle und historische Kurse.',
    );
    await saveGermanTranslation(german, { [M.translationTitle]: title });
    await expectNoViolations(page, 'the APIs with a documentation translation');

    const context = await browser.newContext({ locale: 'de-DE' });
    trackTraffic(context);
    try {
      const reader = await context.newPage();
      await reader.goto('/de/documentation/fx-rates-v2');
      await expect(
        reader.getByRole('heading', { level: 1, name: documentationHeading(title) }),
      ).toBeVisible();
      await expect(reader.getByTestId('api-description')).toContainText(
        'Indikative und handelbare Devisenkurse',
      );
    } finally {
      await context.close();
    }
    // English readers keep the document's own title.
    await page.goto('/documentation/fx-rates-v2');
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: en.products.documentationTitle.replace('{{title}}', 'FX Rates API'),
      }),
    ).toBeVisible();
  } finally {
    const fields = demo!.fields;
    const restored = await consoleCall(page, 'PUT', `${DOCS}/fx-rates-v2/translations/de`, {
      fields: { title: fields.title, description: fields.description, tags: fields.tags },
    });
    expect(restored.status).toBe(200);
  }
});
