import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBlogAndFaq, internalLinks, loadContent } from '../src/modules/content/importer.ts';
import { contentRepo } from '../src/modules/content/repo.ts';
import { searchDocuments } from '../src/modules/search/service.ts';
import { TestClient } from './http-client.ts';
import { signedInUser, verifyThroughOutbox } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Public content (issue 13; spec B 2.3-2.5, 3, 7): articles, news categories, FAQs, images. */

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: { type: string; id: string } | null }>;
}
interface Doc {
  data: Resource[];
  included?: Resource[];
  links: { self: { href: string }; next?: { href: string }; prev?: { href: string } };
  meta: { count: number };
}
interface ErrorDoc {
  errors: { status: string; title: string; source?: { parameter?: string } }[];
}

const repoContent = path.resolve(import.meta.dirname, '../../../content');

describe('public content', () => {
  let t: TestApp;
  const dirs: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ INTERNAL_DEVELOPER_DOMAINS: 'bank.internal' });
  });
  afterAll(async () => {
    await t.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const anonymous = () => new TestClient(t.baseUrl);
  async function get<T = Doc>(url: string, client = anonymous()): Promise<{ status: number; body: T }> {
    const res = await client.get(url);
    return { status: res.status, body: (await res.json()) as T };
  }
  const titles = (d: Doc) => d.data.map((r) => r.attributes.title);

  it('lists published public articles newest first, five per page, with next links and meta.count', async () => {
    const { status, body } = await get(
      '/jsonapi/node/article?filter[status]=1&include=field_category,field_image&sort=-created&page[limit]=5&page[offset]=0',
    );
    expect(status).toBe(200);
    expect(body.meta.count).toBe(6);
    expect(body.data).toHaveLength(5);
    expect(titles(body)[0]).toBe('Instant payments are live in the Payments API');
    const created = body.data.map((r) => String(r.attributes.created));
    expect([...created].sort().reverse()).toEqual(created);
    // Internal articles and articles without a path are left out.
    expect(titles(body)).not.toContain('Internal: the December release train');
    expect(body.data.every((r) => (r.attributes.path as { alias: string }).alias.startsWith('/blog/'))).toBe(
      true,
    );
    const first = body.data[0]!;
    expect(first.relationships?.field_category?.data?.type).toBe('taxonomy_term--news_categories');
    const included = new Map((body.included ?? []).map((r) => [`${r.type}:${r.id}`, r]));
    const category = included.get(
      `taxonomy_term--news_categories:${first.relationships!.field_category!.data!.id}`,
    );
    expect(category?.attributes.name).toBe('Product news');
    const image = included.get(`file--file:${first.relationships!.field_image!.data!.id}`);
    expect(image?.attributes.url).toBe(`${t.config.publicUrl}/blog-images/instant-payments.svg`);
    expect(body.links.next?.href).toContain('page%5Boffset%5D=5');

    const next = await get(body.links.next!.href.replace(/^https?:\/\/[^/]+/, ''));
    expect(next.body.data).toHaveLength(1);
    expect(next.body.links.next).toBeUndefined();
    expect(next.body.meta.count).toBe(6);
  });

  it('filters by a category OR group and by title CONTAINS', async () => {
    const cats = await get('/jsonapi/taxonomy_term/news_categories');
    expect(cats.status).toBe(200);
    expect(cats.body.data.map((c) => c.attributes.name)).toEqual([
      'Product news',
      'Developer stories',
      'Security',
    ]);
    const id = (name: string) => cats.body.data.find((c) => c.attributes.name === name)!.id;
    const q = new URLSearchParams({
      'filter[cats][group][conjunction]': 'OR',
      'filter[c1][condition][path]': 'field_category.id',
      'filter[c1][condition][value]': id('Security'),
      'filter[c1][condition][memberOf]': 'cats',
      'filter[c2][condition][path]': 'field_category.id',
      'filter[c2][condition][value]': id('Developer stories'),
      'filter[c2][condition][memberOf]': 'cats',
      'filter[status]': '1',
    });
    const both = await get(`/jsonapi/node/article?${q}`);
    expect(both.status).toBe(200);
    expect(both.body.meta.count).toBe(4);
    expect(titles(both.body)).toContain('Five tips for testing in the sandbox');

    const search = await get(
      '/jsonapi/node/article?filter[title][value]=oauth&filter[title][operator]=CONTAINS',
    );
    expect(titles(search.body)).toEqual(['OAuth 2 in practice: client credentials or authorization code?']);
    const none = await get(
      '/jsonapi/node/article?filter[title][value]=zzzz&filter[title][operator]=CONTAINS',
    );
    expect(none.body).toMatchObject({ data: [], meta: { count: 0 } });
  });

  it('finds one article by its path alias, with its author and picture', async () => {
    const { body } = await get(
      '/jsonapi/node/article?filter[path.alias]=/blog/psd3-readiness&include=field_category,field_image,uid.user_picture',
    );
    expect(body.data).toHaveLength(1);
    const article = body.data[0]!;
    expect(article.attributes).toMatchObject({ field_scrollspy_visible: true, status: true });
    const html = (article.attributes.body as { processed: string }).processed;
    expect(html).toContain('<h1>Why PSD3 matters</h1>');
    expect(html).toContain('<h3>Revocation</h3>');
    const author = body.included?.find((r) => r.type === 'user--user');
    expect(author?.attributes).toMatchObject({
      name: 'Jonas Becker',
      first_name: 'Jonas',
      last_name: 'Becker',
    });
    const picture = body.included?.find((r) => r.id === author?.relationships?.user_picture?.data?.id);
    expect(picture?.attributes.url).toBe(`${t.config.publicUrl}/blog-images/author-jonas.svg`);

    const one = await get<{ data: Resource }>(`/jsonapi/node/article/${article.id}?include=field_category`);
    expect(one.status).toBe(200);
    expect(one.body.data.attributes.title).toBe(article.attributes.title);
    expect((await get(`/jsonapi/node/article/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await get(`/jsonapi/node/article/not-a-uuid`)).status).toBe(404);
  });

  it('shows the internal blog only to the internal developers group', async () => {
    const url = '/jsonapi/node/article?filter[field_internal]=1';
    expect((await get(url)).body.meta.count).toBe(0);
    const outsider = await signedInUser(t, 'someone@example.com');
    expect((await get(url, outsider)).body.meta.count).toBe(0);
    const insider = await signedInUser(t, 'dev@bank.internal');
    expect(titles((await get(url, insider)).body)).toEqual(['Internal: the December release train']);
    const admin = await signedInUser(t, 'content.admin@example.com', { admin: true });
    expect((await get(url, admin)).body.meta.count).toBe(1);
  });

  it('opens the internal blog only to a proven address of the group: lists, single reads, includes, search', async () => {
    const INTERNAL_TITLE = 'Internal: the December release train';
    const admin = await signedInUser(t, 'content.checker@example.com', { admin: true });
    const internal = (await get('/jsonapi/node/article?filter[field_internal]=1', admin)).body.data[0]!;
    expect(internal.attributes.title).toBe(INTERNAL_TITLE);
    const single = `/jsonapi/node/article/${internal.id}?include=field_category,uid.user_picture`;
    /** Every way the article could reach `client`: lists (filtered or not, counted), its own address, the search. */
    async function reaches(client: TestClient): Promise<boolean[]> {
      const filtered = (await get('/jsonapi/node/article?filter[field_internal]=1', client)).body;
      const all = (await get('/jsonapi/node/article?page[limit]=50&include=field_category', client)).body;
      const byPath = (
        await get('/jsonapi/node/article?filter[path.alias]=/blog/internal-release-train', client)
      ).body;
      const one = await get<{ data?: Resource }>(single, client);
      const search = (await get<{ meta: { count: number } }>('/phpsdk/search?q=freeze', client)).body;
      // The internal article is never in the site search, whoever asks.
      expect(search.meta.count).toBe(0);
      return [
        filtered.meta.count > 0,
        titles(all).includes(INTERNAL_TITLE),
        byPath.meta.count > 0,
        one.status === 200 && one.body.data?.id === internal.id,
      ];
    }
    const none = [false, false, false, false];
    const every = [true, true, true, true];

    // Signed up with an address of the group, never proven: nothing internal, the single read a 404.
    const unproven = await signedInUser(t, 'someone.x@bank.internal', { verified: false });
    expect(await reaches(unproven)).toEqual(none);
    expect((await unproven.get(single)).status).toBe(404);
    // Proving the address through the link sent to it opens the internal blog (the lists answered
    // from memory before are computed again: the user changed).
    expect((await unproven.send('POST', '/user/verification-mail', {}, 'application/json')).status).toBe(200);
    await verifyThroughOutbox(t, 'someone.x@bank.internal');
    expect(await reaches(unproven)).toEqual(every);
    // A proven address of another domain opens nothing internal.
    const outsider = await signedInUser(t, 'verified.outsider@example.com', { verified: true });
    expect(await reaches(outsider)).toEqual(none);
    expect(await reaches(anonymous())).toEqual(none);
  });

  it('answers bad queries with a 400 naming the parameter, never a 500', async () => {
    for (const [url, parameter] of [
      ['/jsonapi/node/article?filter[nope]=1', 'filter[nope]'],
      ['/jsonapi/node/article?page[limit]=-1', 'page[limit]'],
      ['/jsonapi/node/article?page[offset]=abc', 'page[offset]'],
      ['/jsonapi/node/article?sort=nope', 'sort'],
      ['/jsonapi/node/article?include=nope', 'include'],
      ['/jsonapi/node/article?filter[status]=maybe', 'filter[status]'],
      [
        '/jsonapi/node/article?filter[created][value]=x&filter[created][operator]=>',
        'filter[created][value]',
      ],
      ['/jsonapi/node/article?filter[field_category.id]=x', 'filter[field_category.id]'],
      ['/jsonapi/node/article?bogus=1', 'bogus'],
      [
        '/jsonapi/node/faq?filter[x][condition][path]=title&filter[x][condition][operator]=LIKE&filter[x][condition][value]=a',
        'filter[x][condition][operator]',
      ],
      ['/jsonapi/taxonomy_term/news_categories?sort=color', 'sort'],
    ] as const) {
      const { status, body } = await get<ErrorDoc>(url);
      expect(status, url).toBe(400);
      expect(body.errors[0]?.source?.parameter, url).toBe(parameter);
    }
  });

  it('lists FAQs with their categories, uncategorised last, and searches title or answer', async () => {
    const { status, body } = await get('/jsonapi/node/faq?include=field_category');
    expect(status).toBe(200);
    expect(body.meta.count).toBe(8);
    const cats = new Map((body.included ?? []).map((r) => [r.id, r.attributes.name]));
    const sections = body.data.map((f) => {
      const c = f.relationships?.field_category?.data;
      return c ? cats.get(c.id) : null;
    });
    expect(sections).toEqual([
      'Getting access',
      'Getting access',
      'Getting access',
      'Security and authentication',
      'Security and authentication',
      'Security and authentication',
      null,
      null,
    ]);
    const q = new URLSearchParams({
      'filter[or][group][conjunction]': 'OR',
      'filter[t][condition][path]': 'title',
      'filter[t][condition][operator]': 'CONTAINS',
      'filter[t][condition][value]': 'secret',
      'filter[t][condition][memberOf]': 'or',
      'filter[a][condition][path]': 'field_answer.value',
      'filter[a][condition][operator]': 'CONTAINS',
      'filter[a][condition][value]': 'secret',
      'filter[a][condition][memberOf]': 'or',
      include: 'field_category',
    });
    const found = await get(`/jsonapi/node/faq?${q}`);
    expect(found.body.data.map((f) => f.attributes.title)).toEqual([
      'What do I do if my client secret leaks?',
    ]);
    const faqCats = await get('/jsonapi/taxonomy_term/faq_categories');
    expect(faqCats.body.data.map((c) => c.attributes.name)).toEqual([
      'Getting access',
      'Security and authentication',
    ]);
  });

  it('serves content images and refuses other names', async () => {
    const res = await anonymous().get('/blog-images/psd3.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    expect((await anonymous().get('/blog-images/nope.svg')).status).toBe(404);
    expect((await anonymous().get('/blog-images/..%2Fauthors.yaml')).status).toBe(404);
  });

  it('says when cloud documents are not set up', async () => {
    expect((await get<unknown>('/phpsdk/cloud-documents/config')).body).toEqual({ enabled: false });
  });

  it('serves the getting-started blocks in the block layout', async () => {
    const { body } = await get<{ gettingStarted: { title: string }[] }>('/block-layout?_format=json');
    expect(body.gettingStarted.length).toBeGreaterThanOrEqual(3);
    expect(body.gettingStarted.at(-1)?.title).toBe('Authorize your calls');
  });

  it('indexes published articles for the site search and follows edits and unpublishing', async () => {
    const found = await searchDocuments(t.app.db, { q: 'verification payee', limit: 10, offset: 0 });
    expect(found.items.map((i) => [i.type, i.link])).toEqual([['article', '/blog/psd3-readiness']]);
    // Internal and path-less articles are not in the index.
    expect((await searchDocuments(t.app.db, { q: 'freeze', limit: 10, offset: 0 })).count).toBe(0);
    expect((await searchDocuments(t.app.db, { q: 'branch ATM locations', limit: 10, offset: 0 })).count).toBe(
      0,
    );

    // An edited file changes the article and its search row after the next import.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-content-'));
    dirs.push(dir);
    fs.cpSync(path.join(repoContent, 'blog'), path.join(dir, 'blog'), { recursive: true });
    fs.cpSync(path.join(repoContent, 'faq.yaml'), path.join(dir, 'faq.yaml'));
    fs.cpSync(path.join(repoContent, 'pages'), path.join(dir, 'pages'), { recursive: true });
    const file = path.join(dir, 'blog/articles/fx-rates-v2.md');
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace('FX Rates API v2 with streaming quotes', 'FX Rates API v2 with kangaroo quotes')
        .replace('38 currency pairs, up from 12.', '40 currency pairs including the wallaby dollar.'),
    );
    const result = await importBlogAndFaq(t.app.db, dir);
    expect(result.replaced).toEqual(['blog/articles/fx-rates-v2.md']);
    expect(result.created).toEqual([]);
    const { body } = await get('/jsonapi/node/article?filter[path.alias]=/blog/fx-rates-v2');
    expect(body.data[0]?.attributes.title).toBe('FX Rates API v2 with kangaroo quotes');
    const hits = await searchDocuments(t.app.db, { q: 'wallaby', limit: 10, offset: 0 });
    expect(hits.items.map((i) => i.title)).toEqual(['FX Rates API v2 with kangaroo quotes']);
    // A second import of the same files changes nothing.
    expect((await importBlogAndFaq(t.app.db, dir)).unchanged).toHaveLength(8);

    // Unpublished: out of the lists and out of the index.
    const uuid = body.data[0]!.id;
    await contentRepo(t.app.db).setPublished(uuid, false);
    expect((await searchDocuments(t.app.db, { q: 'wallaby', limit: 10, offset: 0 })).count).toBe(0);
    expect((await get('/jsonapi/node/article?filter[path.alias]=/blog/fx-rates-v2')).body.meta.count).toBe(0);
    await contentRepo(t.app.db).setPublished(uuid, true);
    expect((await searchDocuments(t.app.db, { q: 'wallaby', limit: 10, offset: 0 })).count).toBe(1);

    // A file that goes away takes its article and search row with it (its German goes too: a
    // translation without its article stops the import).
    fs.rmSync(file);
    fs.rmSync(file.replace(/\.md$/, '.de.md'));
    expect((await importBlogAndFaq(t.app.db, dir)).removed).toBe(1);
    expect((await searchDocuments(t.app.db, { q: 'wallaby', limit: 10, offset: 0 })).count).toBe(0);
  });

  it('reports a broken internal link with its file and line, before writing anything', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-content-'));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, 'blog/articles'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'blog/articles/a.md'),
      '---\ntitle: A\npath: /blog/a\ncreated: 2026-01-01\n---\n\nSee [B](/blog/b).\n\nAnd [nothing](/no-such-page).\n',
    );
    fs.writeFileSync(
      path.join(dir, 'blog/articles/b.md'),
      '---\ntitle: B\npath: /blog/b\ncreated: 2026-01-02\n---\n\nBack to [A](/blog/a) and the [FAQs](/faq-page).\n',
    );
    expect(() => loadContent(dir)).toThrow(
      'content/blog/articles/a.md:9: the link /no-such-page leads nowhere',
    );
    const links = internalLinks('x\n<a href="/y">y</a> [z](/z) [w](https://example.org/w)');
    expect(links).toHaveLength(2);
    expect(links).toContainEqual({ line: 2, target: '/y' });
    expect(links).toContainEqual({ line: 2, target: '/z' });
  });
});
