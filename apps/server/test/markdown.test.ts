import fs from 'node:fs';
import path from 'node:path';
import { format } from '@portico/contracts/format';
import { sql } from 'kysely';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRepo } from '../src/modules/content/repo.ts';
import { contentDb } from '../src/modules/content/tables.ts';
import { pagesRepo } from '../src/modules/pages/repo.ts';
import { translationsOf } from '../src/lib/translations.ts';
import { markdownLabels } from '../src/modules/markdown/labels.ts';
import { ENGLISH_LABELS, operationSection } from '../src/modules/markdown/reference.ts';
import { prefersMarkdown } from '../src/modules/markdown/negotiation.ts';
import { schemaOutline } from '../src/modules/markdown/schema-outline.ts';
import { TestClient } from './http-client.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Markdown of every public page and /llms.txt (issue 30, modules/markdown/README.md), on the demo
 * content: each kind by `.md` and by `Accept: text/markdown`, nothing unpublished or internal.
 */
describe('Markdown and llms.txt', () => {
  let t: TestApp;
  let origin: string;
  beforeAll(async () => {
    t = await startTestApp();
    origin = t.config.publicUrl.replace(/\/+$/, '');
  });
  afterAll(async () => {
    await t.close();
  });

  const client = () => new TestClient(t.baseUrl);
  async function get(url: string, headers: Record<string, string> = {}) {
    const res = await client().get(url, headers);
    return { res, text: await res.text() };
  }

  /** A 200 Markdown answer with the headers every one carries; its text. */
  async function markdown(url: string, htmlPath: string, headers: Record<string, string> = {}) {
    const { res, text } = await get(url, headers);
    expect(res.status, url).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(res.headers.get('link')).toBe(`<${origin}${htmlPath}>; rel="alternate"; type="text/html"`);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    return text;
  }

  it('serves a documentation: header, sandbox servers, OAuth flows and scopes, every operation', async () => {
    const md = await markdown('/documentation/accounts-v1.md', '/documentation/accounts-v1');
    expect(md.startsWith('# Accounts API Documentation\n')).toBe(true);
    expect(md).toContain('Version 1.0.0');
    expect(md).toContain('Read the accounts, balances and transactions a bank customer has consented');
    expect(md).toContain('## Servers (the sandbox)');
    expect(md).toContain(`- ${origin}/sandbox/accounts-v1`);
    expect(md).toContain('## Authentication');
    expect(md).toContain('`accounts:read`: Read accounts, balances and transactions');
    expect(md).toContain('## GET /accounts/{accountId}');
    expect(md).toContain('**Get an account**');
    expect(md).toContain('### Parameters');
    expect(md).toMatch(/\| `accountId` \| Path \| string \| yes \|/);
    expect(md).toContain('### Responses');
    expect(md).toContain('"iban": "DE89370400440532013000"');
    expect(md).toContain(
      `Markdown of this operation: ${origin}/documentation/accounts-v1/operations/getAccount.md`,
    );
    // The same by content negotiation, and by uuid.
    const negotiated = await markdown('/documentation/accounts-v1', '/documentation/accounts-v1', {
      accept: 'text/markdown',
    });
    expect(negotiated).toBe(md);
    const doc = (await (await client().get('/jsonapi/node/api_documentation/accounts-v1')).json()) as {
      data: { id: string };
    };
    expect(await markdown(`/documentation/${doc.data.id}.md`, '/documentation/accounts-v1')).toBe(md);
  });

  it('serves one operation at its own address, with a request body outline and a sample', async () => {
    const md = await markdown(
      '/documentation/accounts-v1/operations/getAccount.md',
      '/documentation/accounts-v1?operation=getAccount#operation/getAccount',
    );
    expect(md.startsWith('# GET /accounts/{accountId}\n')).toBe(true);
    expect(md).toContain(
      `An operation of [Accounts API Documentation](${origin}/documentation/accounts-v1.md).`,
    );
    expect(md).toContain('### Request samples (cURL)');
    expect(md).not.toContain('## GET /accounts\n');
    const payments = await get('/documentation/payments-v1.md');
    expect(payments.res.status).toBe(200);
    expect(payments.text).toContain('### Request body');
    expect(payments.text).toMatch(/```ts\n\{\n {2}\w+\??: /);
    expect((await get('/documentation/accounts-v1/operations/noSuchOperation.md')).res.status).toBe(404);
  });

  it('serves a product, an article, a basic page and the FAQ', async () => {
    const product = await markdown('/apiProduct/accounts-api-v1.md', '/apiProduct/accounts-api-v1');
    expect(product).toContain('# Accounts API');
    expect(product).toContain(`[Accounts API Documentation](${origin}/documentation/accounts-v1.md)`);

    const article = await markdown('/blog/sandbox-tips.md', '/blog/sandbox-tips');
    expect(article).toContain('# Five tips for testing in the sandbox');
    expect(article).toContain('> Test data, error scenarios and rate limits');
    expect(article).toContain('The sandbox answers every documented call with realistic data.');

    const page = await markdown('/privacy.md', '/privacy');
    expect(page.startsWith('# Privacy policy\n')).toBe(true);
    expect(page).not.toMatch(/<\/?p>/);
    // Another alias of the page: the page's own address in the Link.
    expect((await get('/page/privacy.md')).res.headers.get('link')).toContain(`<${origin}/privacy>`);

    const faq = await markdown('/faq-page.md', '/faq-page');
    expect(faq).toContain('# FAQs');
    expect(faq).toContain('## Getting access');
    expect(faq).toContain('### How do I get access to the APIs?');
    expect(faq).toContain(`[getting started guide](${origin}/started)`);

    const negotiated = await markdown('/faq-page', '/faq-page', {
      accept: 'text/markdown, text/html;q=0.5',
    });
    expect(negotiated).toBe(faq);
  });

  it('keeps the web page for a browser, and Markdown answers 304 to their ETag', async () => {
    const browser = await get('/faq-page', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/markdown;q=0.8,*/*;q=0.7',
    });
    expect(browser.res.headers.get('content-type') ?? '').not.toContain('markdown');
    expect(browser.res.headers.get('vary')).toMatch(/\bAccept\b/);
    const first = await get('/faq-page.md');
    const again = await client().get('/faq-page.md', {
      'if-none-match': first.res.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
  });

  it('never serves drafts, unpublished, scheduled or internal content, and 404s unknown pages', async () => {
    // The test's own portal: the draft page stays.
    await pagesRepo(t.app.db).create({
      aliases: ['/markdown-draft'],
      title: 'A draft page',
      body: '<p>Not yet.</p>',
      published: false,
    });
    const fx = await contentDb(t.app.db)
      .selectFrom('articles')
      .select('uuid')
      .where('path', '=', '/blog/fx-rates-v2')
      .executeTakeFirstOrThrow();
    // /llms-full.txt is kept in memory (built once) until a table it reads changes.
    const question = '### Is there a cost for using the sandbox?';
    expect((await get('/llms-full.txt')).text).toContain(question);
    expect((await get('/llms-full.txt')).text).toContain(question);
    await contentRepo(t.app.db).setPublished(fx.uuid, false);
    await sql`update faqs set published = false where question = 'Is there a cost for using the sandbox?'`.execute(
      t.app.db,
    );
    try {
      for (const url of [
        '/markdown-draft.md',
        '/blog/fx-rates-v2.md',
        '/blog/internal-release-train.md',
        '/documentation/no-such-api.md',
        '/apiProduct/no-such-product.md',
        '/no-such-page.md',
      ]) {
        const { res, text } = await get(url);
        expect(res.status, url).toBe(404);
        expect(text).toBe('# We were not able to find this page.\n');
      }
      const german = await get('/de/no-such-page.md');
      expect(german.res.status).toBe(404);
      expect(german.res.headers.get('content-language')).toBe('de');
      expect(german.text).toBe('# Diese Seite konnten wir leider nicht finden.\n');
      // Content negotiation for a page with no Markdown: the web app's answer, not Markdown.
      const internal = await get('/blog/internal-release-train', { accept: 'text/markdown' });
      expect(internal.res.headers.get('content-type') ?? '').not.toContain('markdown');

      const llms = (await get('/llms.txt')).text;
      const full = (await get('/llms-full.txt')).text;
      for (const text of [llms, full]) {
        expect(text).not.toContain('A draft page');
        expect(text).not.toContain('/blog/fx-rates-v2');
        expect(text).not.toContain('internal-release-train');
        expect(text).not.toContain('December release train');
        expect(text).not.toContain('Is there a cost for using the sandbox?');
        expect(text).not.toContain('Open data for branch locations');
      }
    } finally {
      await contentRepo(t.app.db).setPublished(fx.uuid, true);
      await sql`update faqs set published = true where question = 'Is there a cost for using the sandbox?'`.execute(
        t.app.db,
      );
    }
    expect((await get('/llms-full.txt')).text).toContain(question);
  });

  it('lists every public page of the demo content in /llms.txt, and all their Markdown in /llms-full.txt', async () => {
    const { res, text } = await get('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.startsWith('# Developers Portal\n\n> ')).toBe(true);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['APIs', 'API products', 'Articles', 'Pages', 'FAQ']);
    const links = [...text.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1]!);

    // Every documentation, product, public article, published page: from the public JSON:API.
    const json = async (url: string) =>
      (await (await client().get(url)).json()) as { data: { attributes: Record<string, unknown> }[] };
    const docs = await json('/jsonapi/node/api_documentation?page[limit]=50');
    const products = await json('/jsonapi/node/api_product?page[limit]=50&filter[field_deprecated]=0');
    const articles = await json('/jsonapi/node/article?page[limit]=50');
    const expected = [
      ...docs.data.map(
        (d) =>
          `${origin}/documentation/${String((d.attributes.path as { alias: string }).alias).replace(/^\/+/, '')}.md`,
      ),
      ...products.data.map(
        (p) =>
          `${origin}${(p.attributes.path as { alias: string }).alias.replace(/^\/(?!apiProduct)/, '/apiProduct/')}.md`,
      ),
      ...articles.data.map((a) => `${origin}${(a.attributes.path as { alias: string }).alias}.md`),
      `${origin}/privacy.md`,
      `${origin}/terms.md`,
      `${origin}/api-guidelines.md`,
      `${origin}/faq-page.md`,
    ];
    expect(docs.data.length).toBe(5);
    expect(articles.data.length).toBe(6);
    for (const link of expected) expect(links, link).toContain(link);
    // Each link answers its Markdown.
    for (const link of links) {
      const answer = await client().get(link.slice(origin.length));
      expect(answer.status, link).toBe(200);
    }

    const full = await get('/llms-full.txt');
    expect(full.res.status).toBe(200);
    expect(full.text).toContain('# Accounts API Documentation');
    expect(full.text).toContain('# Privacy policy');
    expect(full.text).toContain('### How do I get access to the APIs?');
    expect(full.text).toContain('# Five tips for testing in the sandbox');
  });

  it('lists the same pages in German at /de/llms.txt, each link its German Markdown, and links the languages', async () => {
    const english = (await get('/llms.txt')).text;
    expect(english).toContain(`In other languages: [Deutsch](${origin}/de/llms.txt)`);
    const { res, text } = await get('/de/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-language')).toBe('de');
    const de = markdownLabels('de').markdown;
    expect(text.startsWith('# Entwicklerportal\n\n> ')).toBe(true);
    expect(text).toContain(`> ${de.llmsSummary}`);
    expect(text).toContain(`In anderen Sprachen: [English](${origin}/llms.txt)`);
    expect([...text.matchAll(/^## (.+)$/gm)].map((m) => m[1])).toEqual([
      de.sectionApis,
      de.sectionProducts,
      de.sectionArticles,
      de.sectionPages,
      de.sectionFaq,
    ]);
    expect(text).toContain(`- [Dokumentation: Konten-API](${origin}/de/documentation/accounts-v1.md)`);
    const links = [...text.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1]!);
    // As many pages as in English, each under /de/, each answering its Markdown.
    expect(links.length).toBe([...english.matchAll(/^- \[/gm)].length);
    for (const link of links) {
      expect(link.startsWith(`${origin}/de/`), link).toBe(true);
      expect((await client().get(link.slice(origin.length))).status, link).toBe(200);
    }
    const full = await get('/de/llms-full.txt');
    expect(full.res.status).toBe(200);
    expect(full.text).toContain('# Dokumentation: Konten-API');
    expect(full.text).not.toContain('# Accounts API Documentation');
  });

  it('writes the reference in German under /de/: the translation and the labels', async () => {
    const md = await markdown('/de/documentation/accounts-v1.md', '/de/documentation/accounts-v1');
    expect(md.startsWith('# Dokumentation: Konten-API\n')).toBe(true);
    expect(md).toContain(`Webseite: ${origin}/de/documentation/accounts-v1`);
    expect(md).toContain('## Server (die Sandbox)');
    expect(md).toContain('## Authentifizierung');
    expect(md).toMatch(/^\d+ Operationen$/m);
    expect(md).toContain('### Parameter\n');
    expect(md).toContain('| Name | Ort | Typ | Erforderlich | Beschreibung |');
    expect(md).toMatch(/\| `accountId` \| Pfad \| string \| ja \|/);
    expect(md).toContain('### Antworten\n');
    expect(md).toContain('- Operations-ID: `getAccount`');
    expect(md).toContain(
      `Markdown dieser Operation: ${origin}/de/documentation/accounts-v1/operations/getAccount.md`,
    );
    for (const english of ['### Parameters', '### Responses', 'Web page:', '(the sandbox)', 'Operation ID']) {
      expect(md).not.toContain(english);
    }
    const one = await markdown(
      '/de/documentation/accounts-v1/operations/getAccount.md',
      '/de/documentation/accounts-v1?operation=getAccount#operation/getAccount',
    );
    expect(one.startsWith('# GET /accounts/{accountId}\n')).toBe(true);
    expect(one).toContain(
      `Eine Operation aus [Dokumentation: Konten-API](${origin}/de/documentation/accounts-v1.md).`,
    );
    expect(one).toContain('### Beispielanfragen (cURL)');
    const payments = (await get('/de/documentation/payments-v1.md')).text;
    expect(payments).toContain('### Anfragetext');
    expect(payments).toMatch(/^Schema:$/m);
    // English is kept apart in the cache: the same document, its own words.
    const english = (await get('/documentation/accounts-v1.md')).text;
    expect(english.startsWith('# Accounts API Documentation\n')).toBe(true);
    expect(english).toContain('### Parameters\n');
    expect(english).not.toContain('Konten-API');
  });

  it('writes products, articles, pages and the FAQ in German from their translations', async () => {
    const language = async (url: string) => (await get(url)).res.headers.get('content-language');

    const product = await markdown('/de/apiProduct/accounts-api-v1.md', '/de/apiProduct/accounts-api-v1');
    expect(product.startsWith('# Konten-API\n')).toBe(true);
    expect(product).toContain(`Webseite: ${origin}/de/apiProduct/accounts-api-v1`);
    expect(product).toContain('Bieten Sie Ihren Kundinnen und Kunden einen einheitlichen Blick auf ihr Geld');
    expect(product).toContain(
      `## Dokumentation\n\n- [Dokumentation: Konten-API](${origin}/de/documentation/accounts-v1.md)`,
    );
    expect(await language('/de/apiProduct/accounts-api-v1.md')).toBe('de');
    const deprecated = (await get('/de/apiProduct/accounts-api-v0.md')).text;
    expect(deprecated).toContain('_Diese Version ist veraltet._');

    const article = await markdown('/de/blog/sandbox-tips.md', '/de/blog/sandbox-tips');
    expect(article.startsWith('# Fünf Tipps für Tests in der Sandbox\n')).toBe(true);
    expect(article).toMatch(/^Veröffentlicht am \d{4}-\d{2}-\d{2}/m);
    expect(article).toContain(`Webseite: ${origin}/de/blog/sandbox-tips`);
    expect(article).toContain('> Testdaten, Fehlerszenarien und Ratenlimits');
    expect(article).toContain('Die Sandbox beantwortet jeden dokumentierten Aufruf mit realistischen Daten.');
    expect(article).not.toContain('Published ');
    expect(await language('/de/blog/sandbox-tips.md')).toBe('de');
    // The reader's language by the query too, and by Accept.
    expect((await get('/blog/sandbox-tips.md?langcode=de')).text).toBe(article);
    expect(
      await markdown('/de/blog/sandbox-tips', '/de/blog/sandbox-tips', { accept: 'text/markdown' }),
    ).toBe(article);

    const page = await markdown('/de/privacy.md', '/de/privacy');
    expect(page.startsWith('# Datenschutzerklärung\n')).toBe(true);
    expect(page).toContain(`Webseite: ${origin}/de/privacy`);
    expect(page).toContain('## Verantwortliche Stelle');
    expect(page).not.toMatch(/<\/?p>/);
    expect(await language('/de/privacy.md')).toBe('de');
    expect((await get('/de/page/privacy.md')).res.headers.get('link')).toContain(`<${origin}/de/privacy>`);

    const faq = await markdown('/de/faq-page.md', '/de/faq-page');
    expect(faq.startsWith('# FAQ\n')).toBe(true);
    expect(faq).toContain(`Webseite: ${origin}/de/faq-page`);
    expect(faq).toContain('### Wie erhalte ich Zugang zu den APIs?');
    expect(faq).toContain(`[Anleitung für den Einstieg](${origin}/started)`);
    expect(faq).not.toContain('How do I get access to the APIs?');
    expect(await language('/de/faq-page.md')).toBe('de');

    // English as it was: no Content-Language, no German.
    for (const url of [
      '/apiProduct/accounts-api-v1.md',
      '/blog/sandbox-tips.md',
      '/privacy.md',
      '/faq-page.md',
    ]) {
      const { res, text } = await get(url);
      expect(res.headers.get('content-language'), url).toBeNull();
      expect(text, url).toContain('Web page: ');
      expect(text, url).not.toContain('Webseite');
    }
  });

  it("writes the FAQ page's category headings and an article's category in German", async () => {
    type Category = { name: string; translations?: { de?: { name: string } } };
    const contentFile = (file: string) =>
      parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../content', file), 'utf8')) as unknown;
    const faqCategories = (contentFile('faq.yaml') as { categories: Category[] }).categories;
    const german = await markdown('/de/faq-page.md', '/de/faq-page');
    const english = await markdown('/faq-page.md', '/faq-page');
    for (const c of faqCategories) {
      expect(german).toContain(`\n## ${c.translations!.de!.name}\n`);
      expect(german).not.toContain(`\n## ${c.name}\n`);
      expect(english).toContain(`\n## ${c.name}\n`);
    }

    // content/blog/articles/sandbox-tips.md is filed under 'Developer stories'.
    const stories = (contentFile('blog/categories.yaml') as Category[]).find(
      (c) => c.name === 'Developer stories',
    )!;
    const article = await markdown('/de/blog/sandbox-tips.md', '/de/blog/sandbox-tips');
    expect(article).toContain(
      format(markdownLabels('de').markdown.category, { category: stories.translations!.de!.name }),
    );
    expect((await get('/blog/sandbox-tips.md')).text).toContain(
      format(markdownLabels('en').markdown.category, { category: stories.name }),
    );
  });

  it("shows an untranslated item's English under /de/, in German words, and says so", async () => {
    const created = await pagesRepo(t.app.db).create({
      aliases: ['/markdown-english-only'],
      title: 'Only in English',
      body: '<p>No translation yet.</p>',
      published: true,
    });
    try {
      const { res, text } = await get('/de/markdown-english-only.md');
      expect(res.status).toBe(200);
      expect(res.headers.get('link')).toBe(
        `<${origin}/de/markdown-english-only>; rel="alternate"; type="text/html"`,
      );
      expect(res.headers.get('content-language')).toBe('en');
      expect(text).toBe(
        `# Only in English\n\nWebseite: ${origin}/de/markdown-english-only\n\nNo translation yet.\n`,
      );
      const english = await get('/markdown-english-only.md');
      expect(english.res.headers.get('content-language')).toBeNull();
      expect(english.text).toBe(
        `# Only in English\n\nWeb page: ${origin}/markdown-english-only\n\nNo translation yet.\n`,
      );
    } finally {
      await pagesRepo(t.app.db).remove(created.id);
    }

    // A FAQ question without its translation: in English among the German ones, both languages named.
    const { uuid } = await contentDb(t.app.db)
      .selectFrom('faqs')
      .select('uuid')
      .where('question', '=', 'Do you support mutual TLS?')
      .executeTakeFirstOrThrow();
    const removed = await translationsOf(t.app.db).remove('faq', uuid, 'de');
    expect(removed).toBeDefined();
    try {
      const { res, text } = await get('/de/faq-page.md');
      expect(res.headers.get('content-language')).toBe('de, en');
      expect(text).toContain('### Do you support mutual TLS?');
      expect(text).toContain('### Wie erhalte ich Zugang zu den APIs?');
    } finally {
      await translationsOf(t.app.db).put('faq', uuid, 'de', removed!.fields, null);
    }
    expect((await get('/de/faq-page.md')).res.headers.get('content-language')).toBe('de');
  });

  it("takes its words from pages.json: English the catalogue's byte for byte, German complete", () => {
    expect(markdownLabels('en')).toEqual(ENGLISH_LABELS);
    const german = markdownLabels('de');
    expect(Object.keys(german.markdown).sort()).toEqual(Object.keys(ENGLISH_LABELS.markdown).sort());
    expect(german.products.parameters).toBe('Parameter');
    expect(german.products.responses).toBe('Antworten');
    expect(german.products.requiredMark).toBe('Erforderlich');
    expect(german.content.faqTitle).toBe('FAQ');
  });

  it('negotiates only when Markdown is preferred to HTML', () => {
    expect(prefersMarkdown('text/markdown')).toBe(true);
    expect(prefersMarkdown('text/markdown, text/html;q=0.9')).toBe(true);
    expect(prefersMarkdown('text/html, text/markdown')).toBe(false);
    expect(prefersMarkdown('text/markdown;q=0.5, */*;q=0.8')).toBe(false);
    expect(prefersMarkdown('text/markdown;q=0.9, text/*;q=0.5')).toBe(true);
    expect(prefersMarkdown('text/*')).toBe(false);
    expect(prefersMarkdown('*/*')).toBe(false);
    expect(prefersMarkdown(undefined)).toBe(false);
  });

  it("joins an operation's security alternatives by the language's list rules", () => {
    const op = {
      key: 'get-x',
      method: 'get',
      path: '/x',
      summary: null,
      deprecated: false,
      operationId: null,
      description: null,
      tags: [],
      server: '',
      parameters: [],
      requestBody: null,
      responses: [],
      security: [
        [{ scheme: 'oauth', type: 'oauth2', scopes: ['read'] }],
        [{ scheme: 'apiKey', type: 'apiKey', scopes: [] }],
        [{ scheme: 'basic', type: 'http', scopes: [] }],
      ],
      samples: [],
      refs: {},
    } as unknown as Parameters<typeof operationSection>[0];
    expect(operationSection(op, {})).toContain('- Authentication: oauth (read), apiKey or basic');
    const german = operationSection(op, {}, { labels: markdownLabels('de') });
    expect(german).toMatch(/: oauth \(read\), apiKey oder basic$/m);
  });

  it('outlines a schema compactly and to a depth', () => {
    const deep = (n: number): object =>
      n === 0 ? { type: 'string' } : { type: 'object', properties: { next: deep(n - 1) } };
    expect(
      schemaOutline({
        type: 'object',
        required: ['amount'],
        properties: {
          amount: { type: 'integer', description: 'In cents.\nMore.' },
          currency: { enum: ['EUR', 'USD'] },
          tags: { type: 'array', items: { type: ['string', 'null'] } },
          node: { $ref: '#/components/schemas/Node' },
        },
      }),
    ).toBe(
      '{\n  amount: number; // In cents.\n  currency?: "EUR" | "USD";\n  tags?: (string | null)[];\n  node?: Node;\n}',
    );
    expect(schemaOutline(deep(8))).toContain('next?: object;');
  });
});
