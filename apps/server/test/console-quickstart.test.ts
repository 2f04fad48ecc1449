import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Story, StoryListItem } from '@portico/contracts/console-quickstart';
import { en } from '@portico/contracts/messages';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import type { QuickstartStory } from '@portico/contracts/quickstart';
import { exportStories } from '../src/modules/quickstart/export.ts';
import { importStories, parseStoriesFile } from '../src/modules/quickstart/importer.ts';
import { TestClient } from './http-client.ts';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Quick Start stories edited in the provider console (issue 27; modules/quickstart/README.md 'Console'). */

const M = en.console.quickstart;
const E = en.console.content.errors;
const BASE = '/admin-api/content/quickstart';
const REPO_CONTENT = path.resolve(import.meta.dirname, '../../../content');
const FIRST = '3f0c6a52-8d1e-4c7b-9a37-2f4b1e6d9c01';

interface Change {
  field: string;
  parts: { value: string; added: boolean; removed: boolean }[];
}
interface ErrorDoc {
  errors: { status: string; code: string; title: string; source?: { pointer?: string } }[];
  meta?: { current: Story; changes: Change[] };
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

async function csrf(client: TestClient): Promise<string> {
  return (await client.get('/session/token')).text();
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-console-quickstart-'));
  dirs.push(dir);
  return dir;
}

const STEPS = [
  { navigationUrl: '/', target: '#main', content: 'Welcome.' },
  { target: '[data-tour="try-out"]', content: 'Press Try it out.', spotlightClicks: true },
];

function fieldsOf(s: Story) {
  return {
    title: s.title,
    weight: s.weight,
    disableForAnonymous: s.disableForAnonymous,
    steps: s.steps,
    state: s.state,
    publishAt: s.publishAt,
  };
}

async function snapshot(t: TestApp) {
  const n = async (query: ReturnType<typeof sql<{ n: string }>>) =>
    (await query.execute(t.app.db)).rows[0]!.n;
  return {
    stories: await n(sql`select count(*)::text as n from quickstart_stories`),
    versions: await n(sql`select coalesce(sum(version), 0)::text as n from quickstart_stories`),
    revisions: await n(
      sql`select count(*)::text as n from content_revisions where kind = 'quickstart_story'`,
    ),
    audit: await n(sql`select count(*)::text as n from audit_log where target_type = 'quickstart_story'`),
  };
}

describe('console: Quick Start stories', () => {
  let t: TestApp;
  let editor: TestClient;
  let admin: TestClient;
  beforeAll(async () => {
    t = await startTestApp();
    editor = await signedInUser(t, 'stories.editor@example.com', { roles: ['content_editor'] });
    admin = await signedInUser(t, 'stories.admin@example.com', { admin: true });
  });
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (fields: Record<string, unknown>, client = editor) => {
    const res = await client.send('POST', BASE, fields, 'application/json');
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<{ data: Story }>(res)).data;
  };
  const save = (id: string, fields: Record<string, unknown>, client = editor) =>
    client.send('PATCH', `${BASE}/${id}`, fields, 'application/json');
  const read = async (id: string) => (await json<{ data: Story }>(await editor.get(`${BASE}/${id}`))).data;
  const developerStories = async () => {
    const res = await new TestClient(t.baseUrl).get('/getting_started/stories');
    expect(res.status).toBe(200);
    return (await json<{ data: QuickstartStory[] }>(res)).data;
  };
  const del = async (client: TestClient, id: string, ifMatch?: string) =>
    client.request(`${BASE}/${id}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': await csrf(client), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
    });
  const auditOf = (id: string) =>
    t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'before', 'after'])
      .where('target_type', '=', 'quickstart_story')
      .where('target_id', '=', id)
      .orderBy('id')
      .execute();

  it('lists the seeded stories, creates a draft that developers do not see, publishes it, deletes it', async () => {
    const list = await json<{ data: StoryListItem[]; meta: { count: number } }>(await editor.get(BASE));
    expect(list.data.map((s) => s.id)).toContain(FIRST);
    expect(list.meta.count).toBeGreaterThanOrEqual(3);
    const seeded = await read(FIRST);
    expect(seeded).toMatchObject({
      title: 'Make your first API call',
      state: 'published',
      publishAt: null,
      sourceFile: 'quickstart/stories.yaml',
      editedAt: null,
    });

    const draft = await create({ title: 'Console lynx tour', steps: STEPS });
    expect(draft).toMatchObject({ state: 'draft', version: 1, sourceFile: null, disableForAnonymous: false });
    // Last in the tour's order.
    expect(draft.weight).toBeGreaterThan(Math.max(...list.data.map((s) => s.weight)));
    expect(draft.steps[1]).toEqual({ ...STEPS[1], spotlightClicks: true });
    expect((await developerStories()).map((s) => s.uuid)).not.toContain(draft.id);
    const drafts = await json<{ data: StoryListItem[] }>(await editor.get(`${BASE}?state=draft&q=LYNX`));
    expect(drafts.data.map((s) => [s.id, s.steps])).toEqual([[draft.id, 2]]);

    const res = await save(draft.id, { ...fieldsOf(draft), state: 'published', version: 1 });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"2"');
    expect((await developerStories()).map((s) => s.uuid)).toContain(draft.id);

    expect((await del(editor, draft.id, '"1"')).status).toBe(409);
    expect((await del(admin, draft.id, '"2"')).status).toBe(204);
    expect((await editor.get(`${BASE}/${draft.id}`)).status).toBe(404);
    expect((await developerStories()).map((s) => s.uuid)).not.toContain(draft.id);
    // Its revisions went with it.
    const left = await sql<{ n: string }>`select count(*)::text as n from content_revisions
      where kind = 'quickstart_story' and item_id is not null
        and item_id not in (select id from quickstart_stories)`.execute(t.app.db);
    expect(left.rows[0]!.n).toBe('0');
    expect((await auditOf(draft.id)).map((a) => [a.action, a.actor_email])).toEqual([
      ['quickstart_story.created', 'stories.editor@example.com'],
      ['quickstart_story.published', 'stories.editor@example.com'],
      ['quickstart_story.deleted', 'stories.admin@example.com'],
    ]);
  });

  it('refuses bad input precisely, every step problem with its pointer, writing nothing', async () => {
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ title: '', steps: STEPS }, '/title'],
      [{ title: 'x', steps: [] }, '/steps'],
      [{ title: 'x', steps: STEPS, state: 'sometime' }, '/state'],
      [{ title: 'x', steps: STEPS, state: 'scheduled' }, '/publishAt', E.publishAtNeeded],
      [{ title: 'x', steps: STEPS, weight: 1.5 }, '/weight'],
      [{ title: 'x', steps: STEPS, colour: 'red' }, ''],
    ];
    for (const [fields, pointer, title] of cases) {
      const res = await editor.send('POST', BASE, fields, 'application/json');
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const doc = await json<ErrorDoc>(res);
      if (pointer) expect(doc.errors[0]?.source?.pointer, JSON.stringify(fields)).toBe(pointer);
      if (title) expect(doc.errors[0]?.title).toBe(title);
    }
    const steps = [
      STEPS[0],
      { target: '', content: 'x' },
      STEPS[1],
      { target: '#a', content: 'x', navigationUrl: 'no-slash', colour: 'red' },
    ];
    const res = await editor.send('POST', BASE, { title: 'Bad steps', steps }, 'application/json');
    expect(res.status).toBe(400);
    const doc = await json<ErrorDoc>(res);
    expect(doc.errors.map((e) => e.source?.pointer)).toEqual([
      '/steps/1/target',
      '/steps/3/navigationUrl',
      '/steps/3',
    ]);
    expect(doc.errors[0]?.title).toContain(M.errors.stepsInvalid.split(':')[0]!);
    expect((await editor.get(`${BASE}?state=nope`)).status).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses a stale save with 409 and what differs; keeps revisions and restores one', async () => {
    const s = await create({ title: 'Revision heron', steps: STEPS });
    const first = await save(s.id, { ...fieldsOf(s), title: 'Revision heron, two', version: 1 });
    expect(first.status).toBe(200);
    const stale = await save(s.id, { ...fieldsOf(s), title: 'Mine', version: 1 }, admin);
    expect(stale.status).toBe(409);
    const doc = await json<ErrorDoc>(stale);
    expect(doc.errors[0]?.title).toBe(M.errors.stale.replace('{{version}}', '2'));
    expect(doc.meta?.current).toMatchObject({ version: 2, title: 'Revision heron, two' });
    expect(doc.meta?.changes.map((c) => c.field)).toEqual(['title']);
    // No version at all: 428.
    expect((await save(s.id, fieldsOf(s))).status).toBe(428);

    const revisions = await json<{ data: { version: number; current: boolean }[] }>(
      await editor.get(`${BASE}/${s.id}/revisions`),
    );
    expect(revisions.data.map((r) => [r.version, r.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const one = await json<{ data: { fields: { title: string }; changes: Change[] } }>(
      await editor.get(`${BASE}/${s.id}/revisions/1`),
    );
    expect(one.data.fields.title).toBe('Revision heron');
    expect(one.data.changes.map((c) => c.field)).toEqual(['title']);
    const restored = await editor.send(
      'POST',
      `${BASE}/${s.id}/revisions/1/restore`,
      { version: 2 },
      'application/json',
    );
    expect(restored.status).toBe(200);
    expect((await json<{ data: Story }>(restored)).data).toMatchObject({
      title: 'Revision heron',
      version: 3,
    });
    expect((await editor.get(`${BASE}/${s.id}/revisions/9`)).status).toBe(404);
    expect((await auditOf(s.id)).map((a) => a.action)).toEqual([
      'quickstart_story.created',
      'quickstart_story.updated',
      'quickstart_story.restored',
    ]);
    expect((await del(editor, s.id)).status).toBe(204);
  });

  it('refuses other roles and developers with 403 and visitors with 401, changing nothing', async () => {
    const s = await create({ title: 'Guarded ibis', steps: STEPS });
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
        `stories.${role.replace(/_/g, '-')}@example.com`,
        role === 'developer' ? {} : { roles: [role] },
      );
      const calls: Response[] = [
        await client.get(BASE),
        await client.get(`${BASE}/${s.id}`),
        await client.get(`${BASE}/${s.id}/revisions`),
        await client.get(`${BASE}/${s.id}/revisions/1`),
        await client.send('POST', BASE, { title: 'Intruder', steps: STEPS }, 'application/json'),
        await client.send(
          'PATCH',
          `${BASE}/${s.id}`,
          { ...fieldsOf(s), title: 'Hijacked', version: 1 },
          'application/json',
        ),
        await client.send('POST', `${BASE}/${s.id}/revisions/1/restore`, { version: 1 }, 'application/json'),
        await del(client, s.id),
      ];
      for (const res of calls) {
        expect(res.status, `${role} ${res.url}`).toBe(403);
        expect((await json<ErrorDoc>(res)).errors[0]?.title).toBe(M.forbidden);
      }
    }
    expect((await new TestClient(t.baseUrl).get(BASE)).status).toBe(401);
    expect(await snapshot(t)).toEqual(before);
    expect((await read(s.id)).title).toBe('Guarded ibis');
    expect((await del(editor, s.id)).status).toBe(204);
  });

  it('the import keeps a story edited in the console, and updates one that was not', async () => {
    const file = (title: string) =>
      parseStoriesFile(
        `stories:\n  - uuid: 0d9a1c2e-1111-4222-8333-444455556666\n    title: ${title} A\n    steps: [{ target: '#main', content: A }]\n` +
          `  - uuid: 0d9a1c2e-1111-4222-8333-444455556667\n    title: ${title} B\n    steps: [{ target: '#main', content: B }]\n`,
      );
    expect(await importStories(t.app.db, file('Imported'))).toEqual({ written: 2, unchanged: 0 });
    const a = await read('0d9a1c2e-1111-4222-8333-444455556666');
    expect((await save(a.id, { ...fieldsOf(a), title: 'From the browser', version: a.version })).status).toBe(
      200,
    );
    expect(await importStories(t.app.db, file('Changed'))).toEqual({ written: 1, unchanged: 1 });
    expect((await read(a.id)).title).toBe('From the browser');
    const b = await read('0d9a1c2e-1111-4222-8333-444455556667');
    expect(b).toMatchObject({ title: 'Changed B', editedAt: null });
    // The import raised its version: an editor who opened it before is told.
    expect(b.version).toBe(2);
    for (const s of [a, b]) expect((await del(editor, s.id)).status).toBe(204);
  });

  it('export then import into a fresh database is a round trip that changes nothing', async () => {
    await create({
      title: 'Round trip: “quotes” & colons',
      disableForAnonymous: true,
      steps: [{ ...STEPS[0], styles: { width: 420 } }, STEPS[1]],
      state: 'published',
    });
    await create({ title: 'Round trip draft', steps: STEPS });
    await create({
      title: 'Round trip scheduled',
      steps: STEPS,
      state: 'scheduled',
      publishAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const dir = tempDir();
    fs.cpSync(REPO_CONTENT, dir, { recursive: true });
    const count = await exportStories(t.app.db, dir);
    expect(count).toBe(Number((await snapshot(t)).stories));

    const fresh = await startTestApp({ CONTENT_DIR: dir });
    try {
      const rows = async (app: TestApp) =>
        (
          await sql<Record<string, unknown>>`select uuid, title, steps, disable_for_anonymous, published,
              publish_at, row_number() over (order by weight, title, id) as place
            from quickstart_stories order by weight, title, id`.execute(app.app.db)
        ).rows;
      expect(await rows(fresh)).toEqual(await rows(t));
      // Exported again, the file is the same.
      const again = tempDir();
      await exportStories(fresh.app.db, again);
      expect(fs.readFileSync(path.join(again, 'quickstart/stories.yaml'), 'utf8')).toBe(
        fs.readFileSync(path.join(dir, 'quickstart/stories.yaml'), 'utf8'),
      );
    } finally {
      await fresh.close();
    }
  });
});
