import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import { importPagesContent, loadPageFiles } from '../src/modules/pages/importer.ts';
import { normalizeAlias, pagesRepo, type PageJson } from '../src/modules/pages/repo.ts';
import { pagesDb } from '../src/modules/pages/tables.ts';
import { TestClient } from './http-client.ts';
import { createUser, signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Basic pages (spec B 2.1 '/{page}', 3, 4, 8): content/pages imported, served by alias. */

const repoContent = path.resolve(import.meta.dirname, '../../../content');

function tempContent(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-pages-'));
  fs.mkdirSync(path.join(dir, 'pages'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'pages', name), text);
  return dir;
}

describe('basic pages', () => {
  let t: TestApp;
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-dist-'));
  const dirs: string[] = [dist];
  beforeAll(async () => {
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><title>Developers Portal</title><div id="root"></div>',
    );
    t = await startTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function getPage(route: string, init?: RequestInit): Promise<{ res: Response; page: PageJson }> {
    const res = await fetch(`${t.baseUrl}${route}`, init);
    return { res, page: (await res.json()) as PageJson };
  }

  it('serves the imported privacy policy by its alias, with sanitized HTML and its author', async () => {
    const { res, page } = await getPage('/privacy?_format=json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(page).toMatchObject({
      title: 'Privacy policy',
      alias: '/privacy',
      image: null,
      field_google_drive_id: null,
      field_scrollspy_visible: true,
      statusCode: 200,
      author: { name: 'Ada Admin', first_name: 'Ada', last_name: 'Admin' },
    });
    expect(page.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.body).toContain('<h2>Cookies</h2>');
    expect(page.body).toContain('<h3>Analytics cookies</h3>');
    expect(page.body).toContain('<code>SESS</code>');
    expect(page.body).toContain('<a href="/cookie-settings">cookie settings</a>');
    expect(new Date(page.created).toISOString()).toBe(page.created);
    expect(new Date(page.changed).toISOString()).toBe(page.changed);
  });

  it('answers to every alias of a page, whatever the case and trailing slash', async () => {
    const { page: canonical } = await getPage('/privacy?_format=json');
    for (const route of [
      '/page/privacy?_format=json',
      '/Privacy/?_format=json',
      '/PAGE/Privacy?_format=json',
    ]) {
      const { res, page } = await getPage(route);
      expect(res.status, route).toBe(200);
      expect(page.uuid, route).toBe(canonical.uuid);
      expect(page.alias, route).toBe('/privacy');
    }
  });

  it('serves the terms of use', async () => {
    const { res, page } = await getPage('/terms?_format=json');
    expect(res.status).toBe(200);
    expect(page.title).toBe('Terms of use');
    expect(page.author).toBeNull();
    expect(page.body).toContain('<h2>Using the APIs</h2>');
  });

  it('serves the same page to a signed-in user', async () => {
    const client = await signedInUser(t, 'page.reader@example.com');
    const res = await client.get('/terms?_format=json');
    expect(res.status).toBe(200);
    expect(((await res.json()) as PageJson).title).toBe('Terms of use');
  });

  it('answers an unknown path with a JSON:API 404', async () => {
    for (const route of [
      '/no-such-page?_format=json',
      '/privacy/more?_format=json',
      '/caf%C3%A9?_format=json',
    ]) {
      const res = await fetch(`${t.baseUrl}${route}`);
      expect(res.status, route).toBe(404);
      expect(res.headers.get('content-type'), route).toContain('application/vnd.api+json');
      const body = (await res.json()) as JsonApiErrorBody;
      expect(body.errors[0]).toMatchObject({ status: '404', title: en.errors.notFoundText });
    }
  });

  it('leaves requests without _format=json to the web app', async () => {
    for (const route of ['/privacy', '/page/privacy', '/no-such-page', '/privacy?_format=html&x=1']) {
      const res = await fetch(`${t.baseUrl}${route}`);
      if (route.includes('_format=html')) {
        // A _format the pages do not serve keeps the web app's JSON:API 404.
        expect(res.status, route).toBe(404);
        continue;
      }
      // Issue 10: a path that is no page gets the web app (its 404 page) with status 404.
      expect(res.status, route).toBe(route === '/no-such-page' ? 404 : 200);
      expect(res.headers.get('content-type'), route).toContain('text/html');
      expect(await res.text(), route).toContain('<div id="root">');
    }
    const head = await fetch(`${t.baseUrl}/privacy`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('keeps the other _format=json routes and the API 404s as they were', async () => {
    const layout = await fetch(`${t.baseUrl}/block-layout?_format=json`);
    expect(layout.status).toBe(200);
    const body = (await layout.json()) as { footer: unknown[]; statusCode?: unknown };
    expect(Array.isArray(body.footer)).toBe(true);
    expect(body.statusCode).toBeUndefined();

    const status = await fetch(`${t.baseUrl}/user/login_status?_format=json`);
    expect(status.status).toBe(200);
    expect(await status.text()).toBe('0');

    const consent = await fetch(`${t.baseUrl}/phpsdk/cookies-consent?_format=json`);
    expect(((await consent.json()) as { labelCheckBox: string }).labelCheckBox).toBe(
      en.cookies.analyticsLabel,
    );

    const api = await fetch(`${t.baseUrl}/jsonapi/node/nothing?_format=json`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/vnd.api+json');
    // A POST to a page path is no page request.
    const post = await new TestClient(t.baseUrl).send(
      'POST',
      '/privacy?_format=json',
      {},
      'application/json',
    );
    expect(post.status).toBe(404);
  });

  it('re-imports idempotently: unchanged files are skipped and nothing is duplicated', async () => {
    const before = await pagesDb(t.app.db)
      .selectFrom('pages')
      .select(['uuid', 'changed'])
      .orderBy('id')
      .execute();
    const result = await importPagesContent(t.app.db, repoContent);
    expect(result).toEqual({
      created: [],
      replaced: [],
      unchanged: ['pages/api-guidelines.md', 'pages/privacy.md', 'pages/terms.md'],
      skipped: [],
      kept: [],
      translations: { written: 0, kept: 0, removed: 0 },
    });
    const after = await pagesDb(t.app.db)
      .selectFrom('pages')
      .select(['uuid', 'changed'])
      .orderBy('id')
      .execute();
    expect(after).toEqual(before);
    const aliases = await pagesDb(t.app.db)
      .selectFrom('page_aliases')
      .select('alias')
      .orderBy('alias')
      .execute();
    expect(aliases.map((a) => a.alias)).toEqual(
      expect.arrayContaining(['/page/privacy', '/privacy', '/terms']),
    );
    expect(aliases).toHaveLength(new Set(aliases.map((a) => a.alias)).size);
  });

  it('removes scripts and handlers from a page whatever its Markdown holds', async () => {
    const dir = tempContent({
      'unsafe.md': [
        '---',
        'title: Unsafe',
        'alias: /Unsafe-Page/',
        '---',
        '## Heading',
        '',
        '<script>alert("x")</script>',
        '',
        'Text with <img src="/x.png" onerror="alert(1)"> and [a link](javascript:alert(1)).',
        '',
        '<div onclick="alert(2)" style="color:red">block</div>',
      ].join('\n'),
    });
    dirs.push(dir);
    expect((await importPagesContent(t.app.db, dir)).created).toEqual(['pages/unsafe.md']);
    const { res, page } = await getPage('/unsafe-page?_format=json');
    expect(res.status).toBe(200);
    expect(page.alias).toBe('/unsafe-page');
    expect(page.body).toContain('<h2>Heading</h2>');
    expect(page.body).toContain('<img src="/x.png" />');
    expect(page.body).not.toMatch(/<script|alert|onerror|onclick|javascript:|style=/i);

    // The repository sanitizes too, for pages that do not come from content files.
    await pagesRepo(t.app.db).create({
      aliases: ['/direct'],
      title: 'Direct',
      body: '<p>ok</p><script>alert(3)</script><a href="javascript:alert(4)">x</a>',
    });
    const direct = await getPage('/direct?_format=json');
    expect(direct.page.body).toBe('<p>ok</p><a>x</a>');
  });

  it('replaces an imported page when its file changes, keeping its uuid', async () => {
    const page = (title: string, aliases: string) =>
      `---\ntitle: ${title}\naliases: ${aliases}\nscrollspy: false\n---\nSome *text*.\n`;
    const dir = tempContent({ 'about.md': page('About', '[/about, /page/about]') });
    dirs.push(dir);
    expect((await importPagesContent(t.app.db, dir)).created).toEqual(['pages/about.md']);
    const first = (await getPage('/page/about?_format=json')).page;
    expect(first.body).toBe('<p>Some <em>text</em>.</p>');

    expect((await importPagesContent(t.app.db, dir)).unchanged).toEqual(['pages/about.md']);

    fs.writeFileSync(path.join(dir, 'pages', 'about.md'), page('About us', '[/about, /company]'));
    expect((await importPagesContent(t.app.db, dir)).replaced).toEqual(['pages/about.md']);
    const second = (await getPage('/company?_format=json')).page;
    expect(second).toMatchObject({ uuid: first.uuid, title: 'About us', created: first.created });
    expect(second.changed >= first.changed).toBe(true);
    // The alias the file dropped is gone.
    expect((await fetch(`${t.baseUrl}/page/about?_format=json`)).status).toBe(404);
    const rows = await pagesDb(t.app.db)
      .selectFrom('pages')
      .select('id')
      .where('alias', '=', '/about')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('never touches a page that was not imported, and keeps other pages their aliases', async () => {
    const author = await createUser(t, 'page.author@example.com');
    const repo = pagesRepo(t.app.db);
    await repo.create({
      aliases: ['/partners'],
      title: 'Partners',
      body: '<p>Ours</p>',
      authorId: author.id,
    });
    const dir = tempContent({
      'partners.md': '---\ntitle: Imported partners\nalias: /partners\n---\nTheirs\n',
      'team.md': '---\ntitle: Team\naliases: [/team, /direct]\n---\nThe team\n',
    });
    dirs.push(dir);
    const result = await importPagesContent(t.app.db, dir);
    expect(result.skipped).toEqual(['pages/partners.md']);
    expect(result.created).toEqual(['pages/team.md']);
    const partners = (await getPage('/partners?_format=json')).page;
    expect(partners).toMatchObject({ title: 'Partners', body: '<p>Ours</p>' });
    expect(partners.author).toMatchObject({ uuid: author.uuid, uid: author.id, name: author.name });
    // '/direct' belongs to the page created earlier through the repository.
    expect((await getPage('/direct?_format=json')).page.title).toBe('Direct');
    expect((await getPage('/team?_format=json')).page.title).toBe('Team');

    // Deleting the author keeps the page, without an author.
    await t.app.db.deleteFrom('users').where('id', '=', author.id).execute();
    expect((await getPage('/partners?_format=json')).page.author).toBeNull();
  });

  it('stops on a broken page file with a message naming it', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ 'a.md': 'No front matter' }, /content\/pages\/a\.md must start with a YAML front matter/],
      [{ 'b.md': '---\ntitle: B\n---\nText\n' }, /content\/pages\/b\.md is invalid: it needs an alias/],
      [{ 'c.md': '---\ntitle: C\nalias: privacy\n---\nText\n' }, /'privacy' is not a path alias/],
      [{ 'd.md': '---\ntitle: D\nalias: /jsonapi/x\n---\nText\n' }, /is a path of the portal's API/],
      [{ 'e.md': '---\nalias: /e\n---\nText\n' }, /content\/pages\/e\.md is invalid:\n {2}title/],
      [
        { 'f.md': '---\ntitle: F\nalias: /same\n---\nF\n', 'g.md': '---\ntitle: G\nalias: /Same/\n---\nG\n' },
        /content\/pages\/f\.md and content\/pages\/g\.md both use the alias \/same/,
      ],
    ];
    for (const [files, message] of cases) {
      const dir = tempContent(files);
      dirs.push(dir);
      expect(() => loadPageFiles(dir)).toThrow(message);
    }
  });

  it('normalizes aliases the same way for requests and files', () => {
    expect(normalizeAlias('/Privacy/')).toBe('/privacy');
    expect(normalizeAlias('//page//privacy?x=1')).toBe('/page/privacy');
    expect(normalizeAlias('/caf%C3%A9')).toBeUndefined();
    expect(normalizeAlias('/')).toBeUndefined();
    expect(normalizeAlias('/../etc')).toBeUndefined();
  });
});
