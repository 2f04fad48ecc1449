import { en } from '@portico/contracts/messages';
import deContent from '../../apps/web/src/locales/de/content.json' with { type: 'json' };
import deShell from '../../apps/web/src/locales/de/shell.json' with { type: 'json' };
import deTranslations from '../../apps/web/src/locales/de/translations.json' with { type: 'json' };
import { expectNoViolations } from '../support/axe.ts';
import { consoleCall, contentEditor, newArticle } from '../support/console.ts';
import { signInDecliningCookies } from '../support/session.ts';
import { expect, test, trackTraffic } from '../support/traffic.ts';

/**
 * The site search in the reader's language (issue 30, decision 065): a content editor writes an
 * article's German texts; a reader on /de/search finds it by an inflected German word (German
 * stemming), in German, and finds an untranslated article in English, marked 'Auf Englisch' and
 * `lang="en"`; the translated article's English words do not find it under /de/. English readers
 * search the English texts. The articles are this test's own, and deleted at the end.
 */
const S = deContent.search;
const T = deTranslations.translations;

test.describe.configure({ timeout: 90_000 });

test('a German reader searches in German, with untranslated results in English, marked', async ({
  page,
  browser,
}) => {
  const stamp = Date.now();
  await signInDecliningCookies(page, contentEditor.email, contentEditor.password);
  const translated = await newArticle(
    page,
    `beaver-transfers-${stamp}`,
    `Beaver transfers ${stamp}`,
    'Transfers in seconds.',
  );
  const untranslated = await newArticle(
    page,
    `beaver-news-${stamp}`,
    `Beaver news ${stamp}`,
    'Transfers in seconds.',
  );
  const saved = await consoleCall(page, 'PUT', `/admin-api/content/articles/${translated}/translations/de`, {
    fields: {
      title: `Biber-Zahlung ${stamp}`,
      description: 'Zahlung in Sekunden.',
      body: 'Das Geld kommt **sofort** an.',
    },
  });
  expect(saved.status).toBe(200);

  try {
    const context = await browser.newContext({ locale: 'de-DE' });
    trackTraffic(context);
    try {
      const reader = await context.newPage();
      // 'Zahlungen' finds 'Zahlung' (the German configuration stems both to 'zahlung').
      await reader.goto(`/de/search?q=${encodeURIComponent(`Zahlungen ${stamp}`)}`);
      const dialog = reader.getByRole('dialog', { name: deShell.cookies.settingsTitle });
      await dialog.getByRole('button').first().click();
      await expect(dialog).toBeHidden();
      await expect(reader.getByRole('heading', { level: 1, name: S.title })).toBeVisible();
      await expect(reader.getByText(S.oneResult.replace('{{query}}', `Zahlungen ${stamp}`))).toBeVisible();
      const german = reader.getByRole('listitem').filter({ hasText: `Biber-Zahlung ${stamp}` });
      await expect(german.getByRole('link', { name: `Biber-Zahlung ${stamp}` })).toHaveAttribute(
        'href',
        `/de/blog/beaver-transfers-${stamp}`,
      );
      await expect(german.getByText('Zahlung in Sekunden.')).toBeVisible();
      await expect(german.getByTestId('result-fallback')).toHaveCount(0);
      await expect(german.getByRole('link')).not.toHaveAttribute('lang', 'en');
      await expectNoViolations(reader, 'German search results');

      // English words: the untranslated article, in English and marked; the translated one is
      // found in German only.
      await reader.getByLabel(S.queryLabel).fill(`Beaver ${stamp}`);
      await reader.getByRole('button', { name: S.submit }).click();
      await expect(reader.getByText(S.oneResult.replace('{{query}}', `Beaver ${stamp}`))).toBeVisible();
      const fallback = reader.getByRole('listitem').filter({ hasText: `Beaver news ${stamp}` });
      await expect(fallback.getByTestId('result-fallback')).toHaveText(T.fallbackBadge);
      await expect(fallback.getByRole('link', { name: `Beaver news ${stamp}` })).toHaveAttribute(
        'lang',
        'en',
      );
      await expectNoViolations(reader, 'a German search with an English result');
    } finally {
      await context.close();
    }

    // English readers search the English texts, as before.
    await page.goto(`/search?q=${encodeURIComponent(`Zahlungen ${stamp}`)}`);
    await expect(page.getByText(en.search.noResultsTitle)).toBeVisible();
    await page.goto(`/search?q=${encodeURIComponent(`Beaver ${stamp}`)}`);
    await expect(page.getByRole('link', { name: `Beaver transfers ${stamp}` })).toBeVisible();
    await expect(page.getByRole('link', { name: `Beaver news ${stamp}` })).toBeVisible();
    await expect(page.getByTestId('result-fallback')).toHaveCount(0);
  } finally {
    for (const id of [translated, untranslated]) {
      expect((await consoleCall(page, 'DELETE', `/admin-api/content/articles/${id}`)).status).toBe(204);
    }
  }
});
