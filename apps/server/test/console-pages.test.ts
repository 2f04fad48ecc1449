import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import { importPagesContent } from '../src/modules/pages/importer.ts';
import { exportPages } from '../src/modules/pages/export.ts';
import { pagesDb } from '../src/modules/pages/tables.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Basic pages edited in the provider console (issue 27; modules/pages/README.md 'Console'). */

const M = en.console.pages;
const E = en.console.content.errors;
const BASE = '/admin-api/content/pages';
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');

interface Page {
  id: string;
  version: number;
  title: string;
  path: string;
  aliases: string[];
  body: string;
  imageUrl: string | null;
  imageAlt: string;
  scrollspy: boolean;
  googleDriveId: string | null;
  state: 'draft' | 'published';
  sourceFile: string | null;
  editedAt: string | null;
}
interface Change {
  field: string;
  parts: { value: string; added: boolean; removed: boolean }[];
}
interface ErrorDoc {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: Page; changes: Change[] };
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-console-pages-'));
  dirs.push(dir);
  return dir;
}

/** The editable fields of a page, as a save sends them. */
function fieldsOf(p: Page) {
  return {
    title: p.title,
    path: p.path,
    aliases: p.aliases,
    body: p.body,
    imageUrl: p.imageUrl,
    imageAlt: p.imageAlt,
    scrollspy: p.scrollspy,
    googleDriveId: p.googleDriveId,
    state: p.state,
  };
}

describe('console: pages', () => {
  let t: TestApp;
  let editor: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'pages.editor@example.com', { roles: ['content_editor'] });
    admin = await signedInUser(t, 'pages.admin@example.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (fields: Record<string, unknown>, client = editor) => {
    const res = await client.send('POST', BASE, fields, 'application/json');
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<{ data: Page }>(res)).data;
  };
  const save = (id: string, fields: Record<string, unknown>, client = editor) =>
    client.send('PATCH', `${BASE}/${id}`, fields, 'application/json');
  const read = async (id: string) => (await json<{ data: Page }>(await editor.get(`${BASE}/${id}`))).data;
  const searchLinks = async (q: string) => {
    const res = await new TestClient(t.baseUrl).get(`/phpsdk/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return (await json<{ data: { type: string; link: string }[] }>(res)).data.map((d) => d.link);
  };
  const visit = (alias: string) => new TestClient(t.baseUrl).get(`${alias}?_format=json`);
  const auditOf = (id: string) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'before', 'after'])
      .where('target_type', '=', 'page')
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();
  const del = async (client: TestClient, id: string, ifMatch?: string) =>
    client.request(`${BASE}/${id}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': await csrf(client), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    });

  it('lists the seeded pages, creates a draft, publishes it: answered and found at once, then deleted', async () => {
    const list = await json<{ data: { path: string; state: string }[]; meta: { count: number } }>(
      await editor.get(BASE),
    );
    expect(list.data.map((p) => p.path)).toEqual(expect.arrayContaining(['/privacy', '/terms']));
    const privacy = await json<{ data: { id: string }[] }>(await editor.get(`${BASE}?q=privacy`));
    expect(privacy.data).toHaveLength(1);
    const imported = await read(privacy.data[0]!.id);
    expect(imported).toMatchObject({
      path: '/privacy',
      aliases: ['/page/privacy'],
      state: 'published',
      sourceFile: 'pages/privacy.md',
      editedAt: null,
    });
    // The Markdown of the file, not its HTML.
    expect(imported.body).toContain('## Who is responsible');

    const draft = await create({
      title: 'Console yak charter',
      path: '/Legal/Yak-Charter',
      aliases: ['/yak'],
      body: '# Yak\n\nThe **yak** charter.\n\n<script>alert(1)</script>',
    });
    expect(draft).toMatchObject({
      state: 'draft',
      version: 1,
      path: '/legal/yak-charter',
      aliases: ['/yak'],
    });
    expect((await visit('/legal/yak-charter')).status).toBe(404);
    expect(await searchLinks('yak')).toEqual([]);
    const drafts = await json<{ data: { id: string }[]; meta: { count: number } }>(
      await editor.get(`${BASE}?state=draft&q=YAK`),
    );
    expect(drafts.data.map((p) => p.id)).toEqual([draft.id]);
    expect((await editor.get(`${BASE}?state=published&q=yak`)).ok).toBe(true);
    expect((await json<{ data: unknown[] }>(await editor.get(`${BASE}?state=published&q=yak`))).data).toEqual(
      [],
    );

    const res = await save(draft.id, { ...fieldsOf(draft), state: 'published', version: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    const live = (await json<{ data: Page }>(res)).data;
    expect(live).toMatchObject({ state: 'published', version: 2 });
    for (const alias of ['/legal/yak-charter', '/yak']) {
      const page = await visit(alias);
      expect(page.status).toBe(200);
      const body = await json<{ title: string; alias: string; body: string }>(page);
      expect(body).toMatchObject({ title: 'Console yak charter', alias: '/legal/yak-charter' });
      expect(body.body).toContain('<strong>yak</strong>');
      expect(body.body).not.toContain('<script');
    }
    expect(await searchLinks('yak')).toEqual(['/legal/yak-charter']);

    // Edited: the visitor and the search see the new text at once.
    const edited = await save(
      draft.id,
      {
        ...fieldsOf(live),
        title: 'Console yak charter, revised',
        body: 'The **yak** charter, revised.',
        version: 2,
      },
      admin,
    );
    expect(edited.status).toBe(200);
    expect((await json<{ title: string }>(await visit('/yak'))).title).toBe('Console yak charter, revised');
    expect(await searchLinks('revised yak')).toEqual(['/legal/yak-charter']);

    const row = await pagesDb(t.app.db)
      .selectFrom('pages')
      .select(['body_markdown', 'edited_at', 'source_hash'])
      .where('uuid', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ body_markdown: 'The **yak** charter, revised.', source_hash: null });
    expect(row.edited_at).not.toBeNull();

    const gone = await del(editor, draft.id);
    expect(gone.status).toBe(204);
    expect((await editor.get(`${BASE}/${draft.id}`)).status).toBe(404);
    expect((await visit('/yak')).status).toBe(404);
    expect(await searchLinks('yak')).toEqual([]);
    const audit = await auditOf(draft.id);
    expect(audit.map((a) => [a.action, a.actor_email])).toEqual([
      ['page.created', 'pages.editor@example.com'],
      ['page.published', 'pages.editor@example.com'],
      ['page.updated', 'pages.admin@example.com'],
      ['page.deleted', 'pages.editor@example.com'],
    ]);
    const update = audit[2]!;
    const value = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : v);
    expect(value(update.before)).toMatchObject({ title: 'Console yak charter', version: 2 });
    expect(value(update.after)).toMatchObject({ title: 'Console yak charter, revised', version: 3 });
  });

  it('refuses bad input precisely, writing nothing', async () => {
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ title: '', path: '/x-page', body: 'x' }, '/title'],
      [{ title: 'x', body: 'x' }, '/path'],
      [{ title: 'x', path: 'no-slash', body: 'x' }, '/path', M.errors.pathInvalid],
      [{ title: 'x', path: '/white space', body: 'x' }, '/path', M.errors.pathInvalid],
      [{ title: 'x', path: '/privacy', body: 'x' }, '/path', M.errors.pathTaken],
      [{ title: 'x', path: '/page/privacy', body: 'x' }, '/path', M.errors.pathTaken],
      [{ title: 'x', path: '/blog/instant-payments', body: 'x' }, '/path', M.errors.pathReserved],
      [{ title: 'x', path: '/support/contact', body: 'x' }, '/path', M.errors.pathReserved],
      [{ title: 'x', path: '/apiProducts', body: 'x' }, '/path', M.errors.pathReserved],
      [{ title: 'x', path: '/jsonapi/node', body: 'x' }, '/path', M.errors.pathReserved],
      [{ title: 'x', path: '/admin/secret', body: 'x' }, '/path', M.errors.pathReserved],
      [{ title: 'x', path: '/assets/app.js', body: 'x' }, '/path', M.errors.pathReserved],
      [{ title: 'x', path: '/', body: 'x' }, '/path', M.errors.pathInvalid],
      [{ title: 'x', path: '/fine-page', aliases: ['/terms'], body: 'x' }, '/aliases/0', M.errors.pathTaken],
      [{ title: 'x', path: '/fine-page', body: '  ' }, '/body', M.errors.bodyNeeded],
      [{ title: 'x', path: '/fine-page', body: 'x', state: 'sometime' }, '/state'],
      [{ title: 'x', path: '/fine-page', body: 'x', state: 'scheduled' }, '/publishAt', E.publishAtNeeded],
      [
        { title: 'x', path: '/fine-page', body: 'x', state: 'scheduled', publishAt: '2020-01-01T00:00:00Z' },
        '/publishAt',
        E.publishAtNeeded,
      ],
      [{ title: 'x', path: '/fine-page', body: 'x', imageUrl: 'javascript:alert(1)' }, '/imageUrl'],
      [{ title: 'x', path: '/fine-page', body: 'x', colour: 'red' }, ''],
    ];
    for (const [fields, pointer, title] of cases) {
      const res = await editor.send('POST', BASE, fields, 'application/json');
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const doc = await json<ErrorDoc>(res);
      if (pointer) expect(doc.errors[0]?.source?.pointer, JSON.stringify(fields)).toBe(pointer);
      if (title) expect(doc.errors[0]?.title, JSON.stringify(fields)).toBe(title);
    }
    expect((await editor.get(`${BASE}?state=nope`)).status).toBe(400);
    expect((await editor.get(`${BASE}?page[limit]=x`)).status).toBe(400);
    expect((await editor.get(`${BASE}/not-a-uuid`)).status).toBe(404);
    // A save without the version it started from.
    const p = await create({ title: 'Versionless', path: '/versionless', body: 'v' });
    const mid = await snapshot(t);
    expect((await save(p.id, fieldsOf(p))).status).toBe(428);
    expect((await save(p.id, { ...fieldsOf(p), path: '/terms', version: 1 })).status).toBe(400);
    expect(await snapshot(t)).toEqual(mid);
    expect((await del(editor, p.id)).status).toBe(204);
    expect((await snapshot(t)).pages).toBe(before.pages);
  });

  it('refuses a stale save with 409, the current version and what differs; nothing is overwritten', async () => {
    const p = await create({ title: 'Conflict ibex', path: '/conflict-ibex', body: 'base text' });
    const theirs = await save(p.id, { ...fieldsOf(p), body: 'their text', version: 1 }, admin);
    expect(theirs.status).toBe(200);
    const mine = await save(p.id, { ...fieldsOf(p), title: 'Mine', body: 'my text', version: 1 });
    expect(mine.status).toBe(409);
    expect(mine.headers.get('etag')).toBe('"2"');
    const doc = await json<ErrorDoc>(mine);
    expect(doc.errors[0]).toMatchObject({ status: '409', code: 'conflict' });
    expect(doc.errors[0]?.title).toBe(M.errors.stale.replace('{{version}}', '2'));
    expect(doc.meta?.current).toMatchObject({ version: 2, body: 'their text', title: 'Conflict ibex' });
    const byField = Object.fromEntries((doc.meta?.changes ?? []).map((c) => [c.field, c.parts]));
    expect(Object.keys(byField)).toEqual(['title', 'body']);
    expect(byField.body?.filter((c) => c.removed).map((c) => c.value.trim())).toEqual(['my text']);
    expect(byField.body?.filter((c) => c.added).map((c) => c.value.trim())).toEqual(['their text']);
    expect((await read(p.id)).body).toBe('their text');
    // Overwriting deliberately: the current version named (here as If-Match).
    const overwrite = await editor.request(`${BASE}/${p.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-csrf-token': await csrf(editor), 'if-match': '"2"' },
      body: JSON.stringify({ ...fieldsOf(p), body: 'my text' }),
    });
    expect(overwrite.status).toBe(200);
    expect((await read(p.id)).body).toBe('my text');
    // A stale delete is refused as well.
    expect((await del(editor, p.id, '"1"')).status).toBe(409);
    expect((await read(p.id)).version).toBe(3);
    expect((await del(editor, p.id, '"3"')).status).toBe(204);
  });

  it('keeps revisions, shows the difference to the current version and restores one as a new save', async () => {
    const p = await create({ title: 'Revision gnu', path: '/revision-gnu', body: 'line one\nline two\n' });
    expect((await save(p.id, { ...fieldsOf(p), body: 'line one\nline 2\n', version: 1 })).status).toBe(200);
    const third = await save(
      p.id,
      {
        ...fieldsOf(p),
        title: 'Revision gnu, again',
        body: 'line one\nline 2\n',
        state: 'published',
        version: 2,
      },
      admin,
    );
    expect(third.status).toBe(200);
    const revisions = await json<{ data: { version: number; author: string; current: boolean }[] }>(
      await editor.get(`${BASE}/${p.id}/revisions`),
    );
    expect(revisions.data.map((r) => [r.version, r.author, r.current])).toEqual([
      [3, 'pages.admin@example.com', true],
      [2, 'pages.editor@example.com', false],
      [1, 'pages.editor@example.com', false],
    ]);
    const first = await json<{ data: { fields: { title: string }; changes: Change[] } }>(
      await editor.get(`${BASE}/${p.id}/revisions/1`),
    );
    expect(first.data.fields.title).toBe('Revision gnu');
    const byField = Object.fromEntries(first.data.changes.map((c) => [c.field, c.parts]));
    expect(Object.keys(byField)).toEqual(['title', 'body', 'state']);
    expect(byField.body?.filter((c) => c.removed).map((c) => c.value)).toEqual(['line two']);
    expect((await editor.get(`${BASE}/${p.id}/revisions/9`)).status).toBe(404);
    expect((await editor.get(`${BASE}/${p.id}/revisions/x`)).status).toBe(404);

    expect((await visit('/revision-gnu')).status).toBe(200);
    const restored = await editor.send(
      'POST',
      `${BASE}/${p.id}/revisions/1/restore`,
      { version: 3 },
      'application/json',
    );
    expect(restored.status).toBe(200);
    expect((await json<{ data: Page }>(restored)).data).toMatchObject({
      version: 4,
      title: 'Revision gnu',
      body: 'line one\nline two',
      state: 'draft',
    });
    // Restoring the draft took it off the site.
    expect((await visit('/revision-gnu')).status).toBe(404);
    const stale = await editor.send(
      'POST',
      `${BASE}/${p.id}/revisions/2/restore`,
      { version: 3 },
      'application/json',
    );
    expect(stale.status).toBe(409);
    expect((await auditOf(p.id)).map((e) => e.action)).toEqual([
      'page.created',
      'page.updated',
      'page.published',
      'page.restored',
    ]);
    expect((await del(editor, p.id)).status).toBe(204);
  });

  it('refuses other roles and developers with 403, changing nothing', async () => {
    const p = await create({ title: 'Guarded egret', path: '/guarded-egret', body: 'egret' });
    const roles: (Exclude<ProviderRole, 'administrator' | 'content_editor'> | 'developer')[] = [
      'support_agent',
      'api_manager',
      'go_live_reviewer',
      'developer',
    ];
    const before = await snapshot(t);
    for (const role of roles) {
      const client = await signedInUser(
        t,
        `pages.${role.replace(/_/g, '-')}@example.com`,
        role === 'developer' ? {} : { roles: [role] },
      );
      const calls: Response[] = [
        await client.get(BASE),
        await client.get(`${BASE}/${p.id}`),
        await client.get(`${BASE}/${p.id}/revisions`),
        await client.get(`${BASE}/${p.id}/revisions/1`),
        await client.send(
          'POST',
          BASE,
          { title: 'Intruder', path: '/intruder', body: 'x' },
          'application/json',
        ),
        await client.send(
          'PATCH',
          `${BASE}/${p.id}`,
          { ...fieldsOf(p), title: 'Hijacked', version: 1 },
          'application/json',
        ),
        await client.send('POST', `${BASE}/${p.id}/revisions/1/restore`, { version: 1 }, 'application/json'),
        await del(client, p.id),
      ];
      for (const res of calls) {
        expect(res.status, `${role} ${res.url}`).toBe(403);
        expect((await json<ErrorDoc>(res)).errors[0]?.title).toBe(M.forbidden);
      }
    }
    expect((await new TestClient(t.baseUrl).get(BASE)).status).toBe(401);
    const after = await snapshot(t);
    // Signing the users in counts as identity changes; the pages' data did not move.
    expect({ ...after, versions: after.versions.pages }).toEqual({
      ...before,
      versions: before.versions.pages,
    });
    expect((await read(p.id)).title).toBe('Guarded egret');
    expect((await del(editor, p.id)).status).toBe(204);
  });

  it('the import keeps a page edited in the console, and replaces one that was not', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'pages'));
    const file = (alias: string, body: string) =>
      `---\ntitle: Import ${alias}\nalias: /${alias}\n---\n\n${body}\n`;
    fs.writeFileSync(path.join(dir, 'pages', 'edited.md'), file('import-edited', 'From the file.'));
    fs.writeFileSync(path.join(dir, 'pages', 'untouched.md'), file('import-untouched', 'From the file.'));
    const first = await importPagesContent(t.app.db, dir);
    expect(first.created).toEqual(['pages/edited.md', 'pages/untouched.md']);

    const listed = await json<{ data: { id: string; path: string }[] }>(
      await editor.get(`${BASE}?q=import-edited`),
    );
    const imported = await read(listed.data[0]!.id);
    expect(imported).toMatchObject({
      body: 'From the file.',
      sourceFile: 'pages/edited.md',
      state: 'published',
    });
    const edit = await save(imported.id, {
      ...fieldsOf(imported),
      body: 'From the browser.',
      version: imported.version,
    });
    expect(edit.status).toBe(200);

    fs.writeFileSync(path.join(dir, 'pages', 'edited.md'), file('import-edited', 'The file changed.'));
    fs.writeFileSync(path.join(dir, 'pages', 'untouched.md'), file('import-untouched', 'The file changed.'));
    const second = await importPagesContent(t.app.db, dir);
    expect(second.kept).toEqual(['pages/edited.md']);
    expect(second.replaced).toEqual(['pages/untouched.md']);
    expect((await read(imported.id)).body).toBe('From the browser.');
    const untouched = await json<{ body: string }>(await visit('/import-untouched'));
    expect(untouched.body).toContain('The file changed.');
  });

  it('export then import into a fresh database is a round trip that changes nothing', async () => {
    await create({
      title: 'Round trip: “quotes” & colons',
      path: '/round-trip',
      aliases: ['/page/round-trip', '/rt'],
      body: '## Heading\n\n- one\n- two\n\n```js\nconst a = 1;\n```',
      imageUrl: 'https://images.example/hero.png',
      imageAlt: 'A hero',
      scrollspy: true,
      googleDriveId: 'drive-123',
      state: 'published',
    });
    await create({ title: 'Round trip draft', path: '/round-trip-draft', body: 'Not yet.' });
    // The export goes next to the rest of content/ (the blog links to the pages).
    const dir = tempDir();
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    const result = await exportPages(t.app.db, dir);
    expect(result.written).toEqual(expect.arrayContaining(['pages/privacy.md', 'pages/round-trip.md']));
    expect(result.written.length).toBe((await snapshot(t)).pages);
    // The seeded files come out as they went in, but for their comments.
    const text = fs.readFileSync(path.join(dir, 'pages', 'terms.md'), 'utf8');
    expect(text).toMatch(/^---\ntitle: Terms of use\nalias: \/terms\n/);

    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      const rows = async (app: TestApp) =>
        (
          await sql<Record<string, unknown>>`select p.title, p.alias, p.body_markdown, p.body_html,
              p.image_url, p.image_alt, p.scrollspy_visible, p.google_drive_id, p.published,
              u.email as author,
              (select string_agg(a.alias, ' ' order by a.alias) from page_aliases a where a.page_id = p.id) as aliases
            from pages p left join users u on u.id = p.author_id
            order by p.alias`.execute(app.app.db)
        ).rows;
      expect(await rows(fresh)).toEqual(await rows(t));
      // A draft stays a draft.
      expect((await new TestClient(fresh.baseUrl).get('/round-trip-draft?_format=json')).status).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});

async function csrf(client: TestClient): Promise<string> {
  return (await client.get('/session/token')).text();
}

async function snapshot(t: TestApp) {
  const versions = await t.app.db.selectFrom('data_versions').select(['domain', 'version']).execute();
  const audit = await t.app.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const count = async (table: 'pages' | 'page_aliases') =>
    Number(
      (
        await pagesDb(t.app.db)
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    versions: Object.fromEntries(versions.map((v) => [v.domain, String(v.version)])),
    audit: audit.n,
    pages: await count('pages'),
    revisions: Number(
      (
        await t.app.db
          .selectFrom('content_revisions')
          .where('kind', '=', 'page')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    aliases: await count('page_aliases'),
  };
}
