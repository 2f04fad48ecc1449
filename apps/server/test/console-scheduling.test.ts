import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaqListItem } from '@portico/contracts/console-content';
import type { PageListItem } from '@portico/contracts/console-pages';
import { en } from '@portico/contracts/messages';
import { exportFaq } from '../src/modules/content/export.ts';
import { publishDueFaqs } from '../src/modules/content/faq-console.ts';
import { exportPages } from '../src/modules/pages/export.ts';
import { publishDuePages } from '../src/modules/pages/console.ts';
import { publishDueStories } from '../src/modules/quickstart/console.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Scheduled publishing of pages, FAQ questions and Quick Start stories (issue 27; the articles'
 * scheduler generalized in lib/versioned-content.ts): a scheduled item is shown to nobody until its
 * time, then published once, on the site and in search at once, audited as the system's.
 */

const E = en.console.content.errors;

interface Item {
  id: string;
  version: number;
  state: string;
  publishAt: string | null;
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
const later = () => new Date(Date.now() + 3_600_000).toISOString();

describe('console: scheduled publishing of pages, FAQ questions and stories', () => {
  let t: TestApp;
  let editor: TestClient;
  const visitor = () => new TestClient(t.baseUrl);
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'schedule.editor@example.com', { roles: ['content_editor'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = async (base: string, fields: Record<string, unknown>) => {
    const res = await editor.send('POST', base, fields, 'application/json');
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<{ data: Item }>(res)).data;
  };
  const read = async (base: string, id: string) =>
    (await json<{ data: Item }>(await editor.get(`${base}/${id}`))).data;
  /** Makes the item due: its publication time in the past (the scheduler may then take it). */
  const due = (table: string, id: string) =>
    sql`update ${sql.table(table)} set publish_at = now() - interval '1 second' where uuid = ${id}`.execute(
      t.app.db,
    );
  const searchLinks = async (q: string) => {
    const res = await visitor().get(`/phpsdk/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return (await json<{ data: { link: string }[] }>(res)).data.map((d) => d.link);
  };
  const auditOf = (type: string, id: string) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'actor_id'])
      .where('target_type', '=', type)
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();
  const revisionsOf = async (kind: string, id: string) =>
    (
      await sql<{ version: number; author_email: string | null }>`select r.version, r.author_email
        from content_revisions r where r.kind = ${kind} and r.item_id = (
          select id from ${sql.table(kind === 'page' ? 'pages' : kind === 'faq' ? 'faqs' : 'quickstart_stories')}
          where uuid = ${id}) order by r.version`.execute(t.app.db)
    ).rows;

  it('refuses a schedule without a future date, as for articles', async () => {
    for (const [base, fields] of [
      ['/admin-api/content/pages', { title: 'x', path: '/never-page', body: 'x' }],
      ['/admin-api/content/faqs', { question: 'Never?', answer: 'x' }],
      ['/admin-api/content/quickstart', { title: 'Never', steps: [{ target: '#main', content: 'x' }] }],
    ] as const) {
      for (const publishAt of [null, '2001-01-01T00:00:00Z']) {
        const res = await editor.send(
          'POST',
          base,
          { ...fields, state: 'scheduled', publishAt },
          'application/json',
        );
        expect(res.status, base).toBe(400);
        const doc = await json<{ errors: { title: string; source?: { pointer?: string } }[] }>(res);
        expect(doc.errors[0]).toMatchObject({ title: E.publishAtNeeded, source: { pointer: '/publishAt' } });
      }
    }
  });

  it('publishes a scheduled page once its time has come: answered and found at once, audited as the system', async () => {
    const base = '/admin-api/content/pages';
    const page = await create(base, {
      title: 'Scheduled pangolin charter',
      path: '/scheduled-pangolin',
      body: 'The **pangolin** charter.',
      state: 'scheduled',
      publishAt: later(),
    });
    expect(page).toMatchObject({ state: 'scheduled', version: 1 });
    expect(page.publishAt).not.toBeNull();
    expect((await visitor().get('/scheduled-pangolin?_format=json')).status).toBe(404);
    expect(await searchLinks('pangolin')).toEqual([]);
    // The list says when it goes live, as the articles' does.
    const listed = await json<{ data: PageListItem[] }>(await editor.get(`${base}?state=scheduled`));
    expect(listed.data.map((p) => [p.id, p.state, p.publishAt])).toEqual([
      [page.id, 'scheduled', page.publishAt],
    ]);
    // Not due yet: nothing happens.
    expect(await publishDuePages(t.app.db)).toEqual([]);

    await due('pages', page.id);
    const runs = await Promise.all([publishDuePages(t.app.db), publishDuePages(t.app.db)]);
    // The background scheduler may have taken it first; never more than once.
    expect(runs.flat().filter((id) => id === page.id).length).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await read(base, page.id)).state).toBe('published');
    expect(await read(base, page.id)).toMatchObject({ publishAt: null, version: 2 });
    const all = await json<{ data: PageListItem[] }>(await editor.get(base));
    expect(all.data.find((p) => p.id === page.id)).toMatchObject({ state: 'published', publishAt: null });
    expect((await visitor().get('/scheduled-pangolin?_format=json')).status).toBe(200);
    expect(await searchLinks('pangolin')).toEqual(['/scheduled-pangolin']);
    expect(await publishDuePages(t.app.db)).toEqual([]);
    expect((await auditOf('page', page.id)).map((a) => [a.action, a.actor_email, a.actor_id])).toEqual([
      ['page.created', 'schedule.editor@example.com', expect.any(Number)],
      ['page.published', null, null],
    ]);
    expect(await revisionsOf('page', page.id)).toEqual([
      { version: 1, author_email: 'schedule.editor@example.com' },
      { version: 2, author_email: null },
    ]);
  });

  it('publishes a scheduled FAQ question once: on the FAQ and in search at once', async () => {
    const base = '/admin-api/content/faqs';
    const faq = await create(base, {
      question: 'Do scheduled numbats call the API?',
      answer: 'Yes, **numbats** do.',
      state: 'scheduled',
      publishAt: later(),
    });
    expect(faq).toMatchObject({ state: 'scheduled', version: 1 });
    const publicIds = async () =>
      (await json<{ data: { id: string }[] }>(await visitor().get('/jsonapi/node/faq'))).data.map(
        (q) => q.id,
      );
    expect(await publicIds()).not.toContain(faq.id);
    expect(await searchLinks('numbats')).toEqual([]);
    const listed = await json<{ data: FaqListItem[] }>(await editor.get(`${base}?state=scheduled`));
    expect(listed.data.map((q) => [q.id, q.state, q.publishAt])).toEqual([
      [faq.id, 'scheduled', faq.publishAt],
    ]);
    expect(faq.publishAt).not.toBeNull();

    await due('faqs', faq.id);
    const runs = await Promise.all([publishDueFaqs(t.app.db), publishDueFaqs(t.app.db)]);
    expect(runs.flat().filter((id) => id === faq.id).length).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await read(base, faq.id)).state).toBe('published');
    expect(await publicIds()).toContain(faq.id);
    const all = await json<{ data: FaqListItem[] }>(await editor.get(base));
    expect(all.data.find((q) => q.id === faq.id)).toMatchObject({ state: 'published', publishAt: null });
    expect(await searchLinks('numbats')).toEqual(['/faq-page']);
    expect((await auditOf('faq', faq.id)).map((a) => [a.action, a.actor_email])).toEqual([
      ['faq.created', 'schedule.editor@example.com'],
      ['faq.published', null],
    ]);
  });

  it('publishes a scheduled story once: the developers see it at once', async () => {
    const base = '/admin-api/content/quickstart';
    const story = await create(base, {
      title: 'Scheduled quoll tour',
      steps: [{ target: '#main', content: 'Quoll.' }],
      state: 'scheduled',
      publishAt: later(),
    });
    const shown = async () =>
      (await json<{ data: { uuid: string }[] }>(await visitor().get('/getting_started/stories'))).data.map(
        (s) => s.uuid,
      );
    expect(await shown()).not.toContain(story.id);
    await due('quickstart_stories', story.id);
    const runs = await Promise.all([publishDueStories(t.app.db), publishDueStories(t.app.db)]);
    expect(runs.flat().filter((id) => id === story.id).length).toBeLessThanOrEqual(1);
    await expect.poll(async () => (await read(base, story.id)).state).toBe('published');
    expect(await shown()).toContain(story.id);
    expect((await auditOf('quickstart_story', story.id)).map((a) => [a.action, a.actor_email])).toEqual([
      ['quickstart_story.created', 'schedule.editor@example.com'],
      ['quickstart_story.published', null],
    ]);
    expect((await revisionsOf('quickstart_story', story.id)).map((r) => r.version)).toEqual([1, 2]);
  });

  it('two publications at once publish a due page once, whichever instance wins', async () => {
    // Made due directly: both runs (and the background scheduler) race on the same row.
    const page = await create('/admin-api/content/pages', {
      title: 'Race dingo',
      path: '/race-dingo',
      body: 'Dingo.',
      state: 'scheduled',
      publishAt: later(),
    });
    await due('pages', page.id);
    const [a, b] = await Promise.all([publishDuePages(t.app.db), publishDuePages(t.app.db)]);
    await expect.poll(async () => (await read('/admin-api/content/pages', page.id)).state).toBe('published');
    expect([...a, ...b].filter((id) => id === page.id).length).toBeLessThanOrEqual(1);
    const published = (await auditOf('page', page.id)).filter((e) => e.action === 'page.published');
    expect(published).toHaveLength(1);
    expect((await read('/admin-api/content/pages', page.id)).version).toBe(2);
  });

  it('a scheduled page and question keep their time through export and import', async () => {
    const at = new Date(Date.now() + 86_400_000);
    at.setMilliseconds(0);
    await create('/admin-api/content/pages', {
      title: 'Export tapir',
      path: '/export-tapir',
      body: 'Tapir.',
      state: 'scheduled',
      publishAt: at.toISOString(),
    });
    await create('/admin-api/content/faqs', {
      question: 'Are tapirs exported?',
      answer: 'Yes.',
      state: 'scheduled',
      publishAt: at.toISOString(),
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-console-scheduling-'));
    try {
      fs.cpSync(REPO_CONTENT, dir, { recursive: true });
      await exportPages(t.app.db, dir);
      await exportFaq(t.app.db, dir);
      expect(fs.readFileSync(path.join(dir, 'pages', 'export-tapir.md'), 'utf8')).toContain(
        `publishAt: ${at.toISOString()}`,
      );
      const fresh = await startTestApp({ CONTENT_DIR: dir });
      try {
        const page = await sql<{ published: boolean; publish_at: Date | string }>`select published, publish_at
          from pages where alias = '/export-tapir'`.execute(fresh.app.db);
        expect(page.rows.map((r) => [r.published, new Date(r.publish_at).toISOString()])).toEqual([
          [false, at.toISOString()],
        ]);
        const faq = await sql<{ published: boolean; publish_at: Date | string }>`select published, publish_at
          from faqs where question = 'Are tapirs exported?'`.execute(fresh.app.db);
        expect(faq.rows.map((r) => [r.published, new Date(r.publish_at).toISOString()])).toEqual([
          [false, at.toISOString()],
        ]);
      } finally {
        await fresh.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
