import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { TestClient } from './http-client.ts';
import { consoleFixture, deleteAs } from './console-fixtures.ts';
import type { TestApp } from './test-app.ts';

/**
 * A console delete or move never leaves a broken internal link (modules/content/links.ts
 * `refuseLinksTo`, README.md 'Internal links'): deleting a page or an article, or changing the
 * addresses it answers, is refused with 409 while an article or FAQ text links to it, naming those
 * items with their console addresses, and nothing changes.
 */

const E = en.console.content.errors;
const PAGES = '/admin-api/content/pages';
const ARTICLES = '/admin-api/content/articles';
const FAQS = '/admin-api/content/faqs';

interface Item {
  id: string;
  version: number;
  path: string | null;
  aliases?: string[];
  [field: string]: unknown;
}
interface ErrorDoc {
  errors: { status: string; code: string; title: string; detail: string; source?: { pointer?: string } }[];
}

// The portal and its content editor (console-fixtures.ts).
const portal = consoleFixture('links');

describe('console: deletes and moves keep internal links working', () => {
  let t: TestApp;
  let editor: TestClient;
  beforeAll(async () => {
    t = portal.t;
    editor = await portal.as('content_editor');
  });

  const create = async (base: string, fields: Record<string, unknown>) => {
    const res = await editor.send('POST', base, fields, 'application/json');
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { data: Item }).data;
  };
  const read = async (base: string, id: string) => {
    const res = await editor.get(`${base}/${id}`);
    return {
      status: res.status,
      item: res.status === 200 ? ((await res.json()) as { data: Item }).data : null,
    };
  };
  const save = (base: string, item: Item, fields: Record<string, unknown>) => {
    const { id: _id, created: _c, changed: _ch, editedAt: _e, sourceFile: _s, ...rest } = item;
    return editor.send('PATCH', `${base}/${item.id}`, { ...rest, ...fields }, 'application/json');
  };
  const del = (base: string, item: Item) => deleteAs(editor, `${base}/${item.id}`, item.version);
  const refusal = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(409);
    const doc = (await res.json()) as ErrorDoc;
    expect(doc.errors).toHaveLength(1);
    expect(doc.errors[0]!.code).toBe('linked_content');
    return doc.errors[0]!;
  };
  const revisionCount = async (kind: string) =>
    Number(
      (
        await t.app.db
          .selectFrom('content_revisions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('kind', '=', kind)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses to delete a page an article links to, names the article, changes nothing; then deletes it', async () => {
    const page = await create(PAGES, {
      title: 'Links yak terms',
      path: '/links-yak-terms',
      aliases: ['/page/links-yak-terms'],
      body: 'The terms of the yak.',
      state: 'published',
    });
    const article = await create(ARTICLES, {
      title: 'Links yak article',
      path: '/blog/links-yak-article',
      body: 'Read [the terms](/Page/Links-Yak-Terms#scope) first.',
    });
    const pages = await revisionCount('page');

    const err = await refusal(await del(PAGES, page));
    expect(err.detail).toBe(
      E.linkedFrom
        .replace('{{targets}}', '/page/links-yak-terms')
        .replace(
          '{{items}}',
          `the article \u2018Links yak article\u2019 (/admin/content/articles/${article.id})`,
        ),
    );
    expect(err.title).toBe(err.detail);
    // Nothing changed: the page, its revisions, its address.
    expect((await read(PAGES, page.id)).item).toMatchObject({
      version: page.version,
      path: '/links-yak-terms',
    });
    expect(await revisionCount('page')).toBe(pages);
    expect((await new TestClient(t.baseUrl).get('/page/links-yak-terms?_format=json')).status).toBe(200);

    // Giving up the linked alias is refused too (pointer at the aliases); the path alone may go.
    const dropAlias = await refusal(await save(PAGES, page, { version: page.version, aliases: [] }));
    expect(dropAlias.source?.pointer).toBe('/aliases');
    const moved = await save(PAGES, page, { version: page.version, path: '/links-yak-terms-2' });
    expect(moved.status, await moved.clone().text()).toBe(200);
    const current = ((await moved.json()) as { data: Item }).data;
    expect(current.path).toBe('/links-yak-terms-2');

    // The link taken out, the page goes.
    const unlinked = await save(ARTICLES, article, { version: article.version, body: 'No link any more.' });
    expect(unlinked.status, await unlinked.clone().text()).toBe(200);
    expect((await del(PAGES, current)).status).toBe(204);
    expect((await read(PAGES, page.id)).status).toBe(404);
  });

  it('finds a link with a trailing slash, a query or a #fragment as a link to the page being deleted', async () => {
    const target = await create(ARTICLES, {
      title: 'Links okapi target',
      path: '/blog/links-okapi',
      body: 'The okapi.',
    });
    const slash = await create(ARTICLES, {
      title: 'Links okapi slash',
      path: '/blog/links-okapi-slash',
      body: 'See [the okapi](/blog/links-okapi/).',
    });
    const faq = await create(FAQS, {
      question: 'Where is the okapi part?',
      answer: 'In [its part](/Blog/Links-Okapi?ref=faq#part).',
    });
    const err = await refusal(await del(ARTICLES, target));
    expect(err.detail).toBe(
      E.linkedFrom
        .replace('{{targets}}', '/blog/links-okapi')
        .replace(
          '{{items}}',
          `the article \u2018Links okapi slash\u2019 (/admin/content/articles/${slash.id}), ` +
            `the FAQ question \u2018Where is the okapi part?\u2019 (/admin/content/faq/${faq.id})`,
        ),
    );
    expect((await read(ARTICLES, target.id)).item).toMatchObject({ version: target.version });
    for (const [base, item] of [
      [ARTICLES, slash],
      [FAQS, faq],
    ] as const)
      expect((await del(base, item)).status).toBe(204);
    expect((await del(ARTICLES, target)).status).toBe(204);
  });

  it('refuses a page path change a FAQ answer links to (pointer /path); an address kept among the aliases is no change', async () => {
    const page = await create(PAGES, {
      title: 'Links yak fees',
      path: '/links-yak-fees',
      body: 'Fees.',
      state: 'published',
    });
    const faq = await create(FAQS, {
      question: 'What does a yak cost?',
      answer: 'See <a href="/links-yak-fees">the fees</a>.',
    });
    const err = await refusal(await save(PAGES, page, { version: page.version, path: '/links-yak-prices' }));
    expect(err.source?.pointer).toBe('/path');
    expect(err.detail).toContain('/links-yak-fees');
    expect(err.detail).toContain(
      `the FAQ question \u2018What does a yak cost?\u2019 (/admin/content/faq/${faq.id})`,
    );
    expect((await read(PAGES, page.id)).item).toMatchObject({
      version: page.version,
      path: '/links-yak-fees',
    });

    // The old path kept as an alias: the link still leads somewhere.
    const kept = await save(PAGES, page, {
      version: page.version,
      path: '/links-yak-prices',
      aliases: ['/links-yak-fees'],
    });
    expect(kept.status, await kept.clone().text()).toBe(200);
    expect(((await kept.json()) as { data: Item }).data).toMatchObject({
      path: '/links-yak-prices',
      aliases: ['/links-yak-fees'],
    });
  });

  it('refuses to delete or move an article another article or a FAQ question links to', async () => {
    const target = await create(ARTICLES, {
      title: 'Links yak target',
      path: '/blog/links-yak-target',
      body: 'The target.',
    });
    const linking = await create(ARTICLES, {
      title: 'Links yak linking',
      body: 'Before [the target](/blog/links-yak-target).',
      imageUrl: null,
    });
    const faq = await create(FAQS, {
      question: 'Where is the yak target?',
      answer: 'In [the blog](/blog/links-yak-target/).',
    });
    const articles = await revisionCount('article');
    const del1 = await refusal(await del(ARTICLES, target));
    expect(del1.detail).toContain(`(/admin/content/articles/${linking.id})`);
    expect(del1.detail).toContain(`(/admin/content/faq/${faq.id})`);
    const move = await refusal(
      await save(ARTICLES, target, { version: target.version, path: '/blog/links-yak-moved' }),
    );
    expect(move.source?.pointer).toBe('/path');
    expect(await revisionCount('article')).toBe(articles);
    expect((await read(ARTICLES, target.id)).item).toMatchObject({
      version: target.version,
      path: '/blog/links-yak-target',
    });
    // An article linking to itself does not keep itself from going.
    const created = await create(ARTICLES, {
      title: 'Links yak self',
      path: '/blog/links-yak-self',
      body: 'This is me.',
    });
    const saved = await save(ARTICLES, created, {
      version: created.version,
      body: 'This is [me](/blog/links-yak-self).',
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const self = ((await saved.json()) as { data: Item }).data;
    expect((await del(ARTICLES, self)).status).toBe(204);
  });
});
