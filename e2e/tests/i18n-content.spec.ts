import fs from 'node:fs';
import path from 'node:path';
import { en } from '@portico/contracts/messages';
import { parse } from 'yaml';
import deTranslations from '../../apps/web/src/locales/de/translations.json' with { type: 'json' };
import { expectNoViolations } from '../support/axe.ts';
import {
  consoleCall,
  contentEditor,
  newArticle,
  openGermanTranslation,
  saveGermanTranslation,
} from '../support/console.ts';
import { signInDecliningCookies } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * Content translations (issue 30, decision 063): a content editor writes an article's German
 * texts in the console; a reader on /de/ reads them; an article without a German translation is
 * shown in English with a note in German and `lang="en"`. The articles are this test's own, and
 * deleted at the end.
 */
const T = deTranslations.translations;
const M = en.console.content;

test.describe.configure({ timeout: 90_000 });

test('an editor translates an article; a German reader reads it, and an untranslated one with a note', async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const translatedSlug = `translated-otter-${stamp}`;
  const untranslatedSlug = `untranslated-otter-${stamp}`;
  await signInDecliningCookies(page, contentEditor.email, contentEditor.password);
  const translated = await newArticle(
    page,
    translatedSlug,
    `Otter payments ${stamp}`,
    'Payments in seconds.',
  );
  const untranslated = await newArticle(
    page,
    untranslatedSlug,
    `Otter news ${stamp}`,
    'Payments in seconds.',
  );

  try {
    // The console: the article's form, and below it the German texts.
    await page.goto(`/admin/content/articles/${translated}`);
    await saveGermanTranslation(await openGermanTranslation(page), {
      [M.editor.titleLabel]: `Otter-Zahlungen ${stamp}`,
      [M.editor.summaryLabel]: 'Zahlungen in Sekunden.',
      [M.editor.bodyLabel]: 'Geld kommt **sofort** an.',
    });
    await expectNoViolations(page, 'the article editor with its translations');

    // A German reader.
    const context = await browser.newContext({ locale: 'de-DE' });
    trackTraffic(context);
    try {
      const reader = await context.newPage();
      await reader.goto(`/de/blog/${translatedSlug}`);
      await expect(reader.getByRole('heading', { level: 1, name: `Otter-Zahlungen ${stamp}` })).toBeVisible();
      await expect(reader.getByText('Geld kommt')).toBeVisible();
      await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
      await expectNoViolations(reader, 'a translated article in German');

      await reader.goto(`/de/blog/${untranslatedSlug}`);
      const title = reader.getByRole('heading', { level: 1, name: `Otter news ${stamp}` });
      await expect(title).toBeVisible();
      await expect(title).toHaveAttribute('lang', 'en');
      await expect(reader.getByTestId('translation-fallback')).toHaveText(T.fallbackNote);
      await expectNoViolations(reader, 'an untranslated article in German');
    } finally {
      await context.close();
    }
    // English readers (the editor's own browser) see the article's own text, without a note.
    await page.goto(`/blog/${translatedSlug}`);
    await expect(page.getByRole('heading', { level: 1, name: `Otter payments ${stamp}` })).toBeVisible();
    await expect(page.getByTestId('translation-fallback')).toHaveCount(0);
  } finally {
    for (const id of [translated, untranslated]) {
      expect((await consoleCall(page, 'DELETE', `/admin-api/content/articles/${id}`)).status).toBe(204);
    }
  }
});

test("an editor translates a basic page in its editor's panel; a German reader reads it", async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  const path = `/otter-page-${stamp}`;
  const P = en.console.pages.editor;
  await signInDecliningCookies(page, contentEditor.email, contentEditor.password);
  const created = await consoleCall(page, 'POST', '/admin-api/content/pages', {
    title: `Otter page ${stamp}`,
    path,
    body: 'Otters swim **fast**.',
    state: 'published',
  });
  expect(created.status).toBe(201);
  const id = (created.body as { data: { id: string } }).data.id;

  try {
    await page.goto(`/admin/content/pages/${id}`);
    await saveGermanTranslation(await openGermanTranslation(page), {
      [P.titleLabel]: `Otter-Seite ${stamp}`,
      [P.bodyLabel]: 'Otter schwimmen **schnell**.',
    });
    await expectNoViolations(page, 'the page editor with its translations');

    const context = await browser.newContext({ locale: 'de-DE' });
    trackTraffic(context);
    try {
      const reader = await context.newPage();
      await reader.goto(`/de${path}`);
      await expect(reader.getByRole('heading', { level: 1, name: `Otter-Seite ${stamp}` })).toBeVisible();
      await expect(reader.getByText('Otter schwimmen')).toBeVisible();
      await expect(reader.getByTestId('translation-fallback')).toHaveCount(0);
      await expectNoViolations(reader, 'a translated basic page in German');
    } finally {
      await context.close();
    }
  } finally {
    expect((await consoleCall(page, 'DELETE', `/admin-api/content/pages/${id}`)).status).toBe(204);
  }
});

test('a German reader sees the FAQ categories in German; an editor translates a category', async ({
  page,
  browser,
}) => {
  // The demo FAQ's categories carry their German names in content/faq.yaml.
  const faqFile = parse(
    fs.readFileSync(path.resolve(import.meta.dirname, '../../content/faq.yaml'), 'utf8'),
  ) as { categories: { name: string; translations: { de: { name: string } } }[] };
  const demo = faqFile.categories[0]!;
  const stamp = Date.now();
  await signInDecliningCookies(page, contentEditor.email, contentEditor.password);
  const created = await consoleCall(page, 'POST', '/admin-api/content/faq-categories', {
    name: `Otter questions ${stamp}`,
  });
  expect(created.status).toBe(201);
  const category = (created.body as { data: { id: string } }).data.id;
  const asked = await consoleCall(page, 'POST', '/admin-api/content/faqs', {
    question: `Do otters pay instantly ${stamp}?`,
    answer: 'Always.',
    category,
    state: 'published',
  });
  expect(asked.status).toBe(201);
  const question = (asked.body as { data: { id: string } }).data.id;

  try {
    // The console: the category's form, and below it its German name.
    await page.goto(`/admin/content/faq/categories/${category}`);
    await saveGermanTranslation(await openGermanTranslation(page), {
      [M.categoryEditor.nameLabel]: `Otter-Fragen ${stamp}`,
    });
    await expectNoViolations(page, 'the category editor with its translations');

    const context = await browser.newContext({ locale: 'de-DE' });
    trackTraffic(context);
    try {
      const reader = await context.newPage();
      await reader.goto('/de/faq-page');
      await expect(reader.getByRole('heading', { level: 2, name: demo.translations.de.name })).toBeVisible();
      await expect(reader.getByRole('heading', { level: 2, name: demo.name })).toHaveCount(0);
      await expect(reader.getByRole('heading', { level: 2, name: `Otter-Fragen ${stamp}` })).toBeVisible();
      await expectNoViolations(reader, 'the FAQ in German with its categories');
    } finally {
      await context.close();
    }
    // English readers see the categories' own names.
    await page.goto('/faq-page');
    await expect(page.getByRole('heading', { level: 2, name: demo.name })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: `Otter questions ${stamp}` })).toBeVisible();
  } finally {
    expect((await consoleCall(page, 'DELETE', `/admin-api/content/faqs/${question}`)).status).toBe(204);
    expect((await consoleCall(page, 'DELETE', `/admin-api/content/faq-categories/${category}`)).status).toBe(
      204,
    );
  }
});

test("a German reader sees a product's comparison table in German", async ({ browser, page }) => {
  // The demo table carries its German texts in content/catalog/documentation.yaml (decision 064).
  const catalog = parse(
    fs.readFileSync(path.resolve(import.meta.dirname, '../../content/catalog/documentation.yaml'), 'utf8'),
  ) as {
    comparisonTables: {
      key: string;
      title: string;
      rows: { title: string }[];
      translations: { de: Record<string, string> };
    }[];
  };
  const table = catalog.comparisonTables.find((t) => t.key === 'account-apis')!;
  const german = table.translations.de;
  const rowTitle = german['/rows/1/title']!;

  const context = await browser.newContext({ locale: 'de-DE' });
  trackTraffic(context);
  try {
    const reader = await context.newPage();
    await reader.goto('/de/apiProduct/accounts-api-v1');
    const comparison = reader.getByTestId('comparison-table');
    await expect(reader.getByRole('heading', { level: 2, name: german['/title']! })).toBeVisible();
    await expect(comparison.getByRole('rowheader', { name: rowTitle, exact: true })).toBeVisible();
    await expect(
      comparison.getByRole('cell', { name: german['/rows/1/values/2']!, exact: true }),
    ).toBeVisible();
    await expect(comparison.getByRole('rowheader', { name: table.rows[1]!.title, exact: true })).toHaveCount(
      0,
    );
    // A product's column has the product's German title; the deprecated version's says so in German.
    const products = parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../content/catalog/products.yaml'), 'utf8'),
    ) as { products: { alias: string; title: string; translations?: { de?: { title: string } } }[] };
    const accounts = products.products.find((p) => p.alias === 'accounts-api-v1')!;
    await expect(
      comparison.getByRole('columnheader', { name: accounts.translations!.de!.title, exact: true }),
    ).toBeVisible();
    await expect(comparison.getByRole('columnheader', { name: 'Veraltete API', exact: true })).toBeVisible();
    await expect(comparison.getByRole('columnheader', { name: accounts.title, exact: true })).toHaveCount(0);
    await expect(comparison.getByRole('columnheader', { name: 'Deprecated API', exact: true })).toHaveCount(
      0,
    );
    // Translated: not marked as English.
    await expect(reader.locator('section[aria-labelledby="comparison"]')).not.toHaveAttribute('lang', 'en');
    await expectNoViolations(reader, 'a product page in German with its comparison table');
  } finally {
    await context.close();
  }
  // English readers see the table's own texts.
  await page.goto('/apiProduct/accounts-api-v1');
  await expect(page.getByRole('heading', { level: 2, name: table.title })).toBeVisible();
  await expect(
    page.getByTestId('comparison-table').getByRole('rowheader', { name: table.rows[1]!.title, exact: true }),
  ).toBeVisible();
  await expect(
    page.getByTestId('comparison-table').getByRole('columnheader', { name: 'Deprecated API', exact: true }),
  ).toBeVisible();
});
