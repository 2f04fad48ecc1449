import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { auditActions, consoleFixture, dataOf, deleteAs, json } from './console-fixtures.ts';
import type { TranslationMarker as Marker } from '../src/lib/translations.ts';

/**
 * Content translations (issue 30, decision 063): the console writes a language's fields of an
 * article, a FAQ question, a basic page or an API product, with the item's own permissions,
 * validation, sanitizing and audit; the public reads answer in the reader's language
 * (`langcode`), falling back to the default language's text with a marker, and never show an
 * unpublished item's translation.
 */

interface Translation {
  langcode: string;
  fields: Record<string, string>;
  updated: string;
  updatedBy: number | null;
}
interface Resource {
  id: string;
  attributes: Record<string, unknown> & { title: string };
  meta?: { translation?: Marker };
}
interface ErrorDoc {
  errors: {
    status: string;
    code: string;
    title: string;
    source?: { pointer?: string; parameter?: string };
  }[];
}

const f = consoleFixture('translations');
const ARTICLES = '/admin-api/content/articles';

async function createArticle(slug: string, state: 'published' | 'draft'): Promise<string> {
  const editor = await f.as('content_editor');
  const created = await dataOf<{ id: string }>(
    await editor.send(
      'POST',
      ARTICLES,
      {
        title: `Instant payments ${slug}`,
        path: `/blog/${slug}`,
        description: 'Payments in seconds.',
        body: 'Money arrives **at once**.',
        state,
      },
      'application/json',
    ),
    201,
  );
  return created.id;
}

const putTranslation = async (
  actor: Parameters<typeof f.as>[0],
  url: string,
  fields: Record<string, string>,
) => (await f.as(actor)).send('PUT', url, { fields }, 'application/json');

async function articleBy(slug: string, langcode?: string) {
  const q = langcode ? `&langcode=${langcode}` : '';
  const res = await f.visitor().get(`/jsonapi/node/article?filter[path.alias]=/blog/${slug}${q}`);
  expect(res.status).toBe(200);
  return (await json<{ data: Resource[] }>(res)).data;
}

describe('content translations', () => {
  it("has PostgreSQL's german text search configuration (the search per language builds on it)", async () => {
    const { rows } = await sql<{ hit: boolean; lexeme: string }>`select
        to_tsvector('german', 'Die Zahlungen kamen sofort') @@ plainto_tsquery('german', 'Zahlung') as hit,
        to_tsvector('german', 'Zahlungen')::text as lexeme`.execute(f.t.app.db);
    expect(rows[0]).toEqual({ hit: true, lexeme: "'zahlung':1" });
  });

  it('lets content editors translate an article, refusing everyone else', async () => {
    const id = await createArticle('translated-news', 'published');
    const url = `${ARTICLES}/${id}/translations/de`;
    const german = {
      title: 'Sofortzahlungen',
      description: 'Zahlungen in Sekunden.',
      body: 'Geld kommt **sofort**.',
    };

    for (const actor of ['developer', 'api_manager', 'support_agent'] as const) {
      expect((await putTranslation(actor, url, german)).status, actor).toBe(403);
    }
    expect((await f.visitor().send('PUT', url, { fields: german }, 'application/json')).status).toBe(401);
    expect((await (await f.as('developer')).get(`${ARTICLES}/${id}/translations`)).status).toBe(403);

    // The default language is the article's own text; an unknown language is no translation.
    for (const lang of ['en', 'fr']) {
      const res = await putTranslation('content_editor', `${ARTICLES}/${id}/translations/${lang}`, german);
      expect(res.status, lang).toBe(400);
      expect((await json<ErrorDoc>(res)).errors[0]!.source?.parameter).toBe('langcode');
    }
    // Validated like the article's fields: a title is needed, no unknown field, nothing written.
    const noTitle = await putTranslation('content_editor', url, { ...german, title: ' ' });
    expect(noTitle.status).toBe(400);
    expect((await json<ErrorDoc>(noTitle)).errors[0]!.source?.pointer).toBe('/fields/title');
    const unknown = await putTranslation('content_editor', url, { ...german, path: '/blog/x' });
    expect(unknown.status).toBe(400);
    const editor = await f.as('content_editor');
    expect(await dataOf<Translation[]>(await editor.get(`${ARTICLES}/${id}/translations`))).toEqual([]);
    // An article that does not exist has no translations.
    expect(
      (
        await putTranslation(
          'content_editor',
          `${ARTICLES}/00000000-0000-4000-8000-000000000000/translations/de`,
          german,
        )
      ).status,
    ).toBe(404);

    // The German fields, the body rendered and sanitized as a save's.
    const saved = await dataOf<Translation>(
      await putTranslation('content_editor', url, {
        ...german,
        body: `${german.body}\n\n<script>alert(1)</script>`,
      }),
    );
    expect(saved.langcode).toBe('de');
    expect(saved.fields.title).toBe('Sofortzahlungen');
    expect(saved.fields.bodyHtml).toContain('<strong>sofort</strong>');
    expect(saved.fields.bodyHtml).not.toContain('<script');
    const list = await dataOf<Translation[]>(await editor.get(`${ARTICLES}/${id}/translations`));
    expect(list.map((t) => t.langcode)).toEqual(['de']);
    // An administrator may too; every write is audited like the article's edits.
    expect((await putTranslation('administrator', url, german)).status).toBe(200);
    expect(await auditActions(f.t, 'article', id)).toEqual([
      'article.created',
      'article.translated',
      'article.translated',
    ]);
  });

  it('answers articles in the reader language, with a marked fallback, and refreshes cached answers', async () => {
    const id = await createArticle('reader-language', 'published');
    // Read (and cached) before the translation exists: the English text, marked as a fallback.
    const before = (await articleBy('reader-language', 'de'))[0]!;
    expect(before.attributes.title).toBe('Instant payments reader-language');
    expect(before.meta?.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });

    await dataOf<Translation>(
      await putTranslation('content_editor', `${ARTICLES}/${id}/translations/de`, {
        title: 'Sofortzahlungen für alle',
        description: 'Zahlungen in Sekunden.',
        body: 'Geld kommt **sofort**.',
      }),
    );
    const german = (await articleBy('reader-language', 'de'))[0]!;
    expect(german.attributes.title).toBe('Sofortzahlungen für alle');
    expect(german.attributes.field_description).toBe('Zahlungen in Sekunden.');
    expect((german.attributes.body as { processed: string }).processed).toContain('<strong>sofort</strong>');
    expect(german.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });

    // English readers keep the article's own text; the single read answers alike.
    const english = (await articleBy('reader-language'))[0]!;
    expect(english.attributes.title).toBe('Instant payments reader-language');
    expect(english.meta?.translation).toEqual({ langcode: 'en', shown: 'en', fallback: false });
    const one = await json<{ data: Resource }>(
      await f.visitor().get(`/jsonapi/node/article/${id}?langcode=de`),
    );
    expect(one.data.attributes.title).toBe('Sofortzahlungen für alle');

    // A language the portal does not have is a 400 naming the parameter.
    const bad = await f.visitor().get(`/jsonapi/node/article?langcode=fr`);
    expect(bad.status).toBe(400);
    expect((await json<ErrorDoc>(bad)).errors[0]!.source?.parameter).toBe('langcode');

    // Deleting the translation brings the fallback back; deleting it again is a 404.
    const editor = await f.as('content_editor');
    expect((await deleteAs(editor, `${ARTICLES}/${id}/translations/de`)).status).toBe(204);
    expect((await deleteAs(editor, `${ARTICLES}/${id}/translations/de`)).status).toBe(404);
    expect((await articleBy('reader-language', 'de'))[0]!.meta?.translation?.fallback).toBe(true);
    expect(await auditActions(f.t, 'article', id)).toContain('article.translation_deleted');
  });

  it("never shows an unpublished article's translation, and removes an item's translations with it", async () => {
    const id = await createArticle('draft-news', 'draft');
    await dataOf<Translation>(
      await putTranslation('content_editor', `${ARTICLES}/${id}/translations/de`, { title: 'Entwurf' }),
    );
    expect(await articleBy('draft-news', 'de')).toEqual([]);
    expect((await f.visitor().get(`/jsonapi/node/article/${id}?langcode=de`)).status).toBe(404);
    const all = await json<{ data: Resource[] }>(
      await f.visitor().get('/jsonapi/node/article?langcode=de&page[limit]=50'),
    );
    expect(all.data.map((a) => a.attributes.title)).not.toContain('Entwurf');

    const editor = await f.as('content_editor');
    expect((await deleteAs(editor, `${ARTICLES}/${id}`)).status).toBe(204);
    const left = await f.t.app.db
      .withTables<{ content_translations: { entity_id: string } }>()
      .selectFrom('content_translations')
      .select('entity_id')
      .where('entity_id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });

  it('translates FAQ questions', async () => {
    const editor = await f.as('content_editor');
    const faq = await dataOf<{ id: string }>(
      await editor.send(
        'POST',
        '/admin-api/content/faqs',
        { question: 'How fast are instant payments?', answer: 'Within *ten* seconds.', state: 'published' },
        'application/json',
      ),
      201,
    );
    const url = `/admin-api/content/faqs/${faq.id}/translations/de`;
    expect((await putTranslation('developer', url, { question: 'Wie schnell?', answer: 'x' })).status).toBe(
      403,
    );
    const noAnswer = await putTranslation('content_editor', url, { question: 'Wie schnell?', answer: '' });
    expect(noAnswer.status).toBe(400);
    await dataOf<Translation>(
      await putTranslation('content_editor', url, {
        question: 'Wie schnell sind Sofortzahlungen?',
        answer: 'Innerhalb von *zehn* Sekunden.',
      }),
    );
    const faqs = await json<{ data: Resource[] }>(await f.visitor().get('/jsonapi/node/faq?langcode=de'));
    const german = faqs.data.find((q) => q.id === faq.id)!;
    expect(german.attributes.title).toBe('Wie schnell sind Sofortzahlungen?');
    expect((german.attributes.field_answer as { processed: string }).processed).toContain('<em>zehn</em>');
    expect(german.meta?.translation?.fallback).toBe(false);
    // A question with no translation is shown in English, marked (the demo questions have their
    // German from content/faq.yaml).
    const untranslated = await dataOf<{ id: string }>(
      await editor.send(
        'POST',
        '/admin-api/content/faqs',
        { question: 'Untranslated?', answer: 'Still English.', category: null, state: 'published' },
        'application/json',
      ),
      201,
    );
    const again = await json<{ data: Resource[] }>(await f.visitor().get('/jsonapi/node/faq?langcode=de'));
    expect(again.data.find((q) => q.id === untranslated.id)?.meta?.translation?.fallback).toBe(true);
    expect(
      again.data.filter((q) => q.id !== untranslated.id).every((q) => !q.meta?.translation?.fallback),
    ).toBe(true);
    expect(await auditActions(f.t, 'faq', faq.id)).toContain('faq.translated');
  });

  it('translates news and FAQ categories: the console, the taxonomy routes and the included categories', async () => {
    const editor = await f.as('content_editor');
    const kinds = [
      {
        base: '/admin-api/content/faq-categories',
        kind: 'faq_category',
        taxonomy: '/jsonapi/taxonomy_term/faq_categories',
      },
      {
        base: '/admin-api/content/categories',
        kind: 'news_category',
        taxonomy: '/jsonapi/taxonomy_term/news_categories',
      },
    ] as const;
    for (const k of kinds) {
      const category = await dataOf<{ id: string; name: string }>(
        await editor.send('POST', k.base, { name: `Instant payments ${k.kind}` }, 'application/json'),
        201,
      );
      const url = `${k.base}/${category.id}/translations/de`;
      const german = { name: `Sofortzahlungen ${k.kind}` };
      const taxonomy = async (langcode?: string) =>
        f.visitor().get(`${k.taxonomy}${langcode ? `?langcode=${langcode}` : ''}`);
      const englishBefore = await (await taxonomy()).text();
      // Read (and cached) before the translation: the English name, marked as a fallback.
      const fallback = (await json<{ data: Resource[] }>(await taxonomy('de'))).data.find(
        (c) => c.id === category.id,
      )!;
      expect(fallback.attributes.name).toBe(category.name);
      expect(fallback.meta?.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });

      // Who may edit the category translates it; everyone else is refused.
      for (const actor of ['developer', 'api_manager', 'support_agent'] as const) {
        expect((await putTranslation(actor, url, german)).status, actor).toBe(403);
      }
      expect((await f.visitor().send('PUT', url, { fields: german }, 'application/json')).status).toBe(401);
      const noName = await putTranslation('content_editor', url, { name: ' ' });
      expect(noName.status).toBe(400);
      expect((await json<ErrorDoc>(noName)).errors[0]!.source?.pointer).toBe('/fields/name');
      const tooLong = await putTranslation('content_editor', url, { name: 'x'.repeat(256) });
      expect(tooLong.status).toBe(400);
      expect(
        (
          await putTranslation(
            'content_editor',
            `${k.base}/00000000-0000-4000-8000-000000000000/translations/de`,
            german,
          )
        ).status,
      ).toBe(404);
      const saved = await dataOf<Translation>(await putTranslation('content_editor', url, german));
      expect(saved.fields).toEqual(german);
      expect(await auditActions(f.t, k.kind, category.id)).toContain(`${k.kind}.translated`);

      const translated = (await json<{ data: Resource[] }>(await taxonomy('de'))).data;
      const one = translated.find((c) => c.id === category.id)!;
      expect(one.attributes.name).toBe(german.name);
      expect(one.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
      // English readers get the answer exactly as before: no marker, the category's own name.
      expect(await (await taxonomy()).text()).toBe(englishBefore);
      expect((await json<{ data: Resource[] }>(await taxonomy('en'))).data).toEqual(
        (JSON.parse(englishBefore) as { data: Resource[] }).data,
      );
      expect((await taxonomy('xx')).status).toBe(400);

      // Deleting the category takes its translations with it.
      expect((await deleteAs(editor, `${k.base}/${category.id}`)).status).toBe(204);
      const left = await f.t.app.db
        .withTables<{ content_translations: { entity_id: string } }>()
        .selectFrom('content_translations')
        .select('entity_id')
        .where('entity_id', '=', category.id)
        .execute();
      expect(left).toEqual([]);
    }
  });

  it('sorts and filters categories by the name the reader sees', async () => {
    const editor = await f.as('content_editor');
    const base = '/admin-api/content/faq-categories';
    const made: Record<string, string> = {};
    for (const name of ['Sort Accounts', 'Sort Bonds', 'Sort Cards']) {
      made[name] = (
        await dataOf<{ id: string }>(await editor.send('POST', base, { name }, 'application/json'), 201)
      ).id;
    }
    await putTranslation('content_editor', `${base}/${made['Sort Accounts']}/translations/de`, {
      name: 'Sort Konten',
    });
    await putTranslation('content_editor', `${base}/${made['Sort Bonds']}/translations/de`, {
      name: 'Sort Anleihen',
    });
    const names = async (query: string) =>
      (
        await json<{ data: Resource[] }>(
          await f.visitor().get(`/jsonapi/taxonomy_term/faq_categories?${query}`),
        )
      ).data
        .map((c) => String(c.attributes.name))
        .filter((name) => name.startsWith('Sort '));
    expect(await names('sort=name')).toEqual(['Sort Accounts', 'Sort Bonds', 'Sort Cards']);
    // The German reader's order: 'Cards' has no translation and sorts by its English name.
    expect(await names('sort=name&langcode=de')).toEqual(['Sort Anleihen', 'Sort Cards', 'Sort Konten']);
    expect(await names('sort=-name&langcode=de')).toEqual(['Sort Konten', 'Sort Cards', 'Sort Anleihen']);
    expect(await names(`filter[name]=${encodeURIComponent('Sort Konten')}&langcode=de`)).toEqual([
      'Sort Konten',
    ]);
    expect(await names(`filter[name]=${encodeURIComponent('Sort Konten')}`)).toEqual([]);
  });

  it("answers the FAQ's and the articles' included categories in the reader's language", async () => {
    const editor = await f.as('content_editor');
    const faqCategory = await dataOf<{ id: string; name: string }>(
      await editor.send('POST', '/admin-api/content/faq-categories', { name: 'Cards' }, 'application/json'),
      201,
    );
    const untranslated = await dataOf<{ id: string; name: string }>(
      await editor.send('POST', '/admin-api/content/faq-categories', { name: 'Loans' }, 'application/json'),
      201,
    );
    for (const [question, category] of [
      ['Which cards are supported?', faqCategory.id],
      ['Which loans are offered?', untranslated.id],
    ] as const) {
      await dataOf(
        await editor.send(
          'POST',
          '/admin-api/content/faqs',
          { question, answer: 'Several.', category, state: 'published' },
          'application/json',
        ),
        201,
      );
    }
    const FAQS = '/jsonapi/node/faq?include=field_category';
    const englishBefore = await (await f.visitor().get(FAQS)).text();
    await dataOf<Translation>(
      await putTranslation(
        'content_editor',
        `/admin-api/content/faq-categories/${faqCategory.id}/translations/de`,
        {
          name: 'Karten',
        },
      ),
    );
    const german = await json<{ included: Resource[] }>(await f.visitor().get(`${FAQS}&langcode=de`));
    const cards = german.included.find((c) => c.id === faqCategory.id)!;
    expect(cards.attributes.name).toBe('Karten');
    expect(cards.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    const loans = german.included.find((c) => c.id === untranslated.id)!;
    expect(loans.attributes.name).toBe('Loans');
    expect(loans.meta?.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });
    // English unchanged, byte for byte.
    expect(await (await f.visitor().get(FAQS)).text()).toBe(englishBefore);

    // An article's included category.
    const newsCategory = await dataOf<{ id: string }>(
      await editor.send('POST', '/admin-api/content/categories', { name: 'Payments' }, 'application/json'),
      201,
    );
    const article = await dataOf<{ id: string }>(
      await editor.send(
        'POST',
        ARTICLES,
        {
          title: 'Category news',
          path: '/blog/category-news',
          description: 'Filed.',
          body: 'Filed under payments.',
          category: newsCategory.id,
          state: 'published',
        },
        'application/json',
      ),
      201,
    );
    const ONE = `/jsonapi/node/article/${article.id}?include=field_category`;
    const englishArticle = await (await f.visitor().get(ONE)).text();
    await dataOf<Translation>(
      await putTranslation(
        'content_editor',
        `/admin-api/content/categories/${newsCategory.id}/translations/de`,
        {
          name: 'Zahlungen',
        },
      ),
    );
    const germanOne = await json<{ included: Resource[] }>(await f.visitor().get(`${ONE}&langcode=de`));
    expect(germanOne.included.find((c) => c.id === newsCategory.id)?.attributes.name).toBe('Zahlungen');
    const germanList = await json<{ included: Resource[] }>(
      await f
        .visitor()
        .get(
          '/jsonapi/node/article?filter[path.alias]=/blog/category-news&include=field_category&langcode=de',
        ),
    );
    const listed = germanList.included.find((c) => c.id === newsCategory.id)!;
    expect(listed.attributes.name).toBe('Zahlungen');
    expect(listed.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    expect(await (await f.visitor().get(ONE)).text()).toBe(englishArticle);
  });

  it('translates basic pages', async () => {
    const editor = await f.as('content_editor');
    const page = await dataOf<{ id: string }>(
      await editor.send(
        'POST',
        '/admin-api/content/pages',
        { title: 'Terms of use', path: '/translated-terms', body: 'The **terms**.', state: 'published' },
        'application/json',
      ),
      201,
    );
    const english = await json<{ title: string; translation: Marker }>(
      await f.visitor().get('/translated-terms?_format=json&langcode=de'),
    );
    expect(english.title).toBe('Terms of use');
    expect(english.translation).toEqual({ langcode: 'de', shown: 'en', fallback: true });
    await dataOf<Translation>(
      await putTranslation('content_editor', `/admin-api/content/pages/${page.id}/translations/de`, {
        title: 'Nutzungsbedingungen',
        body: 'Die **Bedingungen**.',
      }),
    );
    const german = await json<{ title: string; body: string; translation: Marker }>(
      await f.visitor().get('/translated-terms?_format=json&langcode=de'),
    );
    expect(german.title).toBe('Nutzungsbedingungen');
    expect(german.body).toContain('<strong>Bedingungen</strong>');
    expect(german.translation.fallback).toBe(false);
    expect((await f.visitor().get('/translated-terms?_format=json&langcode=xx')).status).toBe(400);
  });

  it("refuses an unknown langcode with a message in the reader's language (decision 058)", async () => {
    const english = await f.visitor().get('/jsonapi/node/article?langcode=xx');
    expect(english.status).toBe(400);
    const englishBody = await json<{ errors: { title: string; source?: { parameter?: string } }[] }>(english);
    expect(englishBody.errors[0]!.title).toBe('langcode must be one of en, de.');
    const reader = f.visitor();
    reader.headers['accept-language'] = 'de-DE,de;q=0.9';
    const german = await reader.get('/jsonapi/node/article?langcode=xx');
    expect(german.status).toBe(400);
    const germanBody = await json<{ errors: { title: string }[] }>(german);
    expect(germanBody.errors[0]!.title).toBe('langcode muss eine dieser Sprachen sein: en, de.');
  });

  it('lets API managers translate products, not content editors', async () => {
    const manager = await f.as('api_manager');
    const products = await dataOf<{ id: string; title: string }[]>(
      await manager.get('/admin-api/catalog/products'),
    );
    const product = products[0]!;
    const url = `/admin-api/catalog/products/${product.id}/translations/de`;
    const fields = {
      title: 'Konten-API',
      description: '<p>Konten <b>lesen</b><img src=x onerror=alert(1)></p>',
    };
    expect((await putTranslation('content_editor', url, fields)).status).toBe(403);
    const saved = await dataOf<Translation>(await putTranslation('api_manager', url, fields));
    expect(saved.fields.description).toContain('<b>lesen</b>');
    expect(saved.fields.description).not.toContain('onerror');

    const one = await json<{ data: Resource }>(
      await f.visitor().get(`/jsonapi/node/api_product/${product.id}?langcode=de`),
    );
    expect(one.data.attributes.title).toBe('Konten-API');
    expect((one.data.attributes.body as { processed: string }).processed).toContain('<b>lesen</b>');
    expect(one.data.meta?.translation).toEqual({ langcode: 'de', shown: 'de', fallback: false });
    const list = await json<{ data: Resource[] }>(
      await f.visitor().get('/jsonapi/node/api_product?langcode=de'),
    );
    expect(list.data.find((p) => p.id === product.id)?.attributes.title).toBe('Konten-API');
    const english = await json<{ data: Resource }>(
      await f.visitor().get(`/jsonapi/node/api_product/${product.id}`),
    );
    expect(english.data.attributes.title).toBe(product.title);
    expect(await auditActions(f.t, 'api_product', product.id)).toContain('api_product.translated');
  });
});
