import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleFields } from '@portico/contracts/console-content';
import { en } from '@portico/contracts/messages';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import { publishDueArticles } from '../src/modules/content/console.ts';
import { exportArticles, exportFaq } from '../src/modules/content/export.ts';
import { importBlogAndFaq } from '../src/modules/content/importer.ts';
import { contentDb } from '../src/modules/content/tables.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Articles edited in the provider console (issue 27; modules/content/README.md 'Console'). */

const M = en.console.content;
const BASE = '/admin-api/content/articles';
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');

interface Article extends ArticleFields {
  id: string;
  version: number;
  sourceFile: string | null;
  editedAt: string | null;
}
interface Change {
  field: string;
  parts: { value: string; added: boolean; removed: boolean }[];
}
interface ErrorDoc {
  errors: {
    status: string;
    code: string;
    title: string;
    source?: { pointer?: string; parameter?: string };
  }[];
  meta?: { current: Article; changes: Change[] };
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-console-content-'));
  dirs.push(dir);
  return dir;
}

describe('console: articles', () => {
  let t: TestApp;
  let editor: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'content.editor@example.com', { roles: ['content_editor'] });
    admin = await signedInUser(t, 'content.admin@example.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (fields: Record<string, unknown>, client = editor) => {
    const res = await client.send('POST', BASE, fields, 'application/json');
    expect(res.status).toBe(201);
    return (await json<{ data: Article }>(res)).data;
  };
  const save = (id: string, fields: Record<string, unknown>, client = editor) =>
    client.send('PATCH', `${BASE}/${id}`, fields, 'application/json');
  const read = async (id: string) => (await json<{ data: Article }>(await editor.get(`${BASE}/${id}`))).data;
  const searchLinks = async (q: string) => {
    const res = await new TestClient(t.baseUrl).get(`/phpsdk/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return (await json<{ data: { type: string; link: string }[] }>(res)).data.map((d) => d.link);
  };
  const publicArticle = async (alias: string) => {
    const res = await new TestClient(t.baseUrl).get(
      `/jsonapi/node/article?filter[path.alias]=${encodeURIComponent(alias)}`,
    );
    expect(res.status).toBe(200);
    return (await json<{ data: { attributes: { title: string } }[] }>(res)).data;
  };
  const auditOf = (id: string) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'before', 'after'])
      .where('target_type', '=', 'article')
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();

  it('creates a draft, lists it by state and title, publishes it: on the blog and in search at once', async () => {
    const draft = await create({
      title: 'Console zebra launch',
      path: '/blog/console-zebra-launch',
      description: 'A zebra summary',
      body: '# Zebra\n\nThe **zebra** API is here.\n\n<script>alert(1)</script>',
    });
    expect(draft).toMatchObject({ state: 'draft', version: 1, publishAt: null, sourceFile: null });
    expect(await publicArticle('/blog/console-zebra-launch')).toEqual([]);
    expect(await searchLinks('zebra')).toEqual([]);

    const list = await json<{ data: { id: string; state: string }[]; meta: { count: number } }>(
      await editor.get(`${BASE}?state=draft&q=ZEBRA`),
    );
    expect(list.data.map((a) => [a.id, a.state])).toEqual([[draft.id, 'draft']]);
    expect(list.meta.count).toBe(1);
    const published = await json<{ data: { id: string }[] }>(
      await editor.get(`${BASE}?state=published&q=zebra`),
    );
    expect(published.data).toEqual([]);
    // The seeded articles are listed too, paged.
    const page = await json<{ data: unknown[]; meta: { count: number } }>(
      await editor.get(`${BASE}?page[limit]=2`),
    );
    expect(page.data).toHaveLength(2);
    expect(page.meta.count).toBeGreaterThan(5);

    const res = await save(draft.id, { ...fieldsOf(draft), state: 'published', version: 1 });
    expect(res.status).toBe(200);
    const live = (await json<{ data: Article }>(res)).data;
    expect(live).toMatchObject({ state: 'published', version: 2 });
    expect(res.headers.get('etag')).toBe('"2"');
    expect((await publicArticle('/blog/console-zebra-launch')).map((a) => a.attributes.title)).toEqual([
      'Console zebra launch',
    ]);
    expect(await searchLinks('zebra')).toEqual(['/blog/console-zebra-launch']);
    // The body is sanitized like the files' articles.
    const row = await contentDb(t.app.db)
      .selectFrom('articles')
      .select(['body_html', 'body_markdown', 'edited_at'])
      .where('uuid', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(row.body_html).toContain('<strong>zebra</strong>');
    expect(row.body_html).not.toContain('<script');
    expect(row.body_markdown).toContain('The **zebra** API is here.');
    expect(row.edited_at).not.toBeNull();

    expect((await auditOf(draft.id)).map((a) => [a.action, a.actor_email])).toEqual([
      ['article.created', 'content.editor@example.com'],
      ['article.published', 'content.editor@example.com'],
    ]);

    // Back to draft: gone from the blog and the search.
    const back = await save(draft.id, { ...fieldsOf(live), state: 'draft' }, admin);
    expect(back.status).toBe(428);
    const unpublished = await editor.request(`${BASE}/${draft.id}`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': await csrf(editor),
        'if-match': '"2"',
      },
      body: JSON.stringify({ ...fieldsOf(live), state: 'draft' }),
    });
    expect(unpublished.status).toBe(200);
    expect(await publicArticle('/blog/console-zebra-launch')).toEqual([]);
    expect(await searchLinks('zebra')).toEqual([]);
    expect((await auditOf(draft.id)).at(-1)?.action).toBe('article.updated');

    // Deleted: gone, audited.
    const gone = await del(editor, draft.id);
    expect(gone.status).toBe(204);
    expect((await editor.get(`${BASE}/${draft.id}`)).status).toBe(404);
    expect((await auditOf(draft.id)).at(-1)).toMatchObject({
      action: 'article.deleted',
      actor_email: 'content.editor@example.com',
    });
  });

  it('refuses bad input precisely, writing nothing', async () => {
    const before = await countArticles(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, '/title'],
      [{ title: 'x', path: 'no-slash' }, '/path'],
      [{ title: 'x', path: '/blog/instant-payments' }, '/path'],
      [{ title: 'x', state: 'scheduled' }, '/publishAt'],
      [{ title: 'x', state: 'scheduled', publishAt: '2020-01-01T00:00:00Z' }, '/publishAt'],
      [{ title: 'x', category: '00000000-0000-4000-8000-000000000000' }, '/category'],
      [{ title: 'x', state: 'gone' }, '/state'],
      [{ title: 'x', colour: 'red' }, ''],
    ];
    for (const [fields, pointer] of cases) {
      const res = await editor.send('POST', BASE, fields, 'application/json');
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const doc = await json<ErrorDoc>(res);
      if (pointer) expect(doc.errors[0]?.source?.pointer, JSON.stringify(fields)).toBe(pointer);
    }
    const taken = await editor.send(
      'POST',
      BASE,
      { title: 'x', path: '/blog/instant-payments' },
      'application/json',
    );
    expect((await json<ErrorDoc>(taken)).errors[0]?.title).toBe(M.errors.pathTaken);
    expect((await editor.get(`${BASE}?state=nope`)).status).toBe(400);
    expect(await countArticles(t)).toBe(before);
  });

  it('refuses an internal link that leads nowhere, as the import would; a console-created page is a target at once', async () => {
    const count = async () =>
      Number(
        (
          await contentDb(t.app.db)
            .selectFrom('articles')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const nowhere = (target: string) => M.errors.linkNowhere.replace('{{target}}', target);
    const refused = await editor.send(
      'POST',
      BASE,
      {
        title: 'Links nowhere',
        body: 'See [the FAQ](/faq) and ![x](/blog-images/none.png).\n\n[ok](/faq-page)',
      },
      'application/json',
    );
    expect(refused.status).toBe(400);
    const doc = await json<ErrorDoc>(refused);
    expect(doc.errors[0]).toMatchObject({ code: 'invalid_input', source: { pointer: '/body' } });
    expect(doc.errors[0]!.title).toBe([nowhere('/faq'), nowhere('/blog-images/none.png')].join('\n'));
    expect(await count()).toBe(before);

    const article = await create({
      title: 'Links somewhere',
      path: '/blog/links-somewhere',
      body: 'See [the FAQ](/faq-page).',
    });
    const stale = await save(article.id, {
      title: 'Links somewhere',
      path: '/blog/links-somewhere',
      body: 'See [a page](/links-target-page).',
      version: article.version,
    });
    expect(stale.status).toBe(400);
    expect((await json<ErrorDoc>(stale)).errors[0]).toMatchObject({
      code: 'invalid_input',
      title: nowhere('/links-target-page'),
      source: { pointer: '/body' },
    });
    const image = await save(article.id, {
      title: 'Links somewhere',
      path: '/blog/links-somewhere',
      body: 'See [the FAQ](/faq-page).',
      imageUrl: '/blog-images/missing-hero.png',
      version: article.version,
    });
    expect(image.status).toBe(400);
    expect((await json<ErrorDoc>(image)).errors[0]!.source?.pointer).toBe('/imageUrl');
    expect(await read(article.id)).toMatchObject({
      version: article.version,
      body: 'See [the FAQ](/faq-page).',
    });

    // The page created in the console first: the article's link to it is accepted.
    const page = await editor.send(
      'POST',
      '/admin-api/content/pages',
      { title: 'Links target', path: '/links-target-page', body: 'The target.' },
      'application/json',
    );
    expect(page.status, await page.clone().text()).toBe(201);
    const saved = await save(article.id, {
      title: 'Links somewhere',
      body: 'See [a page](/links-target-page#top) and [this article](/blog/links-somewhere).',
      path: '/blog/links-somewhere',
      version: article.version,
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    // The round trip below exports the articles without the pages: this one goes.
    expect((await del(editor, article.id)).status).toBe(204);
  });

  it('schedules an article: invisible until its time, then published once, on the blog and in search', async () => {
    const publishAt = new Date(Date.now() + 1500).toISOString();
    const article = await create({
      title: 'Scheduled quokka news',
      path: '/blog/scheduled-quokka-news',
      body: 'The quokka arrives.',
      state: 'scheduled',
      publishAt,
    });
    expect(article).toMatchObject({ state: 'scheduled', publishAt });
    expect(await publicArticle('/blog/scheduled-quokka-news')).toEqual([]);
    expect(await searchLinks('quokka')).toEqual([]);
    const scheduled = await json<{ data: { id: string }[] }>(await editor.get(`${BASE}?state=scheduled`));
    expect(scheduled.data.map((a) => a.id)).toContain(article.id);

    // The server's scheduler publishes it once its time has come.
    await expect
      .poll(async () => (await publicArticle('/blog/scheduled-quokka-news')).length, { timeout: 10_000 })
      .toBe(1);
    expect(await searchLinks('quokka')).toEqual(['/blog/scheduled-quokka-news']);
    const now = await read(article.id);
    expect(now).toMatchObject({ state: 'published', publishAt: null, version: 2 });
    // Once: running the publication again (another instance) changes nothing, not even the
    // data version that cached blog answers depend on.
    const versionBefore = await contentVersion(t);
    expect(await publishDueArticles(t.app.db)).toEqual([]);
    expect(await contentVersion(t)).toBe(versionBefore);
    const audit = await auditOf(article.id);
    expect(audit.map((a) => [a.action, a.actor_email])).toEqual([
      ['article.created', 'content.editor@example.com'],
      ['article.published', null],
    ]);
  });

  it('publishes due articles once when two publications race', async () => {
    const a = await create({
      title: 'Race wombat',
      path: '/blog/race-wombat',
      body: 'Wombat.',
      state: 'scheduled',
      publishAt: new Date(Date.now() + 60_000).toISOString(),
    });
    await contentDb(t.app.db)
      .updateTable('articles')
      .set({ publish_at: new Date(Date.now() - 1000) })
      .where('uuid', '=', a.id)
      .execute();
    const results = await Promise.all([publishDueArticles(t.app.db), publishDueArticles(t.app.db)]);
    const published = results.flat().filter((id) => id === a.id);
    // The background scheduler may have taken it first; never more than once.
    expect(published.length).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await read(a.id)).state).toBe('published');
    const entries = (await auditOf(a.id)).filter((e) => e.action === 'article.published');
    expect(entries).toHaveLength(1);
    expect(await searchLinks('wombat')).toEqual(['/blog/race-wombat']);
  });

  it('keeps revisions, shows the difference to the current version and restores one as a new save', async () => {
    const a = await create({ title: 'Revision otter', body: 'line one\nline two\n', description: 'first' });
    const second = await save(a.id, { ...fieldsOf(a), body: 'line one\nline 2\n', version: 1 });
    expect(second.status).toBe(200);
    const third = await save(
      a.id,
      { ...fieldsOf(a), title: 'Revision otter, again', body: 'line one\nline 2\n', version: 2 },
      admin,
    );
    expect(third.status).toBe(200);

    const revisions = await json<{ data: { version: number; author: string; current: boolean }[] }>(
      await editor.get(`${BASE}/${a.id}/revisions`),
    );
    expect(revisions.data.map((r) => [r.version, r.author, r.current])).toEqual([
      [3, 'content.admin@example.com', true],
      [2, 'content.editor@example.com', false],
      [1, 'content.editor@example.com', false],
    ]);

    const first = await json<{ data: { version: number; fields: { title: string }; changes: Change[] } }>(
      await editor.get(`${BASE}/${a.id}/revisions/1`),
    );
    expect(first.data.fields.title).toBe('Revision otter');
    const byField = Object.fromEntries(first.data.changes.map((c) => [c.field, c.parts]));
    expect(Object.keys(byField).sort()).toEqual(['body', 'title']);
    expect(byField.body?.filter((p) => p.removed).map((p) => p.value)).toEqual(['line two']);
    expect(byField.body?.filter((p) => p.added).map((p) => p.value)).toEqual(['line 2']);
    expect((await editor.get(`${BASE}/${a.id}/revisions/9`)).status).toBe(404);

    const restored = await editor.send(
      'POST',
      `${BASE}/${a.id}/revisions/1/restore`,
      { version: 3 },
      'application/json',
    );
    expect(restored.status).toBe(200);
    const now = (await json<{ data: Article }>(restored)).data;
    expect(now).toMatchObject({ version: 4, title: 'Revision otter', body: 'line one\nline two' });
    expect((await auditOf(a.id)).map((e) => e.action)).toEqual([
      'article.created',
      'article.updated',
      'article.updated',
      'article.restored',
    ]);
    // A stale restore is a conflict too.
    const stale = await editor.send(
      'POST',
      `${BASE}/${a.id}/revisions/2/restore`,
      { version: 3 },
      'application/json',
    );
    expect(stale.status).toBe(409);
    expect((await read(a.id)).version).toBe(4);
  });

  it('refuses a stale save with 409, the current version and what differs; nothing is overwritten', async () => {
    const a = await create({ title: 'Conflict lynx', body: 'base text' });
    // Two editors opened version 1; the administrator saves first.
    const theirs = await save(a.id, { ...fieldsOf(a), body: 'their text', version: 1 }, admin);
    expect(theirs.status).toBe(200);
    const mine = await save(a.id, { ...fieldsOf(a), body: 'my text', version: 1 });
    expect(mine.status).toBe(409);
    expect(mine.headers.get('etag')).toBe('"2"');
    const doc = await json<ErrorDoc>(mine);
    expect(doc.errors[0]).toMatchObject({ status: '409', code: 'conflict' });
    expect(doc.meta?.current).toMatchObject({ version: 2, body: 'their text' });
    expect(doc.meta?.changes.map((c) => c.field)).toEqual(['body']);
    expect((await read(a.id)).body).toBe('their text');
    // Overwriting deliberately: the current version named.
    const overwrite = await save(a.id, { ...fieldsOf(a), body: 'my text', version: 2 });
    expect(overwrite.status).toBe(200);
    expect((await read(a.id)).body).toBe('my text');
    // A stale delete is refused as well.
    expect((await del(editor, a.id, '"1"')).status).toBe(409);
    expect((await read(a.id)).version).toBe(3);
  });

  it('refuses other roles and developers with 403, changing nothing', async () => {
    const a = await create({ title: 'Guarded heron', body: 'heron' });
    const roles: (Exclude<ProviderRole, 'administrator' | 'content_editor'> | 'developer')[] = [
      'support_agent',
      'api_manager',
      'go_live_reviewer',
      'developer',
    ];
    const clients: [string, TestClient][] = [];
    for (const role of roles) {
      clients.push([
        role,
        await signedInUser(
          t,
          `content.${role.replace(/_/g, '-')}@example.com`,
          role === 'developer' ? {} : { roles: [role] },
        ),
      ]);
    }
    const before = await snapshot(t);
    for (const [role, client] of clients) {
      const calls: Response[] = [
        await client.get(BASE),
        await client.get(`${BASE}/${a.id}`),
        await client.get(`${BASE}/${a.id}/revisions`),
        await client.get(`${BASE}/${a.id}/revisions/1`),
        await client.get('/admin-api/content/categories'),
        await client.send('POST', BASE, { title: 'Intruder' }, 'application/json'),
        await client.send('PATCH', `${BASE}/${a.id}`, { title: 'Hijacked', version: 1 }, 'application/json'),
        await client.send('POST', `${BASE}/${a.id}/revisions/1/restore`, { version: 1 }, 'application/json'),
        await del(client, a.id),
      ];
      for (const res of calls) {
        expect(res.status, `${role} ${res.url}`).toBe(403);
        const doc = await json<ErrorDoc>(res);
        expect(doc.errors[0]?.title).toBe(M.forbidden);
      }
    }
    expect((await new TestClient(t.baseUrl).get(BASE)).status).toBe(401);
    expect(await snapshot(t)).toEqual(before);
    expect((await read(a.id)).title).toBe('Guarded heron');
  });

  it('the import keeps an article edited in the console, and replaces one that was not', async () => {
    // The seeded content, and two files of this test.
    const dir = tempDir();
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    const articles = path.join(dir, 'blog', 'articles');
    const file = (title: string, body: string) =>
      `---\ntitle: ${title}\npath: /blog/import-${title.toLowerCase()}\ncreated: 2026-01-02\n---\n\n${body}\n`;
    fs.writeFileSync(path.join(articles, 'edited.md'), file('Edited', 'From the file.'));
    fs.writeFileSync(path.join(articles, 'untouched.md'), file('Untouched', 'From the file.'));
    const first = await importBlogAndFaq(t.app.db, dir);
    expect(first.created.sort()).toEqual(['blog/articles/edited.md', 'blog/articles/untouched.md']);
    expect(first.removed).toBe(0);

    const row = await contentDb(t.app.db)
      .selectFrom('articles')
      .select('uuid')
      .where('source_file', '=', 'blog/articles/edited.md')
      .executeTakeFirstOrThrow();
    const imported = await read(row.uuid);
    expect(imported.body).toBe('From the file.');
    const edit = await save(row.uuid, {
      ...fieldsOf(imported),
      body: 'From the browser.',
      version: imported.version,
    });
    expect(edit.status).toBe(200);

    // Both files change; the edited article keeps the browser's text, the other follows its file.
    fs.writeFileSync(path.join(articles, 'edited.md'), file('Edited', 'The file changed.'));
    fs.writeFileSync(path.join(articles, 'untouched.md'), file('Untouched', 'The file changed.'));
    const second = await importBlogAndFaq(t.app.db, dir);
    expect(second.kept).toEqual(['blog/articles/edited.md']);
    expect(second.replaced).toEqual(['blog/articles/untouched.md']);
    expect((await read(row.uuid)).body).toBe('From the browser.');
    // Even when its file goes away, the edited article stays.
    fs.rmSync(path.join(articles, 'edited.md'));
    const third = await importBlogAndFaq(t.app.db, dir);
    expect(third.removed).toBe(0);
    expect((await read(row.uuid)).body).toBe('From the browser.');
  });

  it('export then import into a fresh database is a round trip that changes nothing', async () => {
    const categories = await json<{ data: { id: string; name: string }[] }>(
      await editor.get('/admin-api/content/categories'),
    );
    expect(categories.data.length).toBeGreaterThan(0);
    await create({
      title: 'Round trip: “quotes” & colons',
      path: '/blog/round-trip',
      description: 'Summary: with a colon',
      body: '## Heading\n\n- one\n- two\n\n```js\nconst a = 1;\n```',
      category: categories.data[0]!.id,
      imageUrl: 'https://images.example/hero.png',
      imageAlt: 'A hero',
      scrollspy: true,
      state: 'published',
    });
    await create({
      title: 'Round trip later',
      body: 'Later.',
      state: 'scheduled',
      publishAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    // Links of the seeded articles lead to pages and images of content/: the export goes next to them.
    const dir = tempDir();
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    const result = await exportArticles(t.app.db, dir);
    expect(result.written.length).toBe(await countArticles(t));
    // What `export-content` writes besides: the FAQ (test/console-faq.test.ts tests it on its own).
    await exportFaq(t.app.db, dir);

    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      const rows = async (app: TestApp) =>
        (
          await sql<
            Record<string, unknown>
          >`select a.title, a.path, a.description, a.body_markdown, a.body_html,
              a.image_url, a.image_alt, a.published, a.publish_at, a.internal, a.scrollspy_visible, a.created,
              a.source_file, c.name as category, au.key as author
            from articles a left join news_categories c on c.id = a.category_id
              left join article_authors au on au.id = a.author_id
            order by a.source_file`.execute(app.app.db)
        ).rows.map((r) => ({
          ...r,
          created: new Date(r.created as string).toISOString(),
          publish_at: r.publish_at ? new Date(r.publish_at as string).toISOString() : null,
        }));
      expect(await rows(fresh)).toEqual(await rows(t));
      const faqs = async (app: TestApp) =>
        (
          await sql<Record<string, unknown>>`select f.question, f.answer_html, f.published, c.name as category
            from faqs f left join faq_categories c on c.id = f.category_id
            order by coalesce(c.weight, 2147483647), c.id, f.weight, f.id`.execute(app.app.db)
        ).rows;
      expect(await faqs(fresh)).toEqual(await faqs(t));
    } finally {
      await fresh.close();
    }
  });
});

/** The editable fields of an article, as a save sends them. */
function fieldsOf(a: Article) {
  return {
    title: a.title,
    path: a.path,
    description: a.description,
    body: a.body,
    category: a.category,
    imageUrl: a.imageUrl,
    imageAlt: a.imageAlt,
    internal: a.internal,
    scrollspy: a.scrollspy,
    state: a.state,
    publishAt: a.publishAt,
  };
}

async function del(client: TestClient, id: string, ifMatch?: string): Promise<Response> {
  return client.request(`${BASE}/${id}`, {
    method: 'DELETE',
    headers: { 'x-csrf-token': await csrf(client), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  });
}

async function csrf(client: TestClient): Promise<string> {
  return (await client.get('/session/token')).text();
}

async function contentVersion(t: TestApp): Promise<string> {
  const row = await t.app.db
    .selectFrom('data_versions')
    .select('version')
    .where('domain', '=', 'content')
    .executeTakeFirstOrThrow();
  return String(row.version);
}

async function countArticles(t: TestApp): Promise<number> {
  const r = await contentDb(t.app.db)
    .selectFrom('articles')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function snapshot(t: TestApp) {
  const versions = await t.app.db.selectFrom('data_versions').select(['domain', 'version']).execute();
  const audit = await t.app.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const revisions = await t.app.db
    .selectFrom('content_revisions')
    .where('kind', '=', 'article')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return {
    versions: Object.fromEntries(versions.map((v) => [v.domain, String(v.version)])),
    audit: audit.n,
    revisions: revisions.n,
    articles: await countArticles(t),
  };
}
