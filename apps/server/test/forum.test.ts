import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORUM_COMMENT_TYPE,
  FORUM_TERM_TYPE,
  FORUM_TOPIC_BODY_MAX,
  FORUM_TOPIC_TYPE,
  FORUM_TOPICS_PER_USER,
  FORUM_COMMENTS_PER_ADDRESS,
  type ForumTopicSummary,
} from '@portico/contracts/forum';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { searchDocuments } from '../src/modules/search/service.ts';
import { forumDb } from '../src/modules/forum/tables.ts';
import { TestClient } from './http-client.ts';
import { signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Forums (spec B 2.13, 3, 6, 7; issue 14): reading, posting, moderation, subscriptions, abuse. */

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown> & {
    statistics?: { topic_count: number; comment_count: number };
    last_post?: { created: string; name: string | null; uid: number | null } | null;
    comment_forum?: { comment_count: number };
  };
  relationships: Record<
    string,
    { data: { type: string; id: string } | { type: string; id: string }[] | null }
  >;
}
interface Collection {
  data: Resource[];
  included?: Resource[];
  meta: { count: number };
  links: Record<string, { href: string }>;
}
interface Single {
  data: Resource;
  included?: Resource[];
  meta?: { subscribed: boolean };
}

const M = en.forum;

describe('forums', () => {
  let t: TestApp;
  let anon: TestClient;
  let dev: TestClient;
  let other: TestClient;
  let admin: TestClient;
  let devUuid: string;
  let otherUuid: string;

  const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;
  const forums = async (client: TestClient) =>
    (await json<Collection>(await client.get('/jsonapi/taxonomy_term/forums'))).data;
  const forumByName = async (client: TestClient, name: string) => {
    const f = (await forums(client)).find((x) => x.attributes.name === name);
    if (!f) throw new Error(`no forum ${name}`);
    return f;
  };
  const userUuid = async (client: TestClient) =>
    ((await json<{ uuid: string }>(await client.get('/session/user'))) as { uuid: string }).uuid;

  const topicDoc = (forum: string, title: string, body: string) => ({
    data: {
      type: FORUM_TOPIC_TYPE,
      attributes: { title, body: { value: body, format: 'basic_html' } },
      relationships: { taxonomy_forums: { data: { type: FORUM_TERM_TYPE, id: forum } } },
    },
  });
  const commentDoc = (topic: string, body: string, pid?: string, subject = '') => ({
    data: {
      type: FORUM_COMMENT_TYPE,
      attributes: {
        subject,
        entity_type: 'node',
        field_name: 'comment_forum',
        comment_body: { value: body, format: 'basic_html' },
      },
      relationships: {
        entity_id: { data: { type: FORUM_TOPIC_TYPE, id: topic } },
        ...(pid ? { pid: { data: { type: FORUM_COMMENT_TYPE, id: pid } } } : {}),
      },
    },
  });
  const createTopic = async (client: TestClient, forum: string, title: string, body = '<p>Body</p>') => {
    const res = await client.send('POST', '/jsonapi/node/forum', topicDoc(forum, title, body));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<Single>(res)).data;
  };
  const comment = async (client: TestClient, topic: string, body: string, pid?: string) => {
    const res = await client.send('POST', '/jsonapi/comment/comment_forum', commentDoc(topic, body, pid));
    expect(res.status, await res.clone().text()).toBe(201);
    return (await json<Single>(res)).data;
  };
  const comments = async (client: TestClient, topic: string, extra = '') =>
    json<Collection>(
      await client.get(
        `/jsonapi/comment/comment_forum?filter[entity_id.id]=${topic}&sort=created&include=uid${extra}`,
      ),
    );
  const countRows = async (table: 'forum_topics' | 'forum_comments') =>
    Number(
      (
        await forumDb(t.app.db)
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' });
    anon = new TestClient(t.baseUrl);
    dev = await signedInUser(t, 'forum.dev@example.com');
    other = await signedInUser(t, 'forum.other@example.com');
    admin = await signedInUser(t, 'forum.admin@example.com', { admin: true });
    devUuid = await userUuid(dev);
    otherUuid = await userUuid(other);
  });
  afterAll(async () => t?.close());

  it('lists the demo forums with containers, statistics and last posts', async () => {
    const list = await forums(anon);
    const names = list.map((f) => f.attributes.name);
    expect(names).toEqual(
      expect.arrayContaining(['Announcements', 'Getting started', 'APIs', 'Payments API', 'Accounts API']),
    );
    const apis = list.find((f) => f.attributes.name === 'APIs')!;
    const payments = list.find((f) => f.attributes.name === 'Payments API')!;
    const accounts = list.find((f) => f.attributes.name === 'Accounts API')!;
    expect(apis.attributes.forum_container).toBe(true);
    expect(apis.relationships.parent!.data).toEqual([{ type: FORUM_TERM_TYPE, id: 'virtual' }]);
    expect(payments.relationships.parent!.data).toEqual([{ type: FORUM_TERM_TYPE, id: apis.id }]);
    expect(payments.attributes.statistics).toEqual({ topic_count: 2, comment_count: 4 });
    expect(payments.attributes.subscribed).toBe(false);
    // A container counts what its forums hold.
    expect(apis.attributes.statistics).toEqual({
      topic_count: payments.attributes.statistics!.topic_count + accounts.attributes.statistics!.topic_count,
      comment_count:
        payments.attributes.statistics!.comment_count + accounts.attributes.statistics!.comment_count,
    });
    expect(payments.attributes.last_post).toMatchObject({ name: 'Tom Keller' });
    expect((apis.relationships.children!.data as unknown[]).length).toBe(3);
  });

  it('lists the topics of a forum, 204 when there are none, 404 for an unknown forum', async () => {
    const payments = await forumByName(anon, 'Payments API');
    const res = await anon.get(`/phpsdk/forum-topics/${payments.id}`);
    expect(res.status).toBe(200);
    const topics = await json<ForumTopicSummary[]>(res);
    expect(topics.map((x) => x.title)).toContain(
      'SEPA Instant payment stays in ACSP for more than 10 seconds',
    );
    const sepa = topics.find((x) => x.title.startsWith('SEPA'))!;
    expect(sepa.comment_forum).toMatchObject({ comment_count: 4, last_comment_name: 'Ada Admin' });
    expect(sepa.author?.name).toBe('Priya Shah');
    expect(sepa.forumParent).toBe(payments.id);
    // By the numeric tid too.
    expect(
      (await anon.get(`/phpsdk/forum-topics/${String(payments.attributes.drupal_internal__tid)}`)).status,
    ).toBe(200);

    // Pages of 20: the second page of a forum with two topics is empty.
    expect((await anon.get(`/phpsdk/forum-topics/${payments.id}?page=1`)).status).toBe(204);
    expect((await anon.get(`/phpsdk/forum-topics/${payments.id}?page=-1`)).status).toBe(400);
    const apis = await forumByName(anon, 'APIs');
    expect((await anon.get(`/phpsdk/forum-topics/${apis.id}`)).status).toBe(204);
    expect((await anon.get('/phpsdk/forum-topics/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await anon.get('/phpsdk/forum-topics/nonsense')).status).toBe(404);
  });

  it('lets anonymous visitors read but not post, comment or subscribe', async () => {
    const payments = await forumByName(anon, 'Payments API');
    const list = await json<Collection>(
      await anon.get(`/jsonapi/node/forum?filter[taxonomy_forums.id]=${payments.id}&include=uid`),
    );
    expect(list.meta.count).toBe(2);
    const topic = list.data[0]!;
    expect((await anon.get(`/jsonapi/node/forum/${topic.id}?include=uid,uid.user_picture`)).status).toBe(200);
    const before = await countRows('forum_topics');
    const posted = await anon.send('POST', '/jsonapi/node/forum', topicDoc(payments.id, 'Anon', '<p>x</p>'));
    expect(posted.status).toBe(401);
    const commented = await anon.send(
      'POST',
      '/jsonapi/comment/comment_forum',
      commentDoc(topic.id, '<p>x</p>'),
    );
    expect(commented.status).toBe(401);
    expect((await anon.get(`/api/subscribe-list?node=${topic.id}`)).status).toBe(401);
    const sub = await anon.send(
      'POST',
      '/api/subscribe-list',
      { entity_type: 'node', type: 'subscribe', node: topic.id, user: devUuid },
      'application/json',
    );
    expect(sub.status).toBe(401);
    expect(await countRows('forum_topics')).toBe(before);
  });

  it('creates a topic with sanitized HTML, indexes it for search and finds it by title', async () => {
    const payments = await forumByName(dev, 'Payments API');
    const topic = await createTopic(
      dev,
      payments.id,
      'Refund webhooks arrive twice',
      '<p>We get <strong>duplicate</strong> refund events.</p><script>alert(1)</script><img src=x onerror="alert(2)">',
    );
    const body = (topic.attributes.body as { value: string }).value;
    expect(body).toContain('<strong>duplicate</strong>');
    expect(body).not.toContain('script');
    expect(body).not.toContain('onerror');
    expect(topic.attributes.title).toBe('Refund webhooks arrive twice');

    const found = await json<Collection>(
      await anon.get(
        `/jsonapi/node/forum?filter[title][value]=refund webhooks&filter[title][operator]=CONTAINS&filter[taxonomy_forums.id]=${payments.id}`,
      ),
    );
    expect(found.data.map((d) => d.id)).toEqual([topic.id]);
    const search = await searchDocuments(t.app.db, {
      q: 'duplicate refund',
      types: ['forum'],
      limit: 10,
      offset: 0,
    });
    expect(search.items.map((i) => i.uuid)).toContain(topic.id);
    expect(search.items.find((i) => i.uuid === topic.id)?.link).toBeNull();
  });

  it('keeps the editor formatting of a post but no images, event handlers, styles or javascript: URLs', async () => {
    const payments = await forumByName(dev, 'Payments API');
    const hostile =
      '<h2 onmouseover="alert(1)">Steps</h2>' +
      '<p>See <a href="javascript:alert(2)">this</a> and <a href="https://example.com/docs" onclick="alert(3)">the docs</a>.</p>' +
      '<img src=http://evil>' +
      '<p style="background:url(http://evil/x.png)"><em>Styled</em></p>' +
      '<svg onload="alert(4)"></svg><iframe src="http://evil/frame"></iframe>' +
      '<ul><li><code>POST /refunds</code></li></ul>';
    const topic = await createTopic(dev, payments.id, 'Hostile markup', hostile);
    const reply = await comment(other, topic.id, hostile);
    const read = await json<Single>(await anon.get(`/jsonapi/node/forum/${topic.id}`));
    const stored = await forumDb(t.app.db)
      .selectFrom('forum_comments')
      .select('body_html')
      .where('uuid', '=', reply.id)
      .executeTakeFirstOrThrow();
    for (const html of [
      (topic.attributes.body as { value: string }).value,
      (read.data.attributes.body as { value: string }).value,
      (reply.attributes.comment_body as { value: string }).value,
      stored.body_html,
    ]) {
      expect(html).not.toMatch(/<img|<svg|<iframe|evil|javascript:|alert|\bon[a-z]+=|style=/i);
      expect(html).toContain('<h2>Steps</h2>');
      expect(html).toContain(
        '<a href="https://example.com/docs" rel="noopener noreferrer nofollow">the docs</a>',
      );
      expect(html).toContain('<em>Styled</em>');
      expect(html).toContain('<li><code>POST /refunds</code></li>');
    }
    // A post that is nothing but an image has no text left: refused, as an empty one.
    const res = await dev.send(
      'POST',
      '/jsonapi/node/forum',
      topicDoc(payments.id, 'Pixel', '<img src=http://evil>'),
    );
    expect(res.status).toBe(400);
    expect((await json<JsonApiErrorBody>(res)).errors[0]?.source?.pointer).toBe(
      '/data/attributes/body/value',
    );
  });

  it('refuses bad topics with a precise 4xx and stores nothing', async () => {
    const payments = await forumByName(dev, 'Payments API');
    const apis = await forumByName(dev, 'APIs');
    const before = await countRows('forum_topics');
    const cases: [unknown, number, string][] = [
      [topicDoc(payments.id, '   ', '<p>Body</p>'), 400, '/data/attributes/title'],
      [topicDoc(payments.id, 'Only script', '<script>alert(1)</script>'), 400, '/data/attributes/body/value'],
      [
        topicDoc(payments.id, 'Huge', `<p>${'a'.repeat(FORUM_TOPIC_BODY_MAX)}</p>`),
        413,
        '/data/attributes/body/value',
      ],
      [topicDoc(payments.id, 'x'.repeat(300), '<p>Body</p>'), 413, '/data/attributes/title'],
      [
        topicDoc(apis.id, 'In a container', '<p>Body</p>'),
        400,
        '/data/relationships/taxonomy_forums/data/id',
      ],
      [
        topicDoc('00000000-0000-4000-8000-000000000000', 'Nowhere', '<p>Body</p>'),
        404,
        '/data/relationships/taxonomy_forums/data/id',
      ],
      [{ data: { type: FORUM_TOPIC_TYPE, attributes: { title: 'x' } } }, 400, '/data/attributes/body'],
    ];
    for (const [doc, status, pointer] of cases) {
      const res = await dev.send('POST', '/jsonapi/node/forum', doc);
      expect(res.status, pointer).toBe(status);
      const err = await json<JsonApiErrorBody>(res);
      expect(err.errors[0]?.source?.pointer, JSON.stringify(err)).toBe(pointer);
    }
    expect(await countRows('forum_topics')).toBe(before);
  });

  it('threads comments: replies carry the parent, pages of 10 sorted by created, search by subject or body', async () => {
    const started = await forumByName(dev, 'Getting started');
    const topic = await createTopic(dev, started.id, 'Paging the comments');
    const first = await comment(other, topic.id, '<p>First answer about tokens</p>');
    const reply = await comment(
      dev,
      topic.id,
      '<blockquote>First answer</blockquote><p>Thanks!</p>',
      first.id,
    );
    expect(reply.relationships.pid!.data).toEqual({ type: FORUM_COMMENT_TYPE, id: first.id });
    for (let i = 3; i <= 12; i++) await comment(other, topic.id, `<p>Comment number ${i}</p>`);

    const page1 = await comments(anon, topic.id);
    expect(page1.meta.count).toBe(12);
    expect(page1.data).toHaveLength(10);
    expect(page1.data[0]!.id).toBe(first.id);
    expect(page1.included?.map((u) => u.attributes.name)).toEqual(
      expect.arrayContaining(['forum dev', 'forum other']),
    );
    const page2 = await json<Collection>(await anon.get(page1.links.next!.href));
    expect(page2.data.map((c) => (c.attributes.comment_body as { value: string }).value)).toEqual([
      '<p>Comment number 11</p>',
      '<p>Comment number 12</p>',
    ]);

    const search = await json<Collection>(
      await anon.get(
        `/jsonapi/comment/comment_forum?filter[entity_id.id]=${topic.id}` +
          '&filter[or][group][conjunction]=OR' +
          '&filter[s][condition][path]=subject&filter[s][condition][operator]=CONTAINS&filter[s][condition][value]=tokens&filter[s][condition][memberOf]=or' +
          '&filter[b][condition][path]=comment_body.value&filter[b][condition][operator]=CONTAINS&filter[b][condition][value]=tokens&filter[b][condition][memberOf]=or' +
          '&sort=created,pid',
      ),
    );
    expect(search.data.map((c) => c.id)).toEqual([first.id]);

    const single = await json<Single>(await anon.get(`/jsonapi/node/forum/${topic.id}`));
    expect(single.data.attributes.comment_forum!.comment_count).toBe(12);
  });

  it('refuses bad comments: empty, too long, unknown topic or parent, someone else as author', async () => {
    const started = await forumByName(dev, 'Getting started');
    const topic = await createTopic(admin, started.id, 'Bad comments');
    const elsewhere = await createTopic(admin, started.id, 'Elsewhere');
    const foreign = await comment(dev, elsewhere.id, '<p>Elsewhere</p>');
    const before = await countRows('forum_comments');
    const send = (doc: unknown) => dev.send('POST', '/jsonapi/comment/comment_forum', doc);
    expect((await send(commentDoc(topic.id, '<p> </p>'))).status).toBe(400);
    expect((await send(commentDoc(topic.id, `<p>${'b'.repeat(20_000)}</p>`))).status).toBe(413);
    expect((await send(commentDoc('00000000-0000-4000-8000-000000000000', '<p>x</p>'))).status).toBe(404);
    const wrongParent = await send(commentDoc(topic.id, '<p>x</p>', foreign.id));
    expect(wrongParent.status).toBe(404);
    expect((await json<JsonApiErrorBody>(wrongParent)).errors[0]?.source?.pointer).toBe(
      '/data/relationships/pid/data/id',
    );
    const impostor = commentDoc(topic.id, '<p>x</p>') as { data: { relationships: Record<string, unknown> } };
    impostor.data.relationships.uid = { data: { type: 'user--user', id: otherUuid } };
    expect((await send(impostor)).status).toBe(403);
    expect(await countRows('forum_comments')).toBe(before);
  });

  it("refuses every attribute or relationship a post does not take, and moderators' fields from others", async () => {
    const payments = await forumByName(dev, 'Payments API');
    const topic = await createTopic(admin, payments.id, 'Fields target');
    const topicsBefore = await countRows('forum_topics');
    const commentsBefore = await countRows('forum_comments');
    type Doc = { data: { attributes: Record<string, unknown>; relationships: Record<string, unknown> } };
    const withTopic = (change: (d: Doc) => void) => {
      const d = topicDoc(payments.id, 'Extra fields', '<p>Body</p>') as unknown as Doc;
      change(d);
      return d;
    };
    const withComment = (change: (d: Doc) => void) => {
      const d = commentDoc(topic.id, '<p>Body</p>') as unknown as Doc;
      change(d);
      return d;
    };
    const someoneElse = { data: { type: 'user--user', id: otherUuid } };
    const cases: [string, Doc, number, string, string][] = [
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.attributes.foo = 1)),
        400,
        '/data/attributes/foo',
        'foo is not an attribute of node--forum that can be written.',
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.attributes.promote = true)),
        400,
        '/data/attributes/promote',
        'promote is not an attribute of node--forum that can be written.',
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.relationships.field_tags = { data: [] })),
        400,
        '/data/relationships/field_tags',
        'field_tags is not a relationship of node--forum that can be written.',
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.attributes.body = { value: '<p>x</p>', summary: 'x' })),
        400,
        '/data/attributes/body',
        '',
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.attributes.sticky = true)),
        403,
        '/data/attributes/sticky',
        format(M.errors.moderatorField, { field: 'sticky' }),
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.attributes.status = false)),
        403,
        '/data/attributes/status',
        format(M.errors.moderatorField, { field: 'status' }),
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.attributes.locked = true)),
        403,
        '/data/attributes/locked',
        format(M.errors.moderatorField, { field: 'locked' }),
      ],
      [
        '/jsonapi/node/forum',
        withTopic((d) => (d.data.relationships.uid = someoneElse)),
        403,
        '/data/relationships/uid/data/id',
        M.errors.ownName,
      ],
      [
        '/jsonapi/comment/comment_forum',
        withComment((d) => (d.data.attributes.foo = 1)),
        400,
        '/data/attributes/foo',
        'foo is not an attribute of comment--comment_forum that can be written.',
      ],
      [
        '/jsonapi/comment/comment_forum',
        withComment((d) => (d.data.attributes.thread = '01/')),
        400,
        '/data/attributes/thread',
        'thread is not an attribute of comment--comment_forum that can be written.',
      ],
      [
        '/jsonapi/comment/comment_forum',
        withComment((d) => (d.data.relationships.node = { data: null })),
        400,
        '/data/relationships/node',
        'node is not a relationship of comment--comment_forum that can be written.',
      ],
      [
        '/jsonapi/comment/comment_forum',
        withComment((d) => (d.data.attributes.status = false)),
        403,
        '/data/attributes/status',
        format(M.errors.moderatorField, { field: 'status' }),
      ],
      [
        '/jsonapi/comment/comment_forum',
        withComment((d) => (d.data.relationships.uid = someoneElse)),
        403,
        '/data/relationships/uid/data/id',
        M.errors.ownName,
      ],
    ];
    for (const [url, doc, status, pointer, title] of cases) {
      const res = await dev.send('POST', url, doc);
      const err = await json<JsonApiErrorBody>(res);
      expect([res.status, err.errors[0]?.source?.pointer], JSON.stringify(err)).toEqual([status, pointer]);
      if (title) expect(err.errors[0]?.title).toBe(title);
    }
    expect(await countRows('forum_topics')).toBe(topicsBefore);
    expect(await countRows('forum_comments')).toBe(commentsBefore);

    // Moderators' own writes refuse unknown fields too.
    const patches: [string, unknown, string][] = [
      [
        `/jsonapi/node/forum/${topic.id}`,
        { data: { type: FORUM_TOPIC_TYPE, id: topic.id, attributes: { sticky: true, promote: true } } },
        '/data/attributes/promote',
      ],
      [
        `/jsonapi/node/forum/${topic.id}`,
        {
          data: {
            type: FORUM_TOPIC_TYPE,
            id: topic.id,
            attributes: {},
            relationships: { uid: { data: null } },
          },
        },
        '/data/relationships/uid',
      ],
      [
        `/jsonapi/comment/comment_forum/${topic.id}`,
        { data: { type: FORUM_COMMENT_TYPE, id: topic.id, attributes: { status: true, foo: 1 } } },
        '/data/attributes/foo',
      ],
    ];
    const mine = await comment(dev, topic.id, '<p>Mine</p>');
    for (const [url, doc, pointer] of patches) {
      const res = await admin.send(
        'PATCH',
        url.replace(`comment_forum/${topic.id}`, `comment_forum/${mine.id}`),
        doc,
      );
      const err = await json<JsonApiErrorBody>(res);
      expect([res.status, err.errors[0]?.source?.pointer], JSON.stringify(err)).toEqual([400, pointer]);
    }
    const unchanged = await json<Single>(await admin.get(`/jsonapi/node/forum/${topic.id}`));
    expect(unchanged.data.attributes.sticky).toBe(false);

    // A moderator may post a topic pinned and locked, and a comment hidden; in their own name.
    const moderator = await signedInUser(t, 'forum.fields.moderator@example.com', { admin: true });
    const moderatorUuid = await userUuid(moderator);
    const pinned = await moderator.send(
      'POST',
      '/jsonapi/node/forum',
      withTopic((d) => {
        d.data.attributes.sticky = true;
        d.data.attributes.locked = true;
        d.data.relationships.uid = { data: { type: 'user--user', id: moderatorUuid } };
      }),
    );
    expect(pinned.status, await pinned.clone().text()).toBe(201);
    expect((await json<Single>(pinned)).data.attributes).toMatchObject({
      sticky: true,
      locked: true,
      status: true,
    });
    const hidden = await moderator.send(
      'POST',
      '/jsonapi/comment/comment_forum',
      withComment((d) => (d.data.attributes.status = false)),
    );
    expect(hidden.status, await hidden.clone().text()).toBe(201);
    expect((await comments(anon, topic.id)).data.map((c) => c.id)).toEqual([mine.id]);
  });

  it('lets only moderators hide, lock, pin and delete; a developer cannot moderate', async () => {
    const payments = await forumByName(dev, 'Payments API');
    const topic = await createTopic(other, payments.id, 'Moderation target');
    const c = await comment(other, topic.id, '<p>Rude words</p>');
    const patchTopic = { data: { type: FORUM_TOPIC_TYPE, id: topic.id, attributes: { status: false } } };
    const patchComment = { data: { type: FORUM_COMMENT_TYPE, id: c.id, attributes: { status: false } } };
    for (const client of [dev, other]) {
      expect((await client.send('PATCH', `/jsonapi/node/forum/${topic.id}`, patchTopic)).status).toBe(403);
      expect((await client.send('DELETE', `/jsonapi/node/forum/${topic.id}`)).status).toBe(403);
      expect(
        (await client.send('PATCH', `/jsonapi/comment/comment_forum/${c.id}`, patchComment)).status,
      ).toBe(403);
      expect((await client.send('DELETE', `/jsonapi/comment/comment_forum/${c.id}`)).status).toBe(403);
    }
    expect((await anon.send('PATCH', `/jsonapi/node/forum/${topic.id}`, patchTopic)).status).toBe(401);
    // Still there, untouched.
    expect((await comments(anon, topic.id)).meta.count).toBe(1);
  });

  it('a hidden comment is gone for everyone else and counted nowhere; moderators still see it', async () => {
    const accounts = await forumByName(dev, 'Accounts API');
    const statsBefore = accounts.attributes.statistics!;
    const topic = await createTopic(dev, accounts.id, 'Hidden comment topic');
    const keep = await comment(dev, topic.id, '<p>Keep me</p>');
    const hide = await comment(other, topic.id, '<p>Hide me</p>');
    const res = await admin.send('PATCH', `/jsonapi/comment/comment_forum/${hide.id}`, {
      data: { type: FORUM_COMMENT_TYPE, id: hide.id, attributes: { status: false } },
    });
    expect(res.status).toBe(200);
    for (const client of [anon, dev, other]) {
      const list = await comments(client, topic.id);
      expect(list.data.map((x) => x.id)).toEqual([keep.id]);
      expect(list.meta.count).toBe(1);
    }
    const modView = await comments(admin, topic.id);
    expect(modView.data.map((x) => x.attributes.status)).toEqual([true, false]);
    const after = await forumByName(anon, 'Accounts API');
    expect(after.attributes.statistics).toEqual({
      topic_count: statsBefore.topic_count + 1,
      comment_count: statsBefore.comment_count + 1,
    });
    expect(after.attributes.last_post).toMatchObject({ name: 'forum dev' });
    const summary = (
      await json<ForumTopicSummary[]>(await anon.get(`/phpsdk/forum-topics/${accounts.id}`))
    ).find((x) => x.uuid === topic.id)!;
    expect(summary.comment_forum.comment_count).toBe(1);
    expect(summary.comment_forum.last_comment_name).toBe('forum dev');
    // Replying to a hidden comment is replying to nothing.
    const reply = await dev.send(
      'POST',
      '/jsonapi/comment/comment_forum',
      commentDoc(topic.id, '<p>re</p>', hide.id),
    );
    expect(reply.status).toBe(404);
    // Deleted for good.
    expect((await admin.send('DELETE', `/jsonapi/comment/comment_forum/${hide.id}`)).status).toBe(204);
    expect((await comments(admin, topic.id)).meta.count).toBe(1);
  });

  it('a hidden topic leaves lists, statistics and the search index; unhiding brings it back', async () => {
    const accounts = await forumByName(dev, 'Accounts API');
    const topic = await createTopic(other, accounts.id, 'Quokka balances question');
    await comment(dev, topic.id, '<p>Answer</p>');
    const before = (await forumByName(anon, 'Accounts API')).attributes.statistics!;
    const hide = await admin.send('PATCH', `/jsonapi/node/forum/${topic.id}`, {
      data: { type: FORUM_TOPIC_TYPE, id: topic.id, attributes: { status: false } },
    });
    expect(hide.status).toBe(200);
    expect((await anon.get(`/jsonapi/node/forum/${topic.id}`)).status).toBe(404);
    expect((await other.get(`/jsonapi/node/forum/${topic.id}`)).status).toBe(404);
    expect((await admin.get(`/jsonapi/node/forum/${topic.id}`)).status).toBe(200);
    expect((await comments(dev, topic.id)).meta.count).toBe(0);
    const list = await json<Collection>(
      await anon.get('/jsonapi/node/forum?filter[title][value]=Quokka&filter[title][operator]=CONTAINS'),
    );
    expect(list.meta.count).toBe(0);
    expect(
      ((await json<ForumTopicSummary[]>(await anon.get(`/phpsdk/forum-topics/${accounts.id}`))) ?? []).map(
        (x) => x.uuid,
      ),
    ).not.toContain(topic.id);
    expect((await forumByName(anon, 'Accounts API')).attributes.statistics).toEqual({
      topic_count: before.topic_count - 1,
      comment_count: before.comment_count - 1,
    });
    expect((await searchDocuments(t.app.db, { q: 'quokka', limit: 10, offset: 0 })).count).toBe(0);
    // A comment on a hidden topic is refused as if it did not exist.
    expect(
      (await dev.send('POST', '/jsonapi/comment/comment_forum', commentDoc(topic.id, '<p>x</p>'))).status,
    ).toBe(404);

    await admin.send('PATCH', `/jsonapi/node/forum/${topic.id}`, {
      data: { type: FORUM_TOPIC_TYPE, id: topic.id, attributes: { status: true } },
    });
    expect((await searchDocuments(t.app.db, { q: 'quokka', limit: 10, offset: 0 })).count).toBe(1);
    expect((await admin.send('DELETE', `/jsonapi/node/forum/${topic.id}`)).status).toBe(204);
    expect((await searchDocuments(t.app.db, { q: 'quokka', limit: 10, offset: 0 })).count).toBe(0);
    expect((await anon.get(`/jsonapi/node/forum/${topic.id}`)).status).toBe(404);
  });

  it('a locked topic refuses comments; a pinned topic comes first', async () => {
    const security = await forumByName(dev, 'Security and OAuth');
    const topic = await createTopic(admin, security.id, 'Locked topic');
    const lock = await admin.send('PATCH', `/jsonapi/node/forum/${topic.id}`, {
      data: { type: FORUM_TOPIC_TYPE, id: topic.id, attributes: { locked: true, sticky: true } },
    });
    expect(lock.status).toBe(200);
    const before = await countRows('forum_comments');
    const res = await other.send(
      'POST',
      '/jsonapi/comment/comment_forum',
      commentDoc(topic.id, '<p>Late</p>'),
    );
    expect(res.status).toBe(403);
    expect((await json<JsonApiErrorBody>(res)).errors[0]?.title).toBe(M.errors.locked);
    expect(await countRows('forum_comments')).toBe(before);
    const topics = await json<ForumTopicSummary[]>(await anon.get(`/phpsdk/forum-topics/${security.id}`));
    expect(topics[0]).toMatchObject({ uuid: topic.id, sticky: true, locked: true });
  });

  it('e-mails subscribers of a forum and of a topic, never the author, with a working unsubscribe link', async () => {
    const accounts = await forumByName(dev, 'Accounts API');
    const subscribe = (
      client: TestClient,
      user: string,
      entity: 'node' | 'taxonomy_term',
      node: string,
      type = 'subscribe',
    ) =>
      client.send(
        'POST',
        '/api/subscribe-list',
        { entity_type: entity, type, node, user },
        'application/json',
      );
    expect((await subscribe(dev, devUuid, 'taxonomy_term', accounts.id)).status).toBe(200);
    // Someone else's subscription cannot be changed.
    expect((await subscribe(other, devUuid, 'taxonomy_term', accounts.id)).status).toBe(403);
    expect((await forumByName(dev, 'Accounts API')).attributes.subscribed).toBe(true);
    expect((await forumByName(other, 'Accounts API')).attributes.subscribed).toBe(false);

    const topic = await createTopic(other, accounts.id, 'Consent expiry after 180 days');
    const mail = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'forum.dev@example.com')
      .where('subject', '=', 'New topic in Accounts API: Consent expiry after 180 days')
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`/forum-topic/${topic.id}`);
    expect(
      await t.app.db
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', 'forum.other@example.com')
        .execute(),
    ).toEqual([]);

    expect((await subscribe(dev, devUuid, 'node', topic.id)).status).toBe(200);
    expect(
      await json<{ subscribed: boolean }>(await dev.get(`/api/subscribe-list?node=${topic.id}`)),
    ).toMatchObject({
      subscribed: true,
    });
    await comment(other, topic.id, '<p>It is 180 days since the SCA.</p>');
    const commentMail = await t.app.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'forum.dev@example.com')
      .where('subject', '=', 'New comment on Consent expiry after 180 days')
      .executeTakeFirstOrThrow();
    expect(commentMail.text_body).toContain('It is 180 days since the SCA.');
    const link = /https?:\/\/\S+\/api\/subscribe-list\/unsubscribe\?token=\S+/.exec(
      commentMail.text_body,
    )?.[0];
    expect(link).toBeDefined();
    const page = await anon.get(new URL(link!).pathname + new URL(link!).search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('You are no longer subscribed to Consent expiry after 180 days.');
    expect(
      await json<{ subscribed: boolean }>(await dev.get(`/api/subscribe-list?node=${topic.id}`)),
    ).toMatchObject({
      subscribed: false,
    });
    const forged = await anon.get(
      `${new URL(link!).pathname}?token=${encodeURIComponent(new URL(link!).searchParams.get('token')!.slice(0, -2) + 'AA')}`,
    );
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain(M.errors.unsubscribeInvalid);
    // The forum subscription is untouched by the topic's unsubscribe.
    expect((await forumByName(dev, 'Accounts API')).attributes.subscribed).toBe(true);
  });

  it('rate-limits topics per user: the next one is a 429 and nothing is stored', async () => {
    const poster = await signedInUser(t, 'forum.poster@example.com');
    const started = await forumByName(poster, 'Getting started');
    for (let i = 0; i < FORUM_TOPICS_PER_USER; i++) await createTopic(poster, started.id, `Burst ${i}`);
    const before = await countRows('forum_topics');
    const res = await poster.send(
      'POST',
      '/jsonapi/node/forum',
      topicDoc(started.id, 'One too many', '<p>x</p>'),
    );
    expect(res.status).toBe(429);
    expect(await countRows('forum_topics')).toBe(before);
  });

  it('rate-limits comments per client address as well', async () => {
    const started = await forumByName(dev, 'Getting started');
    const topics = await json<ForumTopicSummary[]>(await anon.get(`/phpsdk/forum-topics/${started.id}`));
    // As if this address had already posted its allowance in this window.
    await t.app.db
      .insertInto('rate_limits')
      .values({
        key: 'forum-comment:ip:127.0.0.1',
        window_start: new Date(),
        count: FORUM_COMMENTS_PER_ADDRESS,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ count: FORUM_COMMENTS_PER_ADDRESS, window_start: new Date() }),
      )
      .execute();
    const before = await countRows('forum_comments');
    const fresh = await signedInUser(t, 'forum.fresh@example.com');
    const res = await fresh.send(
      'POST',
      '/jsonapi/comment/comment_forum',
      commentDoc(topics[0]!.uuid, '<p>Hello</p>'),
    );
    expect(res.status).toBe(429);
    expect(await countRows('forum_comments')).toBe(before);
  });
});
