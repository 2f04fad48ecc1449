import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import type { QuickstartStory } from '@portico/contracts/quickstart';
import { importStories, parseStoriesFile } from '../src/modules/quickstart/importer.ts';
import { TestClient, signIn } from './http-client.ts';
import { PASSWORD, body, createUser, signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Quick Start stories (issue 15): GET /getting_started/stories and completed stories on the user. */

const FIRST = '3f0c6a52-8d1e-4c7b-9a37-2f4b1e6d9c01';
const SECOND = '7b2d9e14-5a63-4f08-b1c2-8e9f0a3d4b12';
const THIRD = 'c4e81f27-90ab-4d35-8e6f-1a2b3c4d5e23';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

async function stories(c: TestClient): Promise<QuickstartStory[]> {
  const res = await c.get('/getting_started/stories');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toContain('no-store');
  return (await body<{ data: QuickstartStory[] }>(res)).data;
}

async function uuidOf(c: TestClient): Promise<string> {
  const me = await body<{ uuid: string }>(await c.get('/session/user?_format=json'));
  return me.uuid;
}

function completedDoc(uuid: string, ids: string[], type = 'node--quick_start_story') {
  return {
    data: {
      type: 'user--user',
      id: uuid,
      relationships: { field_completed_stories: { data: ids.map((id) => ({ type, id })) } },
    },
  };
}

describe('GET /getting_started/stories', () => {
  it('lists the demo stories in order with disabled computed for an anonymous visitor', async () => {
    const list = await stories(new TestClient(t.baseUrl));
    expect(list.map((s) => s.uuid)).toEqual([FIRST, SECOND, THIRD]);
    expect(list[0]).toMatchObject({ title: 'Make your first API call', disabled: false, completed: false });
    expect(list[1]).toMatchObject({ disableForAnonymous: true, disabled: true, completed: false });
    expect(list[0]!.steps[0]).toMatchObject({ navigationUrl: '/', target: '#main', spotlightClicks: false });
    for (const s of list) expect(s.steps.length).toBeGreaterThan(0);
  });

  it('computes disabled and completed for a signed-in user from their completed stories', async () => {
    const c = await signedInUser(t, 'story.reader@example.com');
    let list = await stories(c);
    // The second follows an unrestricted story; the third follows a restricted, uncompleted one.
    expect(list.map((s) => [s.disabled, s.completed])).toEqual([
      [false, false],
      [false, false],
      [true, false],
    ]);
    const res = await c.send(
      'PATCH',
      `/jsonapi/user/user/${await uuidOf(c)}`,
      completedDoc(await uuidOf(c), [SECOND]),
    );
    expect(res.status).toBe(200);
    list = await stories(c);
    expect(list.map((s) => [s.disabled, s.completed])).toEqual([
      [false, false],
      [false, true],
      [false, false],
    ]);
    // Another visitor sees none of it.
    expect((await stories(new TestClient(t.baseUrl))).some((s) => s.completed)).toBe(false);
  });
});

describe('PATCH /jsonapi/user/user/{uuid} field_completed_stories', () => {
  it('saves the caller’s completed stories, kept by a new sign-in', async () => {
    const c = await signedInUser(t, 'story.saver@example.com');
    const uuid = await uuidOf(c);
    const res = await c.send('PATCH', `/jsonapi/user/user/${uuid}`, completedDoc(uuid, [FIRST, FIRST]));
    expect(res.status).toBe(200);
    const doc = await body<{
      data: { relationships: { field_completed_stories: { data: { id: string }[] } } };
    }>(res);
    expect(doc.data.relationships.field_completed_stories.data.map((d) => d.id)).toEqual([FIRST]);
    const again = new TestClient(t.baseUrl);
    await signIn(again, 'story.saver@example.com', PASSWORD);
    const me = await body<{ completedStories: string[] }>(await again.get('/session/user?_format=json'));
    expect(me.completedStories).toEqual([FIRST]);
    expect((await stories(again))[0]!.completed).toBe(true);
  });

  it('refuses unknown story ids with 422 naming the entry, and changes nothing', async () => {
    const c = await signedInUser(t, 'story.unknown@example.com');
    const uuid = await uuidOf(c);
    for (const bad of ['story-1', '00000000-0000-4000-8000-000000000000']) {
      const res = await c.send('PATCH', `/jsonapi/user/user/${uuid}`, completedDoc(uuid, [FIRST, bad]));
      expect(res.status).toBe(422);
      const err = (await body<JsonApiErrorBody>(res)).errors[0] as {
        detail?: string;
        title?: string;
        source?: { pointer?: string };
      };
      expect(err.source?.pointer).toBe('/data/relationships/field_completed_stories/data/1/id');
      expect(`${err.title ?? ''} ${err.detail ?? ''}`).toContain(bad);
    }
    const wrongType = await c.send(
      'PATCH',
      `/jsonapi/user/user/${uuid}`,
      completedDoc(uuid, [FIRST], 'node--page'),
    );
    expect(wrongType.status).toBe(422);
    const me = await body<{ completedStories: string[] }>(await c.get('/session/user?_format=json'));
    expect(me.completedStories).toEqual([]);
  });

  it('lets only the caller record their stories: 401 anonymous, 404 another user, 403 an admin', async () => {
    const victim = await createUser(t, 'story.victim@example.com');
    const anon = new TestClient(t.baseUrl);
    expect(
      (await anon.send('PATCH', `/jsonapi/user/user/${victim.uuid}`, completedDoc(victim.uuid, [FIRST])))
        .status,
    ).toBe(401);
    const other = await signedInUser(t, 'story.other@example.com');
    expect(
      (await other.send('PATCH', `/jsonapi/user/user/${victim.uuid}`, completedDoc(victim.uuid, [FIRST])))
        .status,
    ).toBe(404);
    const admin = await signedInUser(t, 'story.admin@example.com', { admin: true });
    const res = await admin.send(
      'PATCH',
      `/jsonapi/user/user/${victim.uuid}`,
      completedDoc(victim.uuid, [FIRST]),
    );
    expect(res.status).toBe(403);
    expect((await body<JsonApiErrorBody>(res)).errors[0]?.title).toBe(en.quickstart.ownStoriesOnly);
    const row = await t.app.db
      .selectFrom('users')
      .select('completed_stories')
      .where('id', '=', victim.id)
      .executeTakeFirstOrThrow();
    expect(row.completed_stories).toEqual([]);
  });
});

describe('stories import', () => {
  it('is idempotent and updates a changed story in place', async () => {
    const file = parseStoriesFile(`stories:
  - uuid: 11111111-2222-4333-8444-555555555555
    title: Test story
    steps:
      - { target: body, content: Hello }
`);
    expect(await importStories(t.app.db, file)).toEqual({ written: 1, unchanged: 0 });
    expect(await importStories(t.app.db, file)).toEqual({ written: 0, unchanged: 1 });
    file.stories[0]!.title = 'Renamed story';
    expect(await importStories(t.app.db, file)).toEqual({ written: 1, unchanged: 0 });
    const rows = await t.app.db
      .withTables<{ quickstart_stories: { uuid: string; title: string } }>()
      .selectFrom('quickstart_stories')
      .select(['title'])
      .where('uuid', '=', '11111111-2222-4333-8444-555555555555')
      .execute();
    expect(rows).toEqual([{ title: 'Renamed story' }]);
  });

  it('rejects a broken file with a message naming it', () => {
    expect(() => parseStoriesFile('stories:\n  - { uuid: nope, title: x, steps: [] }\n')).toThrow(
      /content\/quickstart\/stories\.yaml is invalid/,
    );
  });
});
