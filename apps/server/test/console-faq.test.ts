import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaqCategory, FaqListItem, FaqQuestion } from '@portico/contracts/console-content';
import { en } from '@portico/contracts/messages';
import { exportFaq } from '../src/modules/content/export.ts';
import { importBlogAndFaq } from '../src/modules/content/importer.ts';
import { contentDb } from '../src/modules/content/tables.ts';
import { TestClient } from './http-client.ts';
import { png } from './image-fixtures.ts';
import { consoleEmail, consoleFixture, othersThan } from './console-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The FAQ edited in the provider console (issue 27; modules/content/README.md 'Console: FAQ'). */

const M = en.console.content;
const BASE = '/admin-api/content/faqs';
const CATS = '/admin-api/content/faq-categories';
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');

interface Change {
  field: string;
  parts: { value: string; added: boolean; removed: boolean }[];
}
interface ErrorDoc {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: FaqQuestion; changes: Change[] };
}
interface PublicFaqs {
  data: { id: string; attributes: { title: string; field_answer: { processed: string } } }[];
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-console-faq-'));
  dirs.push(dir);
  return dir;
}

async function csrf(client: TestClient): Promise<string> {
  return (await client.get('/session/token')).text();
}

async function del(client: TestClient, url: string, ifMatch?: string): Promise<Response> {
  return client.request(url, {
    method: 'DELETE',
    headers: { 'x-csrf-token': await csrf(client), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  });
}

function fieldsOf(f: FaqQuestion) {
  return { question: f.question, answer: f.answer, category: f.category, weight: f.weight, state: f.state };
}

// The portal and its signed-in users (console-fixtures.ts): faq.content-editor@…, faq.administrator@…
const portal = consoleFixture('faq');
const EDITOR = consoleEmail('faq', 'content_editor');
const ADMIN = consoleEmail('faq', 'administrator');

describe('console: FAQ', () => {
  let t: TestApp;
  let editor: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = portal.t;
    editor = await portal.as('content_editor');
    admin = await portal.as('administrator');
  });
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (fields: Record<string, unknown>, client = editor) => {
    const res = await client.send('POST', BASE, fields, 'application/json');
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<{ data: FaqQuestion }>(res)).data;
  };
  const save = (id: string, fields: Record<string, unknown>, client = editor) =>
    client.send('PATCH', `${BASE}/${id}`, fields, 'application/json');
  const read = async (id: string) =>
    (await json<{ data: FaqQuestion }>(await editor.get(`${BASE}/${id}`))).data;
  const addCategory = async (name: string) => {
    const res = await editor.send('POST', CATS, { name }, 'application/json');
    expect(res.status).toBe(201);
    return (await json<{ data: FaqCategory }>(res)).data;
  };
  const categories = async () => (await json<{ data: FaqCategory[] }>(await editor.get(CATS))).data;
  const publicQuestions = async () => {
    const res = await new TestClient(t.baseUrl).get('/jsonapi/node/faq?include=field_category');
    expect(res.status).toBe(200);
    return (await json<PublicFaqs>(res)).data;
  };
  const searchHits = async (q: string) => {
    const res = await new TestClient(t.baseUrl).get(`/phpsdk/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return (await json<{ data: { type: string; link: string; title: string }[] }>(res)).data;
  };
  const auditOf = (id: string) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'before', 'after'])
      .where('target_type', '=', 'faq')
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();

  it('creates a draft in a category, publishes it: on the FAQ and in search at once; then deletes it', async () => {
    const category = await addCategory('Console capybaras');
    const draft = await create({
      question: 'Do capybaras call the API?',
      answer: 'Yes, **capybaras** do.\n\n<script>alert(1)</script>',
      category: category.id,
    });
    expect(draft).toMatchObject({ state: 'draft', version: 1, weight: 0, category: category.id });
    expect((await publicQuestions()).map((q) => q.id)).not.toContain(draft.id);
    expect(await searchHits('capybaras')).toEqual([]);

    const row = await contentDb(t.app.db)
      .selectFrom('faqs')
      .select(['answer_html', 'answer_markdown', 'edited_at'])
      .where('uuid', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(row.answer_html).toContain('<strong>capybaras</strong>');
    expect(row.answer_html).not.toContain('<script');
    expect(row.edited_at).not.toBeNull();

    // The list: by category, state and question, paged.
    const list = async (query: string) =>
      json<{ data: FaqListItem[]; meta: { count: number } }>(await editor.get(`${BASE}?${query}`));
    expect((await list(`category=${category.id}`)).data.map((q) => [q.id, q.state, q.categoryName])).toEqual([
      [draft.id, 'draft', 'Console capybaras'],
    ]);
    expect((await list('state=draft&q=CAPYBARAS')).meta.count).toBe(1);
    expect((await list('state=published&q=capybaras')).data).toEqual([]);
    const paged = await list('page[limit]=2');
    expect(paged.data).toHaveLength(2);
    expect(paged.meta.count).toBeGreaterThan(5);
    expect((await list('category=none')).data.every((q) => q.category === null)).toBe(true);
    expect((await editor.get(`${BASE}?state=nope`)).status).toBe(400);
    expect((await editor.get(`${BASE}?category=nope`)).status).toBe(400);

    const versionBefore = await contentVersion(t);
    const res = await save(draft.id, { ...fieldsOf(draft), state: 'published', version: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect((await json<{ data: FaqQuestion }>(res)).data).toMatchObject({ state: 'published', version: 2 });
    expect(await contentVersion(t)).not.toBe(versionBefore);
    const live = (await publicQuestions()).find((q) => q.id === draft.id);
    expect(live?.attributes.title).toBe('Do capybaras call the API?');
    expect(live?.attributes.field_answer.processed).toContain('<strong>capybaras</strong>');
    expect((await searchHits('capybaras')).map((h) => [h.type, h.title, h.link])).toEqual([
      ['faq', 'Do capybaras call the API?', '/faq-page'],
    ]);
    expect(
      (
        await json<{ data: unknown[] }>(
          await new TestClient(t.baseUrl).get('/phpsdk/search?q=capybaras&type=faq'),
        )
      ).data,
    ).toHaveLength(1);

    // A category that holds questions is not deleted.
    const refused = await del(editor, `${CATS}/${category.id}`);
    expect(refused.status).toBe(409);
    expect((await json<ErrorDoc>(refused)).errors[0]?.title).toBe(
      M.faqErrors.categoryNotEmpty.replace('{{name}}', 'Console capybaras').replace('{{count}}', '1'),
    );

    const gone = await del(editor, `${BASE}/${draft.id}`);
    expect(gone.status).toBe(204);
    expect((await editor.get(`${BASE}/${draft.id}`)).status).toBe(404);
    expect((await publicQuestions()).map((q) => q.id)).not.toContain(draft.id);
    expect(await searchHits('capybaras')).toEqual([]);
    expect((await auditOf(draft.id)).map((a) => [a.action, a.actor_email])).toEqual([
      ['faq.created', EDITOR],
      ['faq.published', EDITOR],
      ['faq.deleted', EDITOR],
    ]);
    expect((await del(editor, `${CATS}/${category.id}`)).status).toBe(204);
    expect((await categories()).map((c) => c.id)).not.toContain(category.id);
  });

  it('refuses an internal link that leads nowhere, as the import of faq.yaml would, storing nothing', async () => {
    const nowhere = (target: string) => M.errors.linkNowhere.replace('{{target}}', target);
    const count = async () =>
      Number(
        (
          await contentDb(t.app.db)
            .selectFrom('faqs')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const refused = await editor.send(
      'POST',
      BASE,
      { question: 'Where are the links?', answer: 'See [link](/faq) and [more](/nowhere-at-all).' },
      'application/json',
    );
    expect(refused.status).toBe(400);
    const doc = await json<ErrorDoc>(refused);
    expect(doc.errors[0]).toMatchObject({
      code: 'invalid_input',
      title: [nowhere('/faq'), nowhere('/nowhere-at-all')].join('\n'),
      source: { pointer: '/answer' },
    });
    expect(await count()).toBe(before);

    const faq = await create({ question: 'Where are the links?', answer: 'On [the FAQ page](/faq-page).' });
    const res = await save(faq.id, { ...fieldsOf(faq), answer: 'See [link](/faq).', version: faq.version });
    expect(res.status).toBe(400);
    expect((await json<ErrorDoc>(res)).errors[0]).toMatchObject({
      title: nowhere('/faq'),
      source: { pointer: '/answer' },
    });
    expect(await read(faq.id)).toMatchObject({
      version: faq.version,
      answer: 'On [the FAQ page](/faq-page).',
    });

    // An image uploaded in the console is a target; another name of its folder is not.
    const uploaded = await editor.request('/admin-api/images', {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': "file; filename*=UTF-8''faq-link.png",
        'x-csrf-token': await csrf(editor),
      },
      body: new Uint8Array(png(4, 4)),
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const { url } = (await json<{ data: { url: string } }>(uploaded)).data;
    const other = '/images/console/00000000-0000-4000-8000-000000000000.png';
    const withImage = await save(faq.id, {
      ...fieldsOf(faq),
      answer: `![a picture](${url}) and ![none](${other})`,
      version: faq.version,
    });
    expect(withImage.status).toBe(400);
    expect((await json<ErrorDoc>(withImage)).errors[0]!.title).toBe(nowhere(other));
    const ok = await save(faq.id, { ...fieldsOf(faq), answer: `![a picture](${url})`, version: faq.version });
    expect(ok.status, await ok.clone().text()).toBe(200);
    // The round trip below exports faq.yaml without the console's images: this question goes.
    expect((await del(editor, `${BASE}/${faq.id}`)).status).toBe(204);
  });

  it('refuses bad input precisely, writing nothing', async () => {
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ question: '', answer: 'x' }, '/question'],
      [{ question: 'x?', answer: '' }, '/answer'],
      [{ question: 'x?', answer: 'x', category: '00000000-0000-4000-8000-000000000000' }, '/category'],
      [{ question: 'x?', answer: 'x', category: 'nope' }, '/category'],
      [{ question: 'x?', answer: 'x', state: 'sometime' }, '/state'],
      [{ question: 'x?', answer: 'x', state: 'scheduled' }, '/publishAt'],
      [{ question: 'x?', answer: 'x', state: 'scheduled', publishAt: '2020-01-01T00:00:00Z' }, '/publishAt'],
      [{ question: 'x?', answer: 'x', weight: 1.5 }, '/weight'],
      [{ question: 'How do I get access to the APIs?', answer: 'x' }, '/question'],
      [{ question: 'x?', answer: 'x', colour: 'red' }, ''],
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
      { question: 'How do I get access to the APIs?', answer: 'x' },
      'application/json',
    );
    expect((await json<ErrorDoc>(taken)).errors[0]?.title).toBe(M.faqErrors.questionTaken);
    // Categories: empty and taken names, unknown ids, an order that lists one twice.
    expect((await editor.send('POST', CATS, { name: ' ' }, 'application/json')).status).toBe(400);
    const dup = await editor.send('POST', CATS, { name: 'getting ACCESS' }, 'application/json');
    expect(dup.status).toBe(400);
    expect((await json<ErrorDoc>(dup)).errors[0]?.title).toBe(M.faqErrors.categoryTaken);
    const first = (await categories())[0]!;
    expect(
      (await editor.send('POST', `${CATS}/reorder`, { ids: [first.id, first.id] }, 'application/json'))
        .status,
    ).toBe(400);
    expect(
      (
        await editor.send(
          'PATCH',
          `${CATS}/00000000-0000-4000-8000-000000000000`,
          { name: 'x', version: 1 },
          'application/json',
        )
      ).status,
    ).toBe(404);
    expect((await editor.get(`${BASE}/nope`)).status).toBe(404);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses a stale save with 409, the current version and what differs; nothing is overwritten', async () => {
    const q = await create({ question: 'Conflicting lemurs?', answer: 'base answer', state: 'published' });
    const theirs = await save(q.id, { ...fieldsOf(q), answer: 'their answer', version: 1 }, admin);
    expect(theirs.status).toBe(200);
    const mine = await save(q.id, { ...fieldsOf(q), answer: 'my answer', version: 1 });
    expect(mine.status).toBe(409);
    expect(mine.headers.get('etag')).toBe('"2"');
    const doc = await json<ErrorDoc>(mine);
    expect(doc.errors[0]).toMatchObject({ status: '409', code: 'conflict' });
    expect(doc.meta?.current).toMatchObject({ version: 2, answer: 'their answer' });
    expect(doc.meta?.changes.map((c) => c.field)).toEqual(['answer']);
    expect(doc.meta?.changes[0]?.parts.filter((p) => p.added).map((p) => p.value)).toEqual(['their answer']);
    expect((await read(q.id)).answer).toBe('their answer');
    // No version at all: 428.
    expect((await save(q.id, { ...fieldsOf(q), answer: 'my answer' })).status).toBe(428);
    // The If-Match header names it as well.
    const withHeader = await editor.request(`${BASE}/${q.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-csrf-token': await csrf(editor), 'if-match': '"2"' },
      body: JSON.stringify({ ...fieldsOf(q), answer: 'my answer' }),
    });
    expect(withHeader.status).toBe(200);
    expect((await read(q.id)).answer).toBe('my answer');
    expect((await del(editor, `${BASE}/${q.id}`, '"1"')).status).toBe(409);
    expect((await read(q.id)).version).toBe(3);
    expect((await del(editor, `${BASE}/${q.id}`, '"3"')).status).toBe(204);
  });

  it('keeps revisions, shows the difference and restores one as a new save', async () => {
    const q = await create({ question: 'Revision meerkats?', answer: 'line one\nline two' });
    expect((await save(q.id, { ...fieldsOf(q), answer: 'line one\nline 2', version: 1 })).status).toBe(200);
    expect(
      (
        await save(
          q.id,
          { ...fieldsOf(q), question: 'Revision meerkats, again?', answer: 'line one\nline 2', version: 2 },
          admin,
        )
      ).status,
    ).toBe(200);
    const revisions = await json<{ data: { version: number; author: string; current: boolean }[] }>(
      await editor.get(`${BASE}/${q.id}/revisions`),
    );
    expect(revisions.data.map((r) => [r.version, r.author, r.current])).toEqual([
      [3, ADMIN, true],
      [2, EDITOR, false],
      [1, EDITOR, false],
    ]);
    const first = await json<{ data: { fields: { question: string }; changes: Change[] } }>(
      await editor.get(`${BASE}/${q.id}/revisions/1`),
    );
    expect(first.data.fields.question).toBe('Revision meerkats?');
    expect(first.data.changes.map((c) => c.field).sort()).toEqual(['answer', 'question']);
    expect((await editor.get(`${BASE}/${q.id}/revisions/9`)).status).toBe(404);
    const restored = await editor.send(
      'POST',
      `${BASE}/${q.id}/revisions/1/restore`,
      { version: 3 },
      'application/json',
    );
    expect(restored.status).toBe(200);
    expect((await json<{ data: FaqQuestion }>(restored)).data).toMatchObject({
      version: 4,
      question: 'Revision meerkats?',
      answer: 'line one\nline two',
    });
    const stale = await editor.send(
      'POST',
      `${BASE}/${q.id}/revisions/2/restore`,
      { version: 3 },
      'application/json',
    );
    expect(stale.status).toBe(409);
    expect((await auditOf(q.id)).map((e) => e.action)).toEqual([
      'faq.created',
      'faq.updated',
      'faq.updated',
      'faq.restored',
    ]);
    expect((await del(editor, `${BASE}/${q.id}`)).status).toBe(204);
  });

  it('orders questions and categories, renames a category; the public FAQ follows', async () => {
    const category = await addCategory('Order okapis');
    const a = await create({
      question: 'Okapi one?',
      answer: 'One.',
      category: category.id,
      state: 'published',
    });
    const b = await create({
      question: 'Okapi two?',
      answer: 'Two.',
      category: category.id,
      state: 'published',
    });
    expect([a.weight, b.weight]).toEqual([0, 1]);
    const reorder = await editor.send('POST', `${BASE}/reorder`, { ids: [b.id, a.id] }, 'application/json');
    expect(reorder.status).toBe(204);
    expect([(await read(b.id)).weight, (await read(a.id)).weight]).toEqual([0, 1]);
    expect((await read(a.id)).version).toBe(2);
    const order = (await publicQuestions())
      .map((q) => q.attributes.title)
      .filter((q) => q.startsWith('Okapi'));
    expect(order).toEqual(['Okapi two?', 'Okapi one?']);

    // The new category came last; moved first, its questions lead the public FAQ.
    const before = await categories();
    expect(before.at(-1)?.id).toBe(category.id);
    const ids = [category.id, ...before.slice(0, -1).map((c) => c.id)];
    expect((await editor.send('POST', `${CATS}/reorder`, { ids }, 'application/json')).status).toBe(204);
    expect((await categories()).map((c) => c.id)).toEqual(ids);
    expect((await publicQuestions())[0]?.attributes.title).toBe('Okapi two?');

    const renamed = await editor.send(
      'PATCH',
      `${CATS}/${category.id}`,
      { name: 'Ordered okapis', version: (await categories())[0]!.version },
      'application/json',
    );
    expect(renamed.status).toBe(200);
    expect((await json<{ data: FaqCategory }>(renamed)).data).toMatchObject({
      name: 'Ordered okapis',
      questions: 2,
    });
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('target_type', '=', 'faq_category')
      .orderBy('id')
      .execute();
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(['faq_category.created', 'faq_category.reordered', 'faq_category.renamed']),
    );

    // Leave the seeded order as it was.
    for (const q of [a, b]) expect((await del(editor, `${BASE}/${q.id}`)).status).toBe(204);
    expect((await del(editor, `${CATS}/${category.id}`)).status).toBe(204);
    expect(
      (
        await editor.send(
          'POST',
          `${CATS}/reorder`,
          { ids: before.slice(0, -1).map((c) => c.id) },
          'application/json',
        )
      ).status,
    ).toBe(204);
  });

  it('refuses other roles and developers with 403 and visitors with 401, changing nothing', async () => {
    const q = await create({ question: 'Guarded tapirs?', answer: 'Tapirs.' });
    const category = (await categories())[0]!;
    const clients: [string, TestClient][] = [];
    for (const actor of othersThan('content_editor')) clients.push([actor, await portal.as(actor)]);
    const before = await snapshot(t);
    const callsOf = async (client: TestClient): Promise<Response[]> => [
      await client.get(BASE),
      await client.get(`${BASE}/${q.id}`),
      await client.get(`${BASE}/${q.id}/revisions`),
      await client.get(`${BASE}/${q.id}/revisions/1`),
      await client.send('POST', BASE, { question: 'Intruder?', answer: 'x' }, 'application/json'),
      await client.send(
        'PATCH',
        `${BASE}/${q.id}`,
        { question: 'Hijacked?', answer: 'x', version: 1 },
        'application/json',
      ),
      await client.send('POST', `${BASE}/${q.id}/revisions/1/restore`, { version: 1 }, 'application/json'),
      await client.send('POST', `${BASE}/reorder`, { ids: [q.id] }, 'application/json'),
      await del(client, `${BASE}/${q.id}`),
      await client.get(CATS),
      await client.send('POST', CATS, { name: 'Intruders' }, 'application/json'),
      await client.send('PATCH', `${CATS}/${category.id}`, { name: 'Hijacked' }, 'application/json'),
      await client.send('POST', `${CATS}/reorder`, { ids: [category.id] }, 'application/json'),
      await del(client, `${CATS}/${category.id}`),
    ];
    for (const [role, client] of clients) {
      for (const res of await callsOf(client)) {
        expect(res.status, `${role} ${res.url}`).toBe(403);
        expect((await json<ErrorDoc>(res)).errors[0]?.title).toBe(M.forbidden);
      }
    }
    expect((await new TestClient(t.baseUrl).get(BASE)).status).toBe(401);
    expect((await new TestClient(t.baseUrl).get(CATS)).status).toBe(401);
    expect(await snapshot(t)).toEqual(before);
    expect((await read(q.id)).question).toBe('Guarded tapirs?');
    expect((await del(editor, `${BASE}/${q.id}`)).status).toBe(204);
  });

  it('the import leaves an unchanged faq.yaml alone and keeps questions edited in the console', async () => {
    const dir = tempDir();
    const faqFile = (answer: string) =>
      [
        'categories:',
        '  - name: Import iguanas',
        '    questions:',
        '      - question: Edited iguana?',
        `        answer: ${answer}`,
        '      - question: Untouched iguana?',
        `        answer: ${answer}`,
        '      - question: Draft iguana?',
        `        answer: ${answer}`,
        '        published: false',
        '',
      ].join('\n');
    fs.writeFileSync(path.join(dir, 'faq.yaml'), faqFile('From the file.'));
    expect((await importBlogAndFaq(t.app.db, dir)).faq).toBe('imported');
    const list = await json<{ data: FaqListItem[] }>(await editor.get(`${BASE}?q=iguana`));
    const byQuestion = new Map(list.data.map((q) => [q.question, q]));
    expect(byQuestion.get('Draft iguana?')?.state).toBe('draft');
    expect((await publicQuestions()).map((q) => q.attributes.title)).not.toContain('Draft iguana?');
    expect((await searchHits('iguana')).map((h) => h.title).sort()).toEqual([
      'Edited iguana?',
      'Untouched iguana?',
    ]);

    const edited = await read(byQuestion.get('Edited iguana?')!.id);
    expect(edited.answer).toBe('From the file.');
    expect(
      (await save(edited.id, { ...fieldsOf(edited), answer: 'From the browser.', version: edited.version }))
        .status,
    ).toBe(200);
    // Deleted in the console: an unchanged file does not bring it back.
    const untouched = byQuestion.get('Untouched iguana?')!;
    expect((await del(editor, `${BASE}/${untouched.id}`)).status).toBe(204);
    expect((await importBlogAndFaq(t.app.db, dir)).faq).toBe('unchanged');
    expect((await editor.get(`${BASE}/${untouched.id}`)).status).toBe(404);

    // The file changes: the edited question keeps the browser's answer, the others follow the file.
    fs.writeFileSync(path.join(dir, 'faq.yaml'), faqFile('The file changed.'));
    const changed = await importBlogAndFaq(t.app.db, dir);
    expect(changed).toMatchObject({ faq: 'imported', faqKept: ['Edited iguana?'] });
    expect((await read(edited.id)).answer).toBe('From the browser.');
    const after = await json<{ data: FaqListItem[] }>(await editor.get(`${BASE}?q=iguana`));
    expect(after.data.map((q) => q.question).sort()).toEqual([
      'Draft iguana?',
      'Edited iguana?',
      'Untouched iguana?',
    ]);
    // A file without it: the edited question stays, the imported ones go.
    fs.writeFileSync(path.join(dir, 'faq.yaml'), 'questions: []\n');
    await importBlogAndFaq(t.app.db, dir);
    const left = await json<{ data: FaqListItem[] }>(await editor.get(`${BASE}?q=iguana`));
    expect(left.data.map((q) => q.question)).toEqual(['Edited iguana?']);
    expect((await searchHits('iguana')).map((h) => h.title)).toEqual(['Edited iguana?']);
    expect((await del(editor, `${BASE}/${edited.id}`)).status).toBe(204);
  });

  it('export then import into a fresh database is a round trip that changes nothing', async () => {
    const category = await addCategory('Round-trip “quotes”: colons');
    await create({
      question: 'Round trip: published?',
      answer: '## Heading\n\n- one\n- two',
      category: category.id,
      state: 'published',
    });
    await create({ question: 'Round trip: a draft?', answer: 'Not yet: soon.', state: 'draft' });
    await addCategory('Round-trip empty');
    // Answers link to pages and articles of content/: the export goes next to them.
    const dir = tempDir();
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    const result = await exportFaq(t.app.db, dir);
    expect(result.questions).toBe(await countFaqs(t));
    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      expect(await faqRows(fresh)).toEqual(await faqRows(t));
      expect(await faqCategories(fresh)).toEqual(await faqCategories(t));
    } finally {
      await fresh.close();
    }
  });
});

/** Every question as the public FAQ orders it, with what the export and import carry. */
async function faqRows(t: TestApp) {
  return (
    await sql<Record<string, unknown>>`select f.question, f.answer_markdown, f.answer_html, f.published,
        c.name as category
      from faqs f left join faq_categories c on c.id = f.category_id
      order by coalesce(c.weight, 2147483647), c.id, f.weight, f.id`.execute(t.app.db)
  ).rows;
}

async function faqCategories(t: TestApp) {
  return (
    await sql<{ name: string }>`select name from faq_categories order by weight, name`.execute(t.app.db)
  ).rows;
}

async function contentVersion(t: TestApp): Promise<string> {
  const row = await t.app.db
    .selectFrom('data_versions')
    .select('version')
    .where('domain', '=', 'content')
    .executeTakeFirstOrThrow();
  return String(row.version);
}

async function countFaqs(t: TestApp): Promise<number> {
  const r = await contentDb(t.app.db)
    .selectFrom('faqs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function snapshot(t: TestApp) {
  const versions = await t.app.db.selectFrom('data_versions').select(['domain', 'version']).execute();
  const count = async (table: 'audit_log' | 'faqs' | 'faq_categories') =>
    (await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)}`.execute(t.app.db)).rows[0]!
      .n;
  return {
    versions: Object.fromEntries(versions.map((v) => [v.domain, String(v.version)])),
    audit: await count('audit_log'),
    revisions: (
      await sql<{ n: string }>`select count(*)::text as n from content_revisions where kind = 'faq'`.execute(
        t.app.db,
      )
    ).rows[0]!.n,
    faqs: await count('faqs'),
    categories: await count('faq_categories'),
  };
}
