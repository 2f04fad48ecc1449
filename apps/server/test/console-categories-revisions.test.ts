import type { ConsoleChangelogEntry } from '@portico/contracts/console-products';
import type { FaqCategory, FaqQuestion, NewsCategory } from '@portico/contracts/console-content';
import { en } from '@portico/contracts/messages';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportArticles } from '../src/modules/content/export.ts';
import { importBlogAndFaq } from '../src/modules/content/importer.ts';
import {
  auditActions,
  consoleFixture,
  dataOf,
  deleteAs,
  json,
  othersThan,
  storedRevisions,
} from './console-fixtures.ts';
import type { TestClient } from './http-client.ts';

/**
 * News and FAQ categories and API product changelog entries as versioned content (issue 27,
 * decision 048 item 5): every save, rename, move and restore stores a revision; the revisions
 * list, one revision with what differs from it to the current version, restore (version-checked,
 * audited), 428 without a version, 409 with `meta.current` and the word diff when stale, and a
 * delete takes the item's revisions with it.
 */

const M = en.console.content;
const P = en.console.products;
const portal = consoleFixture('categories');

type Part = { value: string; added: boolean; removed: boolean };
interface Change {
  field: string;
  parts: Part[];
  before?: string;
  after?: string;
}
interface RevisionItem {
  version: number;
  author: string | null;
  current: boolean;
}
interface ErrorDoc<T> {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: T; changes: Change[] };
}

const added = (c: Change) =>
  c.parts
    .filter((p) => p.added)
    .map((p) => p.value)
    .join('');
const removed = (c: Change) =>
  c.parts
    .filter((p) => p.removed)
    .map((p) => p.value)
    .join('');

async function rowIdOf(table: string, uuid: string): Promise<number> {
  const row = await portal.t.app.db
    .withTables<Record<string, { id: number; uuid: string }>>()
    .selectFrom(table)
    .select('id')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  return row.id;
}

const KINDS = [
  {
    name: 'news categories',
    kind: 'news_category',
    table: 'news_categories',
    base: '/admin-api/content/categories',
    stale: M.newsCategoryErrors.stale,
    taken: M.newsCategoryErrors.taken,
    notFound: M.newsCategoryErrors.notFound,
  },
  {
    name: 'FAQ categories',
    kind: 'faq_category',
    table: 'faq_categories',
    base: '/admin-api/content/faq-categories',
    stale: M.faqErrors.categoryStale,
    taken: M.faqErrors.categoryTaken,
    notFound: M.faqErrors.categoryNotFound,
  },
] as const;

type Category = FaqCategory | NewsCategory;

describe.each(KINDS)('$name', (k) => {
  const editor = () => portal.as('content_editor');
  const create = async (name: string, client?: TestClient) =>
    dataOf<Category>(
      await (client ?? (await editor())).send('POST', k.base, { name }, 'application/json'),
      201,
    );
  const save = async (id: string, body: Record<string, unknown>) =>
    (await editor()).send('PATCH', `${k.base}/${id}`, body, 'application/json');
  const list = async () => dataOf<Category[]>(await (await editor()).get(k.base));

  it('stores a revision of every save, rename and move; 428 without a version, 409 with the difference when stale', async () => {
    const c = await create(`${k.kind} llamas`);
    expect(c).toMatchObject({ name: `${k.kind} llamas`, version: 1 });
    const rowId = await rowIdOf(k.table, c.id);
    expect(await storedRevisions(portal.t, k.kind, rowId)).toEqual([1]);

    const one = await (await editor()).get(`${k.base}/${c.id}`);
    expect(one.headers.get('etag')).toBe('"1"');
    expect((await dataOf<Category>(one)).name).toBe(`${k.kind} llamas`);

    const noVersion = await save(c.id, { name: 'Alpacas' });
    expect(noVersion.status).toBe(428);
    expect((await json<ErrorDoc<Category>>(noVersion)).errors[0]?.title).toBe(M.errors.versionNeeded);

    const renamed = await save(c.id, { name: `${k.kind} happy llamas`, version: 1 });
    expect(renamed.headers.get('etag')).toBe('"2"');
    expect(await dataOf<Category>(renamed)).toMatchObject({ name: `${k.kind} happy llamas`, version: 2 });

    // An If-Match names the version as well as the body does.
    const viaHeader = await (
      await editor()
    ).request(`${k.base}/${c.id}`, {
      method: 'PATCH',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': (await editor()).csrfToken ?? '',
        'if-match': '"1"',
      },
      body: JSON.stringify({ name: 'Stale llamas' }),
    });
    expect(viaHeader.status).toBe(409);

    const stale = await save(c.id, { name: `${k.kind} sad llamas`, version: 1 });
    expect(stale.status).toBe(409);
    const conflict = await json<ErrorDoc<Category>>(stale);
    expect(conflict.errors[0]?.title).toBe(k.stale.replace('{{version}}', '2'));
    expect(conflict.meta!.current).toMatchObject({ name: `${k.kind} happy llamas`, version: 2 });
    expect(conflict.meta!.changes.map((ch) => ch.field)).toEqual(['name']);
    expect(removed(conflict.meta!.changes[0]!)).toBe('sad');
    expect(added(conflict.meta!.changes[0]!)).toBe('happy');

    // A move (the order of every category) raises the version and stores a revision.
    const ids = (await list()).map((x) => x.id);
    const moved = [c.id, ...ids.filter((id) => id !== c.id)];
    expect(
      (await (await editor()).send('POST', `${k.base}/reorder`, { ids: moved }, 'application/json')).status,
    ).toBe(204);
    const afterMove = (await list()).find((x) => x.id === c.id)!;
    expect(afterMove).toMatchObject({ weight: 0, version: 3 });
    expect(await storedRevisions(portal.t, k.kind, rowId)).toEqual([1, 2, 3]);

    const revisions = await dataOf<RevisionItem[]>(await (await editor()).get(`${k.base}/${c.id}/revisions`));
    expect(revisions.map((r) => [r.version, r.current, r.author])).toEqual([
      [3, true, 'categories.content-editor@example.com'],
      [2, false, 'categories.content-editor@example.com'],
      [1, false, 'categories.content-editor@example.com'],
    ]);
    const first = await dataOf<{ fields: { name: string }; changes: Change[] }>(
      await (await editor()).get(`${k.base}/${c.id}/revisions/1`),
    );
    expect(first.fields.name).toBe(`${k.kind} llamas`);
    expect(first.changes.map((ch) => ch.field)).toEqual(['name', 'weight']);
    expect(added(first.changes[0]!)).toBe('happy ');
    expect((await (await editor()).get(`${k.base}/${c.id}/revisions/9`)).status).toBe(404);

    // Restore: version-checked, a new save with the old fields, audited.
    const staleRestore = await (
      await editor()
    ).send('POST', `${k.base}/${c.id}/revisions/1/restore`, { version: 2 }, 'application/json');
    expect(staleRestore.status).toBe(409);
    const restored = await dataOf<Category>(
      await (
        await editor()
      ).send('POST', `${k.base}/${c.id}/revisions/1/restore`, { version: 3 }, 'application/json'),
    );
    expect(restored).toMatchObject({ name: `${k.kind} llamas`, version: 4 });
    expect(await storedRevisions(portal.t, k.kind, rowId)).toEqual([1, 2, 3, 4]);
    expect(await auditActions(portal.t, k.kind, c.id)).toEqual([
      `${k.kind}.created`,
      `${k.kind}.renamed`,
      `${k.kind}.restored`,
    ]);

    // Back where it was in the list; then deleted, its revisions with it.
    expect(
      (
        await (
          await editor()
        ).send(
          'POST',
          `${k.base}/reorder`,
          { ids: [...ids.filter((id) => id !== c.id), c.id] },
          'application/json',
        )
      ).status,
    ).toBe(204);
    const current = (await list()).find((x) => x.id === c.id)!;
    expect((await deleteAs(await editor(), `${k.base}/${c.id}`, current.version - 1)).status).toBe(409);
    expect((await deleteAs(await editor(), `${k.base}/${c.id}`, current.version)).status).toBe(204);
    expect(await storedRevisions(portal.t, k.kind, rowId)).toEqual([]);
    expect((await (await editor()).get(`${k.base}/${c.id}`)).status).toBe(404);
  });

  it('refuses a name another category has, and an unknown category, changing nothing', async () => {
    const a = await create(`${k.kind} Vicunas`);
    const b = await create(`${k.kind} Guanacos`);
    const taken = await save(b.id, { name: `${k.kind} VICUNAS`, version: 1 });
    expect(taken.status).toBe(400);
    expect((await json<ErrorDoc<Category>>(taken)).errors[0]?.title).toBe(k.taken);
    expect(
      (
        await json<ErrorDoc<Category>>(
          await (await editor()).send('POST', k.base, { name: ` ${k.kind} vicunas ` }, 'application/json'),
        )
      ).errors[0]?.title,
    ).toBe(k.taken);
    const unknown = await save('00000000-0000-4000-8000-000000000000', { name: 'x', version: 1 });
    expect(unknown.status).toBe(404);
    expect((await json<ErrorDoc<Category>>(unknown)).errors[0]?.title).toBe(k.notFound);
    expect((await list()).find((x) => x.id === b.id)).toMatchObject({
      name: `${k.kind} Guanacos`,
      version: 1,
    });
    for (const c of [a, b]) expect((await deleteAs(await editor(), `${k.base}/${c.id}`)).status).toBe(204);
  });

  it('refuses every other role, changing nothing', async () => {
    const c = await create(`${k.kind} Guarded`);
    for (const actor of othersThan('content_editor')) {
      const client = await portal.as(actor);
      const calls = [
        await client.get(k.base),
        await client.get(`${k.base}/${c.id}`),
        await client.get(`${k.base}/${c.id}/revisions`),
        await client.get(`${k.base}/${c.id}/revisions/1`),
        await client.send('POST', k.base, { name: 'Intruders' }, 'application/json'),
        await client.send('PATCH', `${k.base}/${c.id}`, { name: 'Hijacked', version: 1 }, 'application/json'),
        await client.send(
          'POST',
          `${k.base}/${c.id}/revisions/1/restore`,
          { version: 1 },
          'application/json',
        ),
        await client.send('POST', `${k.base}/reorder`, { ids: [c.id] }, 'application/json'),
        await deleteAs(client, `${k.base}/${c.id}`, 1),
      ];
      for (const res of calls) expect(res.status, `${actor} ${res.url}`).toBe(403);
    }
    expect((await portal.visitor().get(`${k.base}/${c.id}/revisions`)).status).toBe(401);
    // The administrator may.
    expect((await (await portal.as('administrator')).get(`${k.base}/${c.id}/revisions`)).status).toBe(200);
    expect((await list()).find((x) => x.id === c.id)).toMatchObject({
      name: `${k.kind} Guarded`,
      version: 1,
    });
    expect((await deleteAs(await editor(), `${k.base}/${c.id}`, 1)).status).toBe(204);
  });
});

describe('a category that still holds items, and a restore naming a category deleted since', () => {
  it('news: refuses the delete while an article is filed under it; an article revision restored leaves it out', async () => {
    const editor = await portal.as('content_editor');
    const c = await dataOf<NewsCategory>(
      await editor.send(
        'POST',
        '/admin-api/content/categories',
        { name: 'Short-lived news' },
        'application/json',
      ),
      201,
    );
    const article = await dataOf<{ id: string; version: number; category: string | null }>(
      await editor.send(
        'POST',
        '/admin-api/content/articles',
        { title: 'Category restore article', category: c.id },
        'application/json',
      ),
      201,
    );
    expect(
      (await dataOf<NewsCategory[]>(await editor.get('/admin-api/content/categories'))).find(
        (x) => x.id === c.id,
      )?.articles,
    ).toBe(1);
    const refused = await deleteAs(editor, `/admin-api/content/categories/${c.id}`, 1);
    expect(refused.status).toBe(409);
    expect((await json<ErrorDoc<unknown>>(refused)).errors[0]?.title).toBe(
      M.newsCategoryErrors.notEmpty.replace('{{name}}', 'Short-lived news').replace('{{count}}', '1'),
    );
    const moved = await dataOf<{ version: number; category: string | null }>(
      await editor.send(
        'PATCH',
        `/admin-api/content/articles/${article.id}`,
        { title: 'Category restore article', category: null, version: 1 },
        'application/json',
      ),
    );
    expect((await deleteAs(editor, `/admin-api/content/categories/${c.id}`, 1)).status).toBe(204);
    const restored = await dataOf<{ version: number; category: string | null }>(
      await editor.send(
        'POST',
        `/admin-api/content/articles/${article.id}/revisions/1/restore`,
        { version: moved.version },
        'application/json',
      ),
    );
    expect(restored).toMatchObject({ version: 3, category: null });
    expect((await deleteAs(editor, `/admin-api/content/articles/${article.id}`)).status).toBe(204);
  });

  it('FAQ: refuses the delete while a question is filed under it; a question revision restored leaves it out', async () => {
    const editor = await portal.as('content_editor');
    const c = await dataOf<FaqCategory>(
      await editor.send(
        'POST',
        '/admin-api/content/faq-categories',
        { name: 'Short-lived FAQ' },
        'application/json',
      ),
      201,
    );
    const q = await dataOf<FaqQuestion>(
      await editor.send(
        'POST',
        '/admin-api/content/faqs',
        { question: 'Do short-lived categories restore?', answer: 'Without them.', category: c.id },
        'application/json',
      ),
      201,
    );
    expect((await deleteAs(editor, `/admin-api/content/faq-categories/${c.id}`, 1)).status).toBe(409);
    const moved = await dataOf<FaqQuestion>(
      await editor.send(
        'PATCH',
        `/admin-api/content/faqs/${q.id}`,
        { question: q.question, answer: q.answer, category: null, version: 1 },
        'application/json',
      ),
    );
    expect((await deleteAs(editor, `/admin-api/content/faq-categories/${c.id}`, 1)).status).toBe(204);
    const restored = await dataOf<FaqQuestion>(
      await editor.send(
        'POST',
        `/admin-api/content/faqs/${q.id}/revisions/1/restore`,
        { version: moved.version },
        'application/json',
      ),
    );
    expect(restored).toMatchObject({ version: 3, category: null });
    expect((await deleteAs(editor, `/admin-api/content/faqs/${q.id}`)).status).toBe(204);
  });
});

describe('the export of news categories', () => {
  it('leaves categories.yaml alone while it lists the database, and writes it after a console rename', async () => {
    const editor = await portal.as('content_editor');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-categories-'));
    try {
      fs.cpSync(path.resolve(import.meta.dirname, '../../../content'), dir, { recursive: true });
      const file = path.join(dir, 'blog', 'categories.yaml');
      const original = fs.readFileSync(file, 'utf8');
      await exportArticles(portal.t.app.db, dir);
      expect(fs.readFileSync(file, 'utf8')).toBe(original);

      const all = await dataOf<NewsCategory[]>(await editor.get('/admin-api/content/categories'));
      const security = all.find((c) => c.name === 'Security')!;
      await dataOf(
        await editor.send(
          'PATCH',
          `/admin-api/content/categories/${security.id}`,
          { name: 'Security notes', version: security.version },
          'application/json',
        ),
      );
      await exportArticles(portal.t.app.db, dir);
      const written = fs.readFileSync(file, 'utf8');
      expect(written).toContain('- name: Security notes');
      expect(written.match(/- name: .*/g)).toEqual(
        all.map((c) => `- name: ${c === security ? 'Security notes' : c.name}`),
      );

      // Back as it was.
      await dataOf(
        await editor.send(
          'PATCH',
          `/admin-api/content/categories/${security.id}`,
          { name: 'Security', version: security.version + 1 },
          'application/json',
        ),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the import of news categories', () => {
  it('gives a category it moves a new version, so that a console save from before is stale', async () => {
    const editor = await portal.as('content_editor');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-categories-'));
    try {
      fs.cpSync(path.resolve(import.meta.dirname, '../../../content'), dir, { recursive: true });
      const file = path.join(dir, 'blog', 'categories.yaml');
      const original = fs.readFileSync(file, 'utf8');
      const before = await dataOf<NewsCategory[]>(await editor.get('/admin-api/content/categories'));
      const [first, second] = before;
      // The first two swapped in the file.
      fs.writeFileSync(
        file,
        original
          .replace(`- name: ${first!.name}`, '- name: @FIRST@')
          .replace(`- name: ${second!.name}`, `- name: ${first!.name}`)
          .replace('- name: @FIRST@', `- name: ${second!.name}`),
      );
      await importBlogAndFaq(portal.t.app.db, dir);
      const moved = await dataOf<NewsCategory[]>(await editor.get('/admin-api/content/categories'));
      expect(moved.slice(0, 2).map((c) => [c.name, c.version])).toEqual([
        [second!.name, second!.version + 1],
        [first!.name, first!.version + 1],
      ]);
      expect(moved.slice(2).map((c) => c.version)).toEqual(before.slice(2).map((c) => c.version));
      const stale = await editor.send(
        'PATCH',
        `/admin-api/content/categories/${first!.id}`,
        { name: first!.name, weight: 0, version: first!.version },
        'application/json',
      );
      expect(stale.status).toBe(409);

      // The file as it was: the order as it was.
      fs.writeFileSync(file, original);
      await importBlogAndFaq(portal.t.app.db, dir);
      const back = await dataOf<NewsCategory[]>(await editor.get('/admin-api/content/categories'));
      expect(back.map((c) => c.name)).toEqual(before.map((c) => c.name));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('API product changelog entries', () => {
  const manager = () => portal.as('api_manager');
  const productId = async () => {
    const rows = await portal.t.app.db
      .withTables<{ api_products: { id: number; uuid: string; title: string } }>()
      .selectFrom('api_products')
      .select(['id', 'uuid'])
      .orderBy('id')
      .limit(2)
      .execute();
    return rows.map((r) => r.uuid);
  };
  const path = (product: string, entry?: string, rest = '') =>
    `/admin-api/catalog/products/${product}/changelog${entry ? `/${entry}` : ''}${rest}`;

  it('stores a revision of every save: list, diff, restore, 428, 409 with the difference; a delete takes them', async () => {
    const [product = '', other = ''] = await productId();
    const m = await manager();
    const entry = await dataOf<ConsoleChangelogEntry>(
      await m.send(
        'POST',
        path(product),
        { releaseVersion: '7.1', releaseDate: '2026-11-30', notes: 'Added **offers**.' },
        'application/json',
      ),
      201,
    );
    const rowId = await rowIdOf('change_log_entries', entry.id);
    expect(await storedRevisions(portal.t, 'changelog_entry', rowId)).toEqual([1]);
    const one = await m.get(path(product, entry.id));
    expect(one.headers.get('etag')).toBe('"1"');
    expect((await dataOf<ConsoleChangelogEntry>(one)).notes).toBe('Added **offers**.');
    // Under another product's address, the entry is not there.
    expect((await m.get(path(other, entry.id))).status).toBe(404);

    const noVersion = await m.send(
      'PATCH',
      path(product, entry.id),
      { releaseVersion: '7.1', notes: 'x' },
      'application/json',
    );
    expect(noVersion.status).toBe(428);
    expect((await json<ErrorDoc<unknown>>(noVersion)).errors[0]?.title).toBe(P.errors.changelogVersionNeeded);

    const saved = await dataOf<ConsoleChangelogEntry>(
      await m.send(
        'PATCH',
        path(product, entry.id),
        { releaseVersion: '7.1', releaseDate: '2026-11-30', notes: 'Added **loan offers**.', version: 1 },
        'application/json',
      ),
    );
    expect(saved.version).toBe(2);

    const stale = await m.send(
      'PATCH',
      path(product, entry.id),
      { releaseVersion: '7.2', releaseDate: '2026-11-30', notes: 'Added **offers**.', version: 1 },
      'application/json',
    );
    expect(stale.status).toBe(409);
    const conflict = await json<ErrorDoc<ConsoleChangelogEntry>>(stale);
    expect(conflict.errors[0]?.title).toBe(P.errors.changelogStale.replace('{{version}}', '2'));
    expect(conflict.meta!.current.version).toBe(2);
    expect(conflict.meta!.changes.map((c) => [c.field, c.before, c.after])).toEqual([
      ['releaseVersion', '7.2', '7.1'],
      ['notes', 'Added **offers**.', 'Added **loan offers**.'],
    ]);
    expect(added(conflict.meta!.changes[1]!)).toContain('loan');

    const revisions = await dataOf<RevisionItem[]>(await m.get(path(product, entry.id, '/revisions')));
    expect(revisions.map((r) => [r.version, r.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const first = await dataOf<{ fields: { notes: string }; changes: Change[] }>(
      await m.get(path(product, entry.id, '/revisions/1')),
    );
    expect(first.fields.notes).toBe('Added **offers**.');
    expect(first.changes.map((c) => c.field)).toEqual(['notes']);

    const restored = await dataOf<ConsoleChangelogEntry>(
      await m.send(
        'POST',
        path(product, entry.id, '/revisions/1/restore'),
        { version: 2 },
        'application/json',
      ),
    );
    expect(restored).toMatchObject({ notes: 'Added **offers**.', version: 3 });
    expect(restored.html).toContain('<strong>offers</strong>');
    expect(await storedRevisions(portal.t, 'changelog_entry', rowId)).toEqual([1, 2, 3]);
    const audit = (await auditActions(portal.t, 'api_product', product)).filter((a) =>
      a.startsWith('changelog.'),
    );
    expect(audit.slice(-3)).toEqual(['changelog.created', 'changelog.updated', 'changelog.restored']);

    // Other roles may not read the revisions or restore one.
    for (const actor of othersThan('api_manager')) {
      const client = await portal.as(actor);
      expect((await client.get(path(product, entry.id, '/revisions'))).status).toBe(403);
      expect(
        (
          await client.send(
            'POST',
            path(product, entry.id, '/revisions/1/restore'),
            { version: 3 },
            'application/json',
          )
        ).status,
      ).toBe(403);
    }

    expect((await deleteAs(m, path(product, entry.id), 2)).status).toBe(409);
    expect((await deleteAs(m, path(product, entry.id), 3)).status).toBe(204);
    expect(await storedRevisions(portal.t, 'changelog_entry', rowId)).toEqual([]);
  });
  it("deletes a product's changelog revisions with the product", async () => {
    const m = await manager();
    const product = await dataOf<{ id: string }>(
      await m.send(
        'POST',
        '/admin-api/catalog/products',
        { alias: 'revisions-okapi-api-v1', productVersion: '1.0', title: 'Okapi API', description: '' },
        'application/json',
      ),
      201,
    );
    const entry = await dataOf<ConsoleChangelogEntry>(
      await m.send('POST', path(product.id), { releaseVersion: '1.0', notes: 'First.' }, 'application/json'),
      201,
    );
    const rowId = await rowIdOf('change_log_entries', entry.id);
    await dataOf(
      await m.send(
        'PATCH',
        path(product.id, entry.id),
        { releaseVersion: '1.0', notes: 'First, edited.', version: 1 },
        'application/json',
      ),
    );
    expect(await storedRevisions(portal.t, 'changelog_entry', rowId)).toEqual([1, 2]);
    expect((await deleteAs(m, `/admin-api/catalog/products/${product.id}`)).status).toBe(204);
    expect(await storedRevisions(portal.t, 'changelog_entry', rowId)).toEqual([]);
  });
});
