import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../../lib/html.ts';
import type { z } from 'zod';
import {
  FORUM_COMMENTS_PAGE_SIZE,
  FORUM_COMMENTS_PER_ADDRESS,
  FORUM_COMMENTS_PER_USER,
  FORUM_COMMENT_TYPE,
  FORUM_RATE_WINDOW_MS,
  FORUM_TERM_TYPE,
  FORUM_TOPICS_PAGE_SIZE,
  FORUM_TOPICS_PER_ADDRESS,
  FORUM_TOPICS_PER_USER,
  FORUM_TOPIC_MODERATION,
  FORUM_TOPIC_TYPE,
  USER_TYPE,
  createCommentDocument,
  createTopicDocument,
  moderateCommentDocument,
  moderateTopicDocument,
  subscribeListBody,
} from '@portico/contracts/forum';
import { en } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import {
  collectionDocument,
  requestUrl,
  resourceDocument,
  sendDocument,
  type ResourceObject,
} from '../../jsonapi/document.ts';
import { refuseUnknownFields } from '../../jsonapi/errors.ts';
import { fetchCollection, type ResourceDescriptionFor } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery } from '../../jsonapi/query.ts';
import { checkFields, checkIncludes, checkQuery, values } from '../../jsonapi/resource.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { texts } from '../../lib/i18n.ts';
import { requestLocale } from '../../lib/locale.ts';
import { localizedPath } from '@portico/contracts/locale-path';
import { requireUser } from '../../plugins/session.ts';
import { notifyNewComment, notifyNewTopic, unsubscribeKey } from './notify.ts';
import {
  LIMITS,
  allForums,
  authorJson,
  cleanBody,
  cleanTitle,
  commentCountSql,
  commentsBase,
  deleteComment,
  deleteTopic,
  findComment,
  findForum,
  findTarget,
  findTopic,
  forumStatistics,
  forumTopics,
  insertComment,
  insertTopic,
  isModerator,
  isSubscribed,
  lastCommentSql,
  loadAuthors,
  moderateComment,
  moderateTopic,
  readUnsubscribeToken,
  setSubscribed,
  subjectFrom,
  subscribedForumIds,
  topicSummaries,
  topicsBase,
  type CommentRow,
  type TopicRow,
  type Viewer,
} from './service.ts';

const M = en.forum;
const iso = (d: Date | string) => new Date(d).toISOString();

function viewerOf(request: FastifyRequest): Viewer | null {
  return request.user ? { id: request.user.id, isModerator: request.user.isAdmin } : null;
}

function requireModerator(request: FastifyRequest): Viewer {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden(M.errors.notModerator);
  return { id: user.id, isModerator: true };
}

/** A moderator's attribute sent by someone else: 403 naming it. */
function moderatorOnly(
  request: FastifyRequest,
  attributes: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): void {
  if (request.user?.isAdmin) return;
  const field = fields.find((f) => attributes[f] !== undefined);
  if (field)
    throw new HttpError(403, format(M.errors.moderatorField, { field }), {
      pointer: `/data/attributes/${field}`,
    });
}

/** `uid` on a post names its author: the caller, never someone else. */
function ownName(uid: { data: { id: string } } | undefined, userUuid: string): void {
  if (uid && uid.data.id !== userUuid)
    throw new HttpError(403, M.errors.ownName, { pointer: '/data/relationships/uid/data/id' });
}

/** The first zod issue as a 400 naming the member at fault (a JSON pointer into the document). */
function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const pointer = `/${(issue?.path ?? []).map(String).join('/')}`;
  throw new HttpError(400, `${pointer}: ${issue?.message ?? 'Invalid request body.'}`, {
    pointer,
    issues: parsed.error.issues.slice(0, 1),
  });
}

async function limit(
  app: FastifyInstance,
  request: FastifyRequest,
  what: 'topic' | 'comment',
  userId: number,
) {
  const perUser = what === 'topic' ? FORUM_TOPICS_PER_USER : FORUM_COMMENTS_PER_USER;
  const perAddress = what === 'topic' ? FORUM_TOPICS_PER_ADDRESS : FORUM_COMMENTS_PER_ADDRESS;
  for (const [key, max] of [
    [`forum-${what}:user:${userId}`, perUser],
    [`forum-${what}:ip:${request.ip}`, perAddress],
  ] as const) {
    const hit = await hitRateLimit(app.db, key, max, FORUM_RATE_WINDOW_MS);
    if (!hit.allowed) {
      throw new HttpError(429, format(M.errors.rateLimited, { seconds: hit.retryAfterSeconds }));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Resource objects

type Author = Parameters<typeof authorJson>[0];

function userObject(u: NonNullable<Author>): ResourceObject {
  const a = authorJson(u)!;
  return {
    type: USER_TYPE,
    id: a.uuid,
    attributes: {
      drupal_internal__uid: a.uid,
      name: a.name,
      display_name: a.name,
      created: a.created,
      changed: a.changed,
    },
    relationships: { user_picture: { data: null } },
  };
}

const wantsAuthors = (include: readonly string[]) =>
  include.some((p) => p === 'uid' || p === 'uid.user_picture');

/** The authors of a page of topics or comments: each row's name, the users `include=uid` asks for. */
async function pageAuthors(app: FastifyInstance, rows: { author_id: number | null }[], include: string[]) {
  const authors = await loadAuthors(
    app.db,
    rows.map((r) => r.author_id),
  );
  return {
    nameOf: (r: { author_id: number | null }) =>
      r.author_id === null ? null : (authors.get(r.author_id)?.name ?? null),
    included: wantsAuthors(include) ? [...authors.values()].map(userObject) : undefined,
  };
}

/** One topic or comment as a JSON:API document (200, or 201 for a new post). */
function sendResource(request: FastifyRequest, reply: FastifyReply, data: ResourceObject, status = 200) {
  return sendDocument(reply, resourceDocument({ url: requestUrl(request), data }), status);
}

/** A moderation document must name the resource of its URL. */
function checkDocumentId(documentId: string, uuid: string): void {
  if (documentId !== uuid)
    throw new HttpError(400, 'The id in the document does not match the URL.', { pointer: '/data/id' });
}

/** Notifications go out after the post is committed: a failing mail server never undoes it. */
function notifyLater(request: FastifyRequest, sending: Promise<void>, what: string): Promise<void> {
  return sending.catch((err: unknown) => request.log.warn({ err }, `forum ${what} e-mails failed`));
}

function topicObject(t: TopicRow, authorName: string | null): ResourceObject {
  return {
    type: FORUM_TOPIC_TYPE,
    id: t.uuid,
    attributes: {
      drupal_internal__nid: t.id,
      title: t.title,
      body: { value: t.body_html, processed: t.body_html, format: 'basic_html' },
      created: iso(t.created),
      changed: iso(t.changed),
      sticky: t.sticky,
      promote: false,
      status: !t.hidden,
      locked: t.locked,
      comment_forum: {
        // Drupal's comment status: 2 open, 1 closed.
        status: t.locked ? 1 : 2,
        comment_count: Number(t.comment_count),
        last_comment_timestamp: t.last_comment_date ? iso(t.last_comment_date) : null,
      },
      author_name: authorName,
    },
    relationships: {
      uid: { data: t.author_uuid ? { type: USER_TYPE, id: t.author_uuid } : null },
      taxonomy_forums: { data: { type: FORUM_TERM_TYPE, id: t.forum_uuid } },
    },
  };
}

function commentObject(c: CommentRow, authorName: string | null): ResourceObject {
  return {
    type: FORUM_COMMENT_TYPE,
    id: c.uuid,
    attributes: {
      drupal_internal__cid: c.id,
      subject: c.subject,
      comment_body: { value: c.body_html, processed: c.body_html, format: 'basic_html' },
      created: iso(c.created),
      changed: iso(c.changed),
      status: !c.hidden,
      entity_type: 'node',
      field_name: 'comment_forum',
      author_name: authorName,
    },
    relationships: {
      entity_id: { data: { type: FORUM_TOPIC_TYPE, id: c.topic_uuid } },
      pid: { data: c.parent_uuid ? { type: FORUM_COMMENT_TYPE, id: c.parent_uuid } : null },
      uid: { data: c.author_uuid ? { type: USER_TYPE, id: c.author_uuid } : null },
    },
  };
}

const SPARSE = {
  [FORUM_TOPIC_TYPE]: [
    'drupal_internal__nid',
    'title',
    'body',
    'created',
    'changed',
    'sticky',
    'promote',
    'status',
    'locked',
    'comment_forum',
    'author_name',
    'uid',
    'taxonomy_forums',
  ],
  [FORUM_COMMENT_TYPE]: [
    'drupal_internal__cid',
    'subject',
    'comment_body',
    'created',
    'changed',
    'status',
    'entity_type',
    'field_name',
    'author_name',
    'entity_id',
    'pid',
    'uid',
  ],
  [USER_TYPE]: ['drupal_internal__uid', 'name', 'display_name', 'created', 'changed', 'user_picture'],
};

// ---------------------------------------------------------------------------------------------
// Resource descriptions (filter and sort paths of the JSON:API collections)

const topicResource = (): ResourceDescriptionFor<ReturnType<typeof topicsBase>> => ({
  type: FORUM_TOPIC_TYPE,
  tiebreaker: 't.id',
  defaultSort: [
    { path: 'sticky', direction: 'DESC' },
    { path: 'created', direction: 'DESC' },
  ],
  fields: {
    title: { sql: 't.title', value: values.text },
    created: { sql: 't.created', value: values.timestamp },
    changed: { sql: 't.changed', value: values.timestamp },
    sticky: { sql: 't.sticky', value: values.boolean },
    'taxonomy_forums.id': { sql: 'f.uuid', value: values.uuid },
    'taxonomy_forums.drupal_internal__tid': { sql: 'f.id', value: values.integer },
    'uid.id': { sql: 'u.uuid', value: values.uuid },
    'comment_forum.comment_count': { sql: { expression: () => commentCountSql }, value: values.integer },
    'comment_forum.last_comment_timestamp': {
      sql: { expression: () => lastCommentSql },
      value: values.timestamp,
    },
  },
  includes: ['uid.user_picture', 'taxonomy_forums'],
  sparseFields: SPARSE,
});

const commentResource = (): ResourceDescriptionFor<ReturnType<typeof commentsBase>> => ({
  type: FORUM_COMMENT_TYPE,
  tiebreaker: 'c.id',
  defaultSort: [{ path: 'created', direction: 'ASC' }],
  fields: {
    subject: { sql: 'c.subject', value: values.text },
    'comment_body.value': { sql: 'c.body_html', value: values.text, sort: false },
    created: { sql: 'c.created', value: values.timestamp },
    changed: { sql: 'c.changed', value: values.timestamp },
    pid: { sql: 'c.parent_id', value: values.integer },
    'pid.id': { sql: 'p.uuid', value: values.uuid },
    'entity_id.id': { sql: 't.uuid', value: values.uuid },
    'uid.id': { sql: 'u.uuid', value: values.uuid },
  },
  includes: ['uid.user_picture', 'entity_id', 'pid'],
  sparseFields: SPARSE,
});

// ---------------------------------------------------------------------------------------------

export async function forumRoutes(app: FastifyInstance): Promise<void> {
  // Forums with their statistics (spec B 3 'Forum', 7).
  app.get('/jsonapi/taxonomy_term/forums', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, {
      defaultLimit: 50,
      maxLimit: 50,
      unknownParameters: 'ignore',
    });
    checkQuery({ type: FORUM_TERM_TYPE, tiebreaker: 'id', fields: {} }, { ...query, sort: [] });
    const viewer = viewerOf(request);
    const forums = await allForums(app.db);
    const [stats, subscribed] = await Promise.all([
      forumStatistics(app.db, forums),
      subscribedForumIds(app.db, viewer),
    ]);
    const byId = new Map(forums.map((f) => [f.id, f]));
    const page = forums.slice(query.page.offset, query.page.offset + query.page.limit);
    const data: ResourceObject[] = page.map((f) => {
      const parent = f.parent_id === null ? undefined : byId.get(f.parent_id);
      const children = forums.filter((c) => c.parent_id === f.id);
      return {
        type: FORUM_TERM_TYPE,
        id: f.uuid,
        attributes: {
          drupal_internal__tid: f.id,
          name: f.name,
          description: { value: f.description, processed: f.description, format: 'plain_text' },
          weight: f.weight,
          forum_container: f.container,
          changed: iso(f.changed),
          subscribed: subscribed.has(f.id),
          statistics: stats.get(f.id)
            ? { topic_count: stats.get(f.id)!.topic_count, comment_count: stats.get(f.id)!.comment_count }
            : { topic_count: 0, comment_count: 0 },
          last_post: stats.get(f.id)?.last_post ?? null,
        },
        relationships: {
          // Drupal's virtual root parent for top-level terms.
          parent: { data: [{ type: FORUM_TERM_TYPE, id: parent ? parent.uuid : 'virtual' }] },
          children: { data: children.map((c) => ({ type: FORUM_TERM_TYPE, id: c.uuid })) },
        },
      };
    });
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data,
        count: forums.length,
        page: query.page,
        fields: query.fields,
      }),
    );
  });

  // Topics of a forum (spec B 7): 200 with the topics, 204 when there are none. Paged by
  // `page` (0-based, 20 a page): the forum's statistics.topic_count tells how many pages there are.
  app.get<{ Params: { forumId: string }; Querystring: { page?: unknown } }>(
    '/phpsdk/forum-topics/:forumId',
    async (request, reply) => {
      const rawPage = request.query.page ?? '0';
      if (typeof rawPage !== 'string' || !/^\d{1,6}$/.test(rawPage))
        throw badRequest('page must be a whole number from 0.', 'page');
      const forum = await findForum(app.db, request.params.forumId);
      if (!forum) throw notFound(M.errors.forumNotFound);
      const rows = await forumTopics(app.db, viewerOf(request), forum, {
        limit: FORUM_TOPICS_PAGE_SIZE,
        offset: FORUM_TOPICS_PAGE_SIZE * Number(rawPage),
      });
      if (rows.length === 0) return reply.status(204).send();
      return reply.header('Cache-Control', 'no-cache').send(await topicSummaries(app.db, rows));
    },
  );

  // Topic search and lists (spec B 7: title contains, optional forum; 20 per page).
  app.get('/jsonapi/node/forum', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, { defaultLimit: FORUM_TOPICS_PAGE_SIZE, maxLimit: 50 });
    const viewer = viewerOf(request);
    const { rows, count } = await fetchCollection(app.db, topicsBase(app.db, viewer), topicResource(), query);
    const { nameOf, included } = await pageAuthors(app, rows, query.include);
    const data = rows.map((r) => topicObject(r, nameOf(r)));
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data,
        count,
        page: query.page,
        included,
        fields: query.fields,
      }),
    );
  });

  app.get<{ Params: { id: string } }>('/jsonapi/node/forum/:id', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, { defaultLimit: 1, maxLimit: 1 });
    checkIncludes(topicResource(), query.include);
    checkFields(topicResource(), query.fields);
    const viewer = viewerOf(request);
    const topic = await findTopic(app.db, viewer, request.params.id);
    const authors = await loadAuthors(app.db, [topic.author_id]);
    const author = topic.author_id === null ? undefined : authors.get(topic.author_id);
    const subscribed = viewer
      ? await isSubscribed(app.db, viewer.id, {
          kind: 'topic',
          id: topic.id,
          uuid: topic.uuid,
          name: topic.title,
        })
      : false;
    return sendDocument(
      reply.header('Cache-Control', 'no-cache'),
      resourceDocument({
        url: requestUrl(request),
        data: topicObject(topic, author?.name ?? null),
        included: author && wantsAuthors(query.include) ? [userObject(author)] : undefined,
        fields: query.fields,
        meta: {
          subscribed,
          forum: { uuid: topic.forum_uuid, name: topic.forum_name },
          moderator: isModerator(viewer),
        },
      }),
    );
  });

  app.post('/jsonapi/node/forum', async (request, reply) => {
    const user = requireUser(request);
    refuseUnknownFields(request.body, FORUM_TOPIC_TYPE, {
      attributes: ['title', 'body', ...FORUM_TOPIC_MODERATION],
      relationships: ['taxonomy_forums', 'uid'],
    });
    const doc = parseBody(createTopicDocument, request.body);
    const { attributes, relationships } = doc.data;
    moderatorOnly(request, attributes, FORUM_TOPIC_MODERATION);
    ownName(relationships.uid, user.uuid);
    const forum = await findForum(app.db, relationships.taxonomy_forums.data.id);
    if (!forum)
      throw new HttpError(404, M.errors.forumNotFound, {
        pointer: '/data/relationships/taxonomy_forums/data/id',
      });
    if (forum.container)
      throw new HttpError(400, M.errors.container, {
        pointer: '/data/relationships/taxonomy_forums/data/id',
      });
    const title = cleanTitle(
      attributes.title,
      LIMITS.title,
      'title',
      '/data/attributes/title',
      M.errors.titleRequired,
    );
    const rawBody = typeof attributes.body === 'string' ? attributes.body : attributes.body.value;
    const body = cleanBody(
      rawBody,
      LIMITS.topicBody,
      'body',
      '/data/attributes/body/value',
      M.errors.bodyRequired,
    );
    await limit(app, request, 'topic', user.id);
    const created = await insertTopic(app.db, {
      forum,
      title,
      bodyHtml: body,
      authorId: user.id,
      hidden: attributes.status === undefined ? undefined : !attributes.status,
      sticky: attributes.sticky,
      locked: attributes.locked,
    });
    const viewer = viewerOf(request);
    const topic = await findTopic(app.db, viewer, created.uuid);
    if (attributes.status !== false)
      await notifyLater(request, notifyNewTopic(app, forum, topic, user), 'topic');
    return sendResource(request, reply, topicObject(topic, user.name), 201);
  });

  app.patch<{ Params: { id: string } }>('/jsonapi/node/forum/:id', async (request, reply) => {
    const viewer = requireModerator(request);
    const topic = await findTopic(app.db, viewer, request.params.id);
    refuseUnknownFields(request.body, FORUM_TOPIC_TYPE, { attributes: FORUM_TOPIC_MODERATION });
    const doc = parseBody(moderateTopicDocument, request.body);
    checkDocumentId(doc.data.id, topic.uuid);
    await moderateTopic(app.db, topic, doc.data.attributes);
    return sendResource(request, reply, topicObject(await findTopic(app.db, viewer, topic.uuid), null));
  });

  app.delete<{ Params: { id: string } }>('/jsonapi/node/forum/:id', async (request, reply) => {
    const viewer = requireModerator(request);
    const topic = await findTopic(app.db, viewer, request.params.id);
    await deleteTopic(app.db, topic);
    return reply.status(204).send();
  });

  // Comments (spec B 7): by topic, paged 10, sorted by created; search on subject or body.
  app.get('/jsonapi/comment/comment_forum', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, { defaultLimit: FORUM_COMMENTS_PAGE_SIZE, maxLimit: 50 });
    const viewer = viewerOf(request);
    const { rows, count } = await fetchCollection(
      app.db,
      commentsBase(app.db, viewer),
      commentResource(),
      query,
    );
    const { nameOf, included } = await pageAuthors(app, rows, query.include);
    const data = rows.map((r) => commentObject(r, nameOf(r)));
    return sendDocument(
      reply.header('Cache-Control', 'no-cache'),
      collectionDocument({
        url: requestUrl(request),
        data,
        count,
        page: query.page,
        included,
        fields: query.fields,
      }),
    );
  });

  app.post('/jsonapi/comment/comment_forum', async (request, reply) => {
    const user = requireUser(request);
    const viewer = viewerOf(request);
    refuseUnknownFields(request.body, FORUM_COMMENT_TYPE, {
      attributes: ['subject', 'entity_type', 'field_name', 'comment_body', 'status'],
      relationships: ['entity_id', 'pid', 'uid'],
    });
    const doc = parseBody(createCommentDocument, request.body);
    const { attributes, relationships } = doc.data;
    moderatorOnly(request, attributes, ['status']);
    ownName(relationships.uid, user.uuid);
    let topic: TopicRow;
    try {
      topic = await findTopic(app.db, viewer, relationships.entity_id.data.id);
    } catch {
      throw new HttpError(404, M.errors.topicNotFound, { pointer: '/data/relationships/entity_id/data/id' });
    }
    if (topic.locked) throw new HttpError(403, M.errors.locked, { code: 'locked' });
    let parentId: number | null = null;
    const pid = relationships.pid?.data?.id;
    if (pid) {
      const parent = await commentsBase(app.db, viewer)
        .where('c.uuid', '=', pid)
        .where('c.topic_id', '=', topic.id)
        .executeTakeFirst();
      if (!parent)
        throw new HttpError(404, M.errors.parentNotFound, { pointer: '/data/relationships/pid/data/id' });
      parentId = parent.id;
    }
    const body = cleanBody(
      attributes.comment_body.value,
      LIMITS.commentBody,
      'comment_body',
      '/data/attributes/comment_body/value',
      M.errors.commentRequired,
    );
    const subject =
      cleanTitle(attributes.subject ?? '', LIMITS.subject, 'subject', '/data/attributes/subject', '') ||
      subjectFrom(body);
    await limit(app, request, 'comment', user.id);
    const created = await insertComment(app.db, {
      topicId: topic.id,
      parentId,
      subject,
      bodyHtml: body,
      authorId: user.id,
      hidden: attributes.status === undefined ? undefined : !attributes.status,
    });
    const comment = await findComment(app.db, viewer, created.uuid);
    if (attributes.status !== false)
      await notifyLater(request, notifyNewComment(app, topic, comment, user), 'comment');
    return sendResource(request, reply, commentObject(comment, user.name), 201);
  });

  app.patch<{ Params: { id: string } }>('/jsonapi/comment/comment_forum/:id', async (request, reply) => {
    const viewer = requireModerator(request);
    const comment = await findComment(app.db, viewer, request.params.id);
    refuseUnknownFields(request.body, FORUM_COMMENT_TYPE, { attributes: ['status'] });
    const doc = parseBody(moderateCommentDocument, request.body);
    checkDocumentId(doc.data.id, comment.uuid);
    await moderateComment(app.db, comment, doc.data.attributes.status);
    return sendResource(request, reply, commentObject(await findComment(app.db, viewer, comment.uuid), null));
  });

  app.delete<{ Params: { id: string } }>('/jsonapi/comment/comment_forum/:id', async (request, reply) => {
    const viewer = requireModerator(request);
    const comment = await findComment(app.db, viewer, request.params.id);
    await deleteComment(app.db, comment);
    return reply.status(204).send();
  });

  // Subscriptions (spec B 3 'Subscription', 7).
  app.get<{ Querystring: { node?: unknown } }>('/api/subscribe-list', async (request) => {
    const user = requireUser(request);
    const node = typeof request.query.node === 'string' ? request.query.node : '';
    if (!node) throw badRequest('Send the forum or topic uuid as node.', 'node');
    const target = await findTarget(app.db, viewerOf(request), node);
    if (!target) throw new HttpError(404, M.errors.topicNotFound, { parameter: 'node' });
    return {
      node: target.uuid,
      entity_type: target.kind === 'forum' ? 'taxonomy_term' : 'node',
      subscribed: await isSubscribed(app.db, user.id, target),
    };
  });

  app.post('/api/subscribe-list', async (request) => {
    const user = requireUser(request);
    const body = parseBody(subscribeListBody, request.body);
    if (body.user !== user.uuid) throw new HttpError(403, M.errors.otherUser, { pointer: '/user' });
    const target = await findTarget(
      app.db,
      viewerOf(request),
      body.node,
      body.entity_type === 'taxonomy_term' ? 'forum' : 'topic',
    );
    if (!target)
      throw new HttpError(
        404,
        body.entity_type === 'taxonomy_term' ? M.errors.forumNotFound : M.errors.topicNotFound,
        { pointer: '/node' },
      );
    await setSubscribed(app.db, user.id, target, body.type === 'subscribe');
    return { node: target.uuid, entity_type: body.entity_type, subscribed: body.type === 'subscribe' };
  });

  // The unsubscribe link of the notification e-mails: a signed token, no session needed.
  app.get<{ Querystring: { token?: unknown } }>('/api/subscribe-list/unsubscribe', async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const parsed = readUnsubscribeToken(unsubscribeKey(app), token);
    const target = parsed
      ? await findTarget(app.db, { id: parsed.userId, isModerator: true }, parsed.uuid, parsed.kind)
      : undefined;
    // The page is in the reader's language (decision 058): the account's, else the browser's.
    const locale = requestLocale(request, request.user?.preferredLangcode);
    const T = texts(locale, 'pages', 'forum');
    const page = (status: number, title: string, text: string) =>
      reply
        .status(status)
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('Vary', 'Accept-Language, Cookie')
        .send(
          `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
            `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` +
            `<p><a href="${escapeHtml(localizedPath(locale, '/forum'))}">${escapeHtml(T('mail.backToPortal'))}</a></p></main></body></html>`,
        );
    if (!parsed || !target) return page(400, T('mail.unsubscribedTitle'), T('errors.unsubscribeInvalid'));
    await setSubscribed(app.db, parsed.userId, target, false);
    return page(200, T('mail.unsubscribedTitle'), T('mail.unsubscribed', { name: target.name }));
  });
}
