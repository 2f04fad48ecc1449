import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ArticleFields } from '@portico/contracts/console-content';
import { ARTICLE_SEARCH } from '../src/modules/content/repo.ts';
import { searchIndex } from '../src/modules/search/service.ts';
import { consoleFixture, dataOf, deleteAs, json } from './console-fixtures.ts';
import type { TestClient } from './http-client.ts';
import type { TranslationMarker as Marker } from '../src/lib/translations.ts';

/**
 * The site search in the reader's language (issue 30, decision 065): a translation is a search
 * row of its own, stemmed with its language's text search configuration, written and removed with
 * the translation; `GET /phpsdk/search?langcode=de` searches the German rows and, for the items
 * without a German translation, the English ones, marked as a fallback, never both versions of one
 * item. Hidden items have no rows in any language.
 */

interface Hit {
  uuid: string;
  type: string;
  title: string;
  description: string;
  link: string | null;
  translation: Marker;
}
interface Answer {
  data: Hit[];
  meta: { count: number };
  links: { self?: { href: string }; next?: { href: string } };
}
interface Article extends ArticleFields {
  id: string;
  version: number;
}

const f = consoleFixture('search-languages');
const ARTICLES = '/admin-api/content/articles';

async function createArticle(
  slug: string,
  fields: { title: string; description?: string; body: string },
  state: 'published' | 'draft' = 'published',
): Promise<string> {
  const editor = await f.as('content_editor');
  const created = await dataOf<{ id: string }>(
    await editor.send(
      'POST',
      ARTICLES,
      { description: '', ...fields, path: `/blog/${slug}`, state },
      'application/json',
    ),
    201,
  );
  return created.id;
}

async function translate(id: string, fields: { title: string; description?: string; body: string }) {
  const editor = await f.as('content_editor');
  await dataOf(
    await editor.send(
      'PUT',
      `${ARTICLES}/${id}/translations/de`,
      { fields: { description: '', ...fields } },
      'application/json',
    ),
  );
}

async function search(q: string, langcode?: string, client: TestClient = f.visitor()): Promise<Answer> {
  const lang = langcode ? `&langcode=${langcode}` : '';
  const res = await client.get(`/phpsdk/search?q=${encodeURIComponent(q)}${lang}`);
  expect(res.status).toBe(200);
  return json<Answer>(res);
}

async function setState(id: string, state: 'draft' | 'published') {
  const editor = await f.as('content_editor');
  const a = await dataOf<Article>(await editor.get(`${ARTICLES}/${id}`));
  await dataOf(
    await editor.send(
      'PATCH',
      `${ARTICLES}/${id}`,
      {
        title: a.title,
        path: a.path,
        description: a.description,
        body: a.body,
        category: a.category,
        imageUrl: a.imageUrl,
        imageAlt: a.imageAlt,
        internal: a.internal,
        scrollspy: a.scrollspy,
        publishAt: null,
        state,
        version: a.version,
      },
      'application/json',
    ),
  );
}

async function rowLanguages(uuid: string): Promise<string[]> {
  const { rows } = await sql<{ langcode: string }>`
    select langcode from search_documents where uuid = ${uuid}::uuid order by langcode`.execute(f.t.app.db);
  return rows.map((r) => r.langcode);
}

describe('site search in the reader language', () => {
  it('finds a German translation by an inflected German word, ranked by German, only under de', async () => {
    const title = await createArticle('settlement-news', {
      title: 'Clearwombat in seconds',
      body: 'Money arrives at once, wombatcode.',
    });
    const body = await createArticle('settlement-rules', {
      title: 'Clearwombat rules',
      body: 'The rules of clearing.',
    });
    await translate(title, { title: 'Wombatzahlung in Sekunden', body: 'Das Geld kommt sofort an.' });
    await translate(body, {
      title: 'Regeln der Abwicklung',
      body: 'Jede Wombatzahlung folgt diesen Regeln, und Wombatzahlungen werden sofort gebucht.',
    });

    // 'Wombatzahlungen' is stemmed by the German configuration ('wombatzahlung'): both are found, the one with
    // the word in its title first (title A, text C), in German, not marked as a fallback.
    const german = await search('Wombatzahlungen', 'de');
    expect(german.data.map((h) => h.uuid)).toEqual([title, body]);
    expect(german.data[0]).toMatchObject({
      type: 'article',
      title: 'Wombatzahlung in Sekunden',
      link: '/blog/settlement-news',
      translation: { langcode: 'de', shown: 'de', fallback: false },
    });
    // The snippet is cut from the German text.
    expect(german.data[1]!.description).toContain('Wombatzahlungen werden sofort gebucht');
    expect(german.meta.count).toBe(2);

    // English readers search the English rows only, as before.
    expect((await search('Wombatzahlungen')).data).toEqual([]);
    expect((await search('Wombatzahlungen', 'en')).data).toEqual([]);
    const english = await search('clearwombat');
    expect(english.data.map((h) => h.title).sort()).toEqual(['Clearwombat in seconds', 'Clearwombat rules']);
    expect(english.data[0]!.translation).toEqual({ langcode: 'en', shown: 'en', fallback: false });

    // A translated item is found in German only: its English words do not find it under de.
    expect((await search('wombatcode', 'de')).data).toEqual([]);
    expect((await search('wombatcode')).data.map((h) => h.uuid)).toEqual([title]);

    // A language the portal does not have is a 400 naming the parameter.
    const bad = await f.visitor().get('/phpsdk/search?q=x&langcode=fr');
    expect(bad.status).toBe(400);
    expect(
      (await json<{ errors: { source?: { parameter?: string } }[] }>(bad)).errors[0]!.source?.parameter,
    ).toBe('langcode');
  });

  it('falls back to the English row of an untranslated item, marked, never both versions', async () => {
    const untranslated = await createArticle('koala-guide', {
      title: 'Koalapay guide',
      body: 'How koalapay settles accounts.',
    });
    const translated = await createArticle('koala-limits', {
      title: 'Koalapay limits',
      body: 'The limits of koalapay.',
    });
    await translate(translated, { title: 'Koalapay Grenzen', body: 'Die Grenzen von Koalapay.' });

    const found = await search('koalapay', 'de');
    expect(found.meta.count).toBe(2);
    const byUuid = new Map(found.data.map((h) => [h.uuid, h]));
    expect(byUuid.get(untranslated)).toMatchObject({
      title: 'Koalapay guide',
      translation: { langcode: 'de', shown: 'en', fallback: true },
    });
    expect(byUuid.get(translated)).toMatchObject({
      title: 'Koalapay Grenzen',
      translation: { langcode: 'de', shown: 'de', fallback: false },
    });
    // The paging links keep the language.
    expect(found.links.self?.href).toContain('langcode=de');
    expect((await search('koalapay')).links.self?.href).not.toContain('langcode');
  });

  it("removes a translation's row with it, and follows the item's publication", async () => {
    const id = await createArticle('ledger-news', { title: 'Ledger news', body: 'Ledgerbook entries.' });
    await translate(id, { title: 'Kontobuch', body: 'Die Buchungen im Kontobuch.' });
    expect(await rowLanguages(id)).toEqual(['de', 'en']);
    expect((await search('Buchung', 'de')).data.map((h) => h.uuid)).toEqual([id]);

    // Unpublished: no row in any language; published again: the translation's row is back.
    await setState(id, 'draft');
    expect(await rowLanguages(id)).toEqual([]);
    expect((await search('Buchung', 'de')).data).toEqual([]);
    await setState(id, 'published');
    expect(await rowLanguages(id)).toEqual(['de', 'en']);
    expect((await search('Buchungen', 'de')).data.map((h) => h.title)).toEqual(['Kontobuch']);

    // Deleting the translation removes its row: the English one is the fallback again.
    const editor = await f.as('content_editor');
    expect((await deleteAs(editor, `${ARTICLES}/${id}/translations/de`)).status).toBe(204);
    expect(await rowLanguages(id)).toEqual(['en']);
    expect((await search('Buchung', 'de')).data).toEqual([]);
    const fallback = await search('ledgerbook', 'de');
    expect(fallback.data.map((h) => h.translation)).toEqual([
      { langcode: 'de', shown: 'en', fallback: true },
    ]);

    // Deleting the item removes every language's row.
    await translate(id, { title: 'Kontobuch', body: 'Die Buchungen im Kontobuch.' });
    expect((await deleteAs(editor, `${ARTICLES}/${id}`)).status).toBe(204);
    expect(await rowLanguages(id)).toEqual([]);
  });

  it("never shows a developer an unpublished item's translation", async () => {
    const id = await createArticle('secret-draft', { title: 'Secret draft', body: 'Not yet.' }, 'draft');
    await translate(id, { title: 'Geheimer Wombatentwurf', body: 'Die Wombatentwürfe sind wombatgeheim.' });
    expect(await rowLanguages(id)).toEqual([]);
    const developer = await f.as('developer');
    expect((await search('Wombatentwurf', 'de', developer)).data).toEqual([]);
    expect((await search('Wombatgeheim', 'de')).data).toEqual([]);
  });

  it('indexes at start-up the translations saved before the search had languages, once', async () => {
    const id = await createArticle('saved-before', { title: 'Saved before', body: 'Earlier text.' });
    await translate(id, { title: 'Früher gespeichert', body: 'Wombatüberweisungen von früher.' });
    // As a database migrated from before 0315: the translation, but no German row.
    await sql`delete from search_documents where uuid = ${id}::uuid and langcode = 'de'`.execute(f.t.app.db);
    expect((await search('Wombatüberweisung', 'de')).data).toEqual([]);

    expect(await searchIndex(f.t.app.db).indexMissingTranslations(ARTICLE_SEARCH)).toBe(1);
    expect(await searchIndex(f.t.app.db).indexMissingTranslations(ARTICLE_SEARCH)).toBe(0);
    expect((await search('Wombatüberweisungen', 'de')).data.map((h) => h.title)).toEqual([
      'Früher gespeichert',
    ]);
  });

  it('finds translated FAQ questions, pages and products in German', async () => {
    const editor = await f.as('content_editor');
    const faq = await dataOf<{ id: string }>(
      await editor.send(
        'POST',
        '/admin-api/content/faqs',
        { question: 'How are cards blocked?', answer: 'Call us.', state: 'published' },
        'application/json',
      ),
      201,
    );
    await dataOf(
      await editor.send(
        'PUT',
        `/admin-api/content/faqs/${faq.id}/translations/de`,
        {
          fields: {
            question: 'Wie sperre ich Wombatkarten?',
            answer: 'Rufen Sie uns an, wir sperren Kreditkarten.',
          },
        },
        'application/json',
      ),
    );
    const page = await dataOf<{ id: string }>(
      await editor.send(
        'POST',
        '/admin-api/content/pages',
        { title: 'Fees', path: '/search-fees', body: 'Our fees.', state: 'published' },
        'application/json',
      ),
      201,
    );
    await dataOf(
      await editor.send(
        'PUT',
        `/admin-api/content/pages/${page.id}/translations/de`,
        { fields: { title: 'Gebühren', body: 'Unsere Gebühren für Wombatlastschriften.' } },
        'application/json',
      ),
    );
    const manager = await f.as('api_manager');
    const product = (await dataOf<{ id: string }[]>(await manager.get('/admin-api/catalog/products')))[0]!;
    await dataOf(
      await manager.send(
        'PUT',
        `/admin-api/catalog/products/${product.id}/translations/de`,
        { fields: { title: 'Wombatkontenschnittstelle', description: '<p>Kontostände abfragen.</p>' } },
        'application/json',
      ),
    );

    expect((await search('Wombatkarte', 'de')).data.map((h) => [h.type, h.title])).toEqual([
      ['faq', 'Wie sperre ich Wombatkarten?'],
    ]);
    expect((await search('Wombatlastschrift', 'de')).data.map((h) => [h.type, h.link])).toEqual([
      ['page', '/search-fees'],
    ]);
    expect((await search('Wombatkontenschnittstellen', 'de')).data.map((h) => [h.type, h.uuid])).toEqual([
      ['api_product', product.id],
    ]);
  });
});
