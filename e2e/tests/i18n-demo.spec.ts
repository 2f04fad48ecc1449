import type { Browser } from '@playwright/test';
import { en } from '@portico/contracts/messages';
import deTranslations from '../../apps/web/src/locales/de/translations.json' with { type: 'json' };
import { expectNoViolations } from '../support/axe.ts';
import { consoleCall, contentEditor } from '../support/console.ts';
import { e2eApiManager, signInDecliningCookies } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * The demo content in German (issue 30, decision 063): content/ carries a German translation of
 * every article, basic page, FAQ question and API product, which a German reader reads under /de/.
 * An item without a translation is shown in English, marked `lang="en"`, with a note; the console's
 * translations panel of a FAQ question and of an API product gives it its German. The items the
 * test translates are its own, and deleted at the end.
 */
const T = deTranslations.translations;
const C = en.translations.console;

test.describe.configure({ timeout: 90_000 });

const idOf = (res: { body: unknown }) => (res.body as { data: { id: string } }).data.id;

/** A German reader's page (its own browser context, closed by the caller). */
async function germanReader(browser: Browser) {
  const context = await browser.newContext({ locale: 'de-DE' });
  trackTraffic(context);
  return { context, reader: await context.newPage() };
}

test('a German reader reads the demo FAQ, an article, the terms and a product in German', async ({
  browser,
}) => {
  const { context, reader } = await germanReader(browser);
  try {
    await reader.goto('/de/faq-page');
    await expect(reader.getByRole('button', { name: 'Wie erhalte ich Zugang zu den APIs?' })).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
    await expectNoViolations(reader, 'the demo FAQ in German');

    await reader.goto('/de/blog/instant-payments');
    await expect(
      reader.getByRole('heading', { level: 1, name: 'Echtzeitüberweisungen in der Zahlungs-API verfügbar' }),
    ).toBeVisible();
    await expect(reader.getByRole('heading', { level: 2, name: 'Was sich für Sie ändert' })).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
    await expectNoViolations(reader, 'a demo article in German');
    // Its links name the same paths as the English text's; the reader stays in German.
    await reader.getByRole('link', { name: 'Anleitung für den Einstieg' }).click();
    await expect(reader).toHaveURL(/\/de\/started$/);

    await reader.goto('/de/terms');
    await expect(reader.getByRole('heading', { level: 1, name: 'Nutzungsbedingungen' })).toBeVisible();
    await expect(reader.getByRole('heading', { level: 2, name: 'Haftung' })).toBeVisible();
    await expectNoViolations(reader, 'the terms of use in German');

    await reader.goto('/de/apiProduct/payments-api-v1');
    await expect(reader.getByRole('heading', { level: 1, name: 'Zahlungs-API' })).toBeVisible();
    await expect(
      reader.getByText(/Lösen Sie für Ihre Kundinnen und Kunden SEPA-Überweisungen/),
    ).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
    await expectNoViolations(reader, 'a demo product in German');
  } finally {
    await context.close();
  }
});

test("an editor translates a FAQ question in the console's panel; until then German readers see it in English, marked", async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const question = `Do otters pay instantly ${stamp}?`;
  const F = en.console.content.faqEditor;
  await signInDecliningCookies(page, contentEditor.email, contentEditor.password);
  const created = await consoleCall(page, 'POST', '/admin-api/content/faqs', {
    question,
    answer: 'Yes, within *seconds*.',
    category: null,
    state: 'published',
  });
  expect(created.status).toBe(201);
  const id = idOf(created);
  const { context, reader } = await germanReader(browser);
  try {
    await reader.goto('/de/faq-page');
    const english = reader.getByTestId('faq-section').locator('[lang="en"]').filter({ hasText: question });
    await expect(english).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveText(T.fallbackNote);
    await expectNoViolations(reader, 'a FAQ question without a translation in German');

    await page.goto(`/admin/content/faq/${id}`);
    const german = page.getByTestId('translation-de');
    await german.getByRole('button', { name: C.open.replace('{{language}}', 'Deutsch') }).click();
    await german.getByLabel(`${F.questionLabel} (Deutsch)`).fill(`Zahlen Otter sofort ${stamp}?`);
    await german.getByLabel(`${F.answerLabel} (Deutsch)`).fill('Ja, in *Sekunden*.');
    await german.getByRole('button', { name: C.save }).click();
    await expect(german.getByRole('status')).toHaveText(C.saved.replace('{{language}}', 'Deutsch'));
    await expectNoViolations(page, 'the FAQ editor with its German');

    await reader.goto('/de/faq-page');
    await reader.getByRole('button', { name: `Zahlen Otter sofort ${stamp}?` }).click();
    await expect(reader.getByText('Ja, in')).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
    await expectNoViolations(reader, 'the translated FAQ question in German');
  } finally {
    await context.close();
    expect((await consoleCall(page, 'DELETE', `/admin-api/content/faqs/${id}`)).status).toBe(204);
  }
});

test("an API manager translates a product in the console's panel; until then German readers see it in English, marked", async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const alias = `otter-api-${stamp.toString(36)}-v1`;
  const P = en.console.products.editor;
  await signInDecliningCookies(page, e2eApiManager.email, e2eApiManager.password);
  const created = await consoleCall(page, 'POST', '/admin-api/catalog/products', {
    alias,
    productVersion: '1.0',
    title: `Otter API ${stamp}`,
    label: null,
    description: '<p>Payments for otters.</p>',
    weight: 50,
    category: null,
    commercial: false,
    deprecated: false,
    successor: null,
    retired: false,
    features: [],
    advantages: [],
    related: [],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = idOf(created);
  const { context, reader } = await germanReader(browser);
  try {
    await reader.goto(`/de/apiProduct/${alias}`);
    const title = reader.getByRole('heading', { level: 1, name: `Otter API ${stamp}` });
    await expect(title).toBeVisible();
    await expect(title).toHaveAttribute('lang', 'en');
    await expect(reader.getByTestId('translation-fallback')).toHaveText(T.fallbackNote);
    await expectNoViolations(reader, 'a product without a translation in German');

    await page.goto(`/admin/apis/products/${id}`);
    const german = page.getByTestId('translation-de');
    await german.getByRole('button', { name: C.open.replace('{{language}}', 'Deutsch') }).click();
    await german.getByLabel(`${P.titleLabel} (Deutsch)`).fill(`Otter-API ${stamp}`);
    await german.getByLabel(`${P.descriptionLabel} (Deutsch)`).fill('<p>Zahlungen für Otter.</p>');
    await german.getByRole('button', { name: C.save }).click();
    await expect(german.getByRole('status')).toHaveText(C.saved.replace('{{language}}', 'Deutsch'));
    await expectNoViolations(page, 'the product editor with its German');

    await reader.goto(`/de/apiProduct/${alias}`);
    await expect(reader.getByRole('heading', { level: 1, name: `Otter-API ${stamp}` })).toBeVisible();
    await expect(reader.getByText('Zahlungen für Otter.')).toBeVisible();
    await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
    await expectNoViolations(reader, 'the translated product in German');
  } finally {
    await context.close();
    expect((await consoleCall(page, 'DELETE', `/admin-api/catalog/products/${id}`)).status).toBe(204);
  }
});
