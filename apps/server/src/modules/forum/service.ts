import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import {
  FORUM_COMMENT_BODY_MAX,
  FORUM_SUBJECT_MAX,
  FORUM_TITLE_MAX,
  FORUM_TOPIC_BODY_MAX,
  type ForumAuthor,
  type ForumTopicSummary,
} from '@portico/contracts/forum';
import { en } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import type { Db } from '../../db/client.ts';
import { cleanUserHtml } from '../../lib/content-html.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { plainText } from '../../lib/plain-text.ts';
import { searchIndex } from '../search/service.ts';
import { forumDb, type ForumDb } from './tables.ts';

/**
 * The forum's data and rules (spec B 2.13, 3, 7): forums with their statistics, topics, comments,
 * moderation, subscriptions, and the search index rows of the topics. Routes (routes.ts) check
 * who is asking; everything that writes runs in one transaction here, the search row included.
 */

const M = en.forum;

/** Who is asking: null for anonymous visitors. Moderators are the provider's administrators. */
export interface Viewer {
  id: number;
  isModerator: boolean;
}

export const isModerator = (viewer: Viewer | null): boolean => viewer?.isModerator === true;

// ---------------------------------------------------------------------------------------------
// Input

/**
 * A post's HTML as stored. Posts are rich text users write: the forum editor's formatting
 * (headings 2 to 4, lists, quotes, code, links), never images, styles, handlers or script URLs.
 */
export const forumHtml = (raw: string): string => cleanUserHtml(raw, { headings: true });

/** The sanitized HTML of a rich-text body; a 413 over `max`, a 400 when nothing readable is left. */
export function cleanBody(
  raw: string,
  max: number,
  field: string,
  pointer: string,
  required: string,
): string {
  if (raw.length > max) throw new HttpError(413, format(M.errors.tooLong, { field, max }), { pointer });
  const html = forumHtml(raw);
  if (plainText(html) === '') throw new HttpError(400, required, { pointer });
  return html;
}

export function cleanTitle(
  raw: string,
  max: number,
  field: string,
  pointer: string,
  required: string,
): string {
  const title = raw.replace(/\s+/g, ' ').trim();
  if (title.length > max) throw new HttpError(413, format(M.errors.tooLong, { field, max }), { pointer });
  if (required && title === '') throw new HttpError(400, required, { pointer });
  return title;
}

export const LIMITS = {
  title: FORUM_TITLE_MAX,
  subject: FORUM_SUBJECT_MAX,
  topicBody: FORUM_TOPIC_BODY_MAX,
  commentBody: FORUM_COMMENT_BODY_MAX,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);

// ---------------------------------------------------------------------------------------------
// Authors

interface AuthorRow {
  id: number;
  uuid: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export function authorJson(u: AuthorRow | null | undefined): ForumAuthor | null {
  if (!u) return null;
  return {
    uuid: u.uuid,
    uid: u.id,
    name: u.name,
    created: new Date(u.created_at).toISOString(),
    changed: new Date(u.updated_at).toISOString(),
    image: null,
  };
}

export async function loadAuthors(db: Db, ids: Iterable<number | null>): Promise<Map<number, AuthorRow>> {
  const list = [...new Set([...ids].filter((id): id is number => id !== null))];
  if (list.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'uuid', 'name', 'created_at', 'updated_at'])
    .where('id', 'in', list)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

// ---------------------------------------------------------------------------------------------
// Forums and their statistics

export interface ForumRow {
  id: number;
  uuid: string;
  name: string;
  description: string;
  weight: number;
  container: boolean;
  parent_id: number | null;
  changed: Date;
}

export interface ForumStats {
  topic_count: number;
  comment_count: number;
  last_post: { created: string; name: string | null; uid: number | null } | null;
}

export async function allForums(db: Db): Promise<ForumRow[]> {
  return forumDb(db)
    .selectFrom('forums')
    .select(['id', 'uuid', 'name', 'description', 'weight', 'container', 'parent_id', 'changed'])
    .orderBy('weight')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** A forum by uuid or numeric tid. */
export async function findForum(db: Db, idOrTid: string): Promise<ForumRow | undefined> {
  const q = forumDb(db)
    .selectFrom('forums')
    .select(['id', 'uuid', 'name', 'description', 'weight', 'container', 'parent_id', 'changed']);
  if (isUuid(idOrTid)) return q.where('uuid', '=', idOrTid).executeTakeFirst();
  if (/^\d{1,9}$/.test(idOrTid)) return q.where('id', '=', Number(idOrTid)).executeTakeFirst();
  return undefined;
}

/**
 * Topic and comment counts and the last post of every forum, each including its sub-forums.
 * Hidden topics and comments (and the comments of hidden topics) count nowhere.
 */
export async function forumStatistics(db: Db, forums: readonly ForumRow[]): Promise<Map<number, ForumStats>> {
  const [topics, comments, last] = await Promise.all([
    sql<{ forum_id: number; n: number }>`
      select forum_id, count(*)::int as n from forum_topics where not hidden group by forum_id`.execute(db),
    sql<{ forum_id: number; n: number }>`
      select t.forum_id, count(*)::int as n from forum_comments c join forum_topics t on t.id = c.topic_id
      where not c.hidden and not t.hidden group by t.forum_id`.execute(db),
    sql<{ forum_id: number; created: Date; author_id: number | null }>`
      select distinct on (forum_id) forum_id, created, author_id from (
        select t.forum_id, t.created, t.author_id, t.id as topic_id, 0 as cid from forum_topics t where not t.hidden
        union all
        select t.forum_id, c.created, c.author_id, t.id, c.id from forum_comments c
          join forum_topics t on t.id = c.topic_id where not c.hidden and not t.hidden
      ) posts order by forum_id, created desc, topic_id desc, cid desc`.execute(db),
  ]);
  const authors = await loadAuthors(
    db,
    last.rows.map((r) => r.author_id),
  );
  const own = new Map<number, ForumStats>();
  for (const f of forums) own.set(f.id, { topic_count: 0, comment_count: 0, last_post: null });
  for (const r of topics.rows) {
    const s = own.get(r.forum_id);
    if (s) s.topic_count = Number(r.n);
  }
  for (const r of comments.rows) {
    const s = own.get(r.forum_id);
    if (s) s.comment_count = Number(r.n);
  }
  for (const r of last.rows) {
    const s = own.get(r.forum_id);
    const author = r.author_id === null ? undefined : authors.get(r.author_id);
    if (s)
      s.last_post = {
        created: new Date(r.created).toISOString(),
        name: author?.name ?? null,
        uid: author?.id ?? null,
      };
  }
  // Each forum's figures include its sub-forums' (a container shows what it holds).
  const children = new Map<number, number[]>();
  for (const f of forums) {
    if (f.parent_id !== null) children.set(f.parent_id, [...(children.get(f.parent_id) ?? []), f.id]);
  }
  const total = new Map<number, ForumStats>();
  const sum = (id: number, seen: Set<number>): ForumStats => {
    const known = total.get(id);
    if (known) return known;
    const base = own.get(id) ?? { topic_count: 0, comment_count: 0, last_post: null };
    const s: ForumStats = { ...base };
    seen.add(id);
    for (const child of children.get(id) ?? []) {
      if (seen.has(child)) continue;
      const c = sum(child, seen);
      s.topic_count += c.topic_count;
      s.comment_count += c.comment_count;
      if (c.last_post && (!s.last_post || c.last_post.created > s.last_post.created))
        s.last_post = c.last_post;
    }
    total.set(id, s);
    return s;
  };
  for (const f of forums) sum(f.id, new Set());
  return total;
}

export async function subscribedForumIds(db: Db, viewer: Viewer | null): Promise<Set<number>> {
  if (!viewer) return new Set();
  const rows = await forumDb(db)
    .selectFrom('forum_subscriptions')
    .select('forum_id')
    .where('user_id', '=', viewer.id)
    .where('forum_id', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.forum_id!));
}

// ---------------------------------------------------------------------------------------------
// Topics

/** The visible-comment count of a topic, as SQL over the alias `t`. */
export const commentCountSql = sql<number>`(select count(*)::int from forum_comments fc where fc.topic_id = t.id and not fc.hidden)`;
/** The time of the last visible comment (null without comments), as SQL over `t`. */
export const lastCommentSql = sql<Date | null>`(select max(fc.created) from forum_comments fc where fc.topic_id = t.id and not fc.hidden)`;

/** Topics with their forum and author, visible to `viewer` (moderators see hidden ones too). */
export function topicsBase(db: Db, viewer: Viewer | null) {
  let q = forumDb(db)
    .selectFrom('forum_topics as t')
    .innerJoin('forums as f', 'f.id', 't.forum_id')
    .leftJoin('users as u', 'u.id', 't.author_id')
    .select([
      't.id',
      't.uuid',
      't.title',
      't.body_html',
      't.sticky',
      't.locked',
      't.hidden',
      't.created',
      't.changed',
      't.author_id',
      't.forum_id',
      'f.uuid as forum_uuid',
      'f.name as forum_name',
      'u.uuid as author_uuid',
    ])
    .select(commentCountSql.as('comment_count'))
    .select(lastCommentSql.as('last_comment_date'));
  if (!isModerator(viewer)) q = q.where('t.hidden', '=', false);
  return q;
}

export type TopicRow = Awaited<ReturnType<ReturnType<typeof topicsBase>['executeTakeFirstOrThrow']>>;

export async function findTopic(db: Db, viewer: Viewer | null, uuid: string): Promise<TopicRow> {
  const topic = isUuid(uuid)
    ? await topicsBase(db, viewer).where('t.uuid', '=', uuid).executeTakeFirst()
    : undefined;
  if (!topic) throw notFound(M.errors.topicNotFound);
  return topic;
}

/** The last visible comment of each topic: its author's name and uid. */
async function lastCommenters(db: Db, topicIds: readonly number[]) {
  if (topicIds.length === 0) return new Map<number, { name: string | null; uid: number | null }>();
  const rows = await sql<{ topic_id: number; author_id: number | null; name: string | null }>`
    select distinct on (c.topic_id) c.topic_id, c.author_id, u.name from forum_comments c
    left join users u on u.id = c.author_id
    where c.topic_id in (${sql.join(topicIds)}) and not c.hidden
    order by c.topic_id, c.created desc, c.id desc`.execute(db);
  return new Map(rows.rows.map((r) => [r.topic_id, { name: r.name, uid: r.author_id }]));
}

/** Topics in the shape of spec B 3 'Forum topic' (GET /phpsdk/forum-topics/{forumId}). */
export async function topicSummaries(db: Db, rows: readonly TopicRow[]): Promise<ForumTopicSummary[]> {
  const authors = await loadAuthors(
    db,
    rows.map((r) => r.author_id),
  );
  const last = await lastCommenters(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    uuid: r.uuid,
    nid: r.id,
    title: r.title,
    changed: new Date(r.changed).toISOString(),
    created: new Date(r.created).toISOString(),
    sticky: r.sticky,
    promote: false,
    locked: r.locked,
    status: !r.hidden,
    body: r.body_html,
    author: authorJson(r.author_id === null ? null : authors.get(r.author_id)),
    comment_forum: {
      comment_count: Number(r.comment_count),
      last_comment_name: last.get(r.id)?.name ?? null,
      last_comment_date: r.last_comment_date ? new Date(r.last_comment_date).toISOString() : null,
      last_comment_uid: last.get(r.id)?.uid ?? null,
    },
    forumParent: r.forum_uuid,
  }));
}

/** One page of a forum's topics: pinned first, then by last activity (`changed`). */
export async function forumTopics(
  db: Db,
  viewer: Viewer | null,
  forum: ForumRow,
  page: { limit: number; offset: number },
): Promise<TopicRow[]> {
  return topicsBase(db, viewer)
    .where('t.forum_id', '=', forum.id)
    .orderBy('t.sticky', 'desc')
    .orderBy('t.changed', 'desc')
    .orderBy('t.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The search index row of a visible topic (spec B 2.6: type forum; the web app links by uuid). */
async function indexTopic(trx: ForumDb, topicId: number): Promise<void> {
  const t = await trx
    .selectFrom('forum_topics')
    .select(['uuid', 'title', 'body_html', 'hidden', 'created'])
    .where('id', '=', topicId)
    .executeTakeFirst();
  if (!t) return;
  if (t.hidden) {
    await searchIndex(trx).remove('forum', t.uuid);
    return;
  }
  await searchIndex(trx).upsert({
    type: 'forum',
    uuid: t.uuid,
    title: t.title,
    text: plainText(t.body_html),
    link: null,
    created: t.created,
  });
}

export interface NewTopic {
  forum: ForumRow;
  title: string;
  bodyHtml: string;
  authorId: number | null;
  created?: Date;
  sourceKey?: string;
  /** Set by a moderator when posting. */
  hidden?: boolean | undefined;
  sticky?: boolean | undefined;
  locked?: boolean | undefined;
}

export async function insertTopic(db: Db | ForumDb, input: NewTopic): Promise<{ id: number; uuid: string }> {
  const run = async (trx: ForumDb) => {
    const row = await trx
      .insertInto('forum_topics')
      .values({
        forum_id: input.forum.id,
        author_id: input.authorId,
        title: input.title,
        body_html: input.bodyHtml,
        source_key: input.sourceKey ?? null,
        ...(input.created ? { created: input.created, changed: input.created } : {}),
        ...(input.hidden === undefined ? {} : { hidden: input.hidden }),
        ...(input.sticky === undefined ? {} : { sticky: input.sticky }),
        ...(input.locked === undefined ? {} : { locked: input.locked }),
      })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    await indexTopic(trx, row.id);
    return row;
  };
  const fdb = db as ForumDb;
  return fdb.isTransaction ? run(fdb) : fdb.transaction().execute(run);
}

export async function moderateTopic(
  db: Db,
  topic: TopicRow,
  change: { status?: boolean | undefined; sticky?: boolean | undefined; locked?: boolean | undefined },
): Promise<void> {
  await forumDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx
        .updateTable('forum_topics')
        .set({
          ...(change.status === undefined ? {} : { hidden: !change.status }),
          ...(change.sticky === undefined ? {} : { sticky: change.sticky }),
          ...(change.locked === undefined ? {} : { locked: change.locked }),
        })
        .where('id', '=', topic.id)
        .execute();
      await indexTopic(trx, topic.id);
    });
}

export async function deleteTopic(db: Db, topic: TopicRow): Promise<void> {
  await forumDb(db)
    .transaction()
    .execute(async (trx) => {
      await trx.deleteFrom('forum_topics').where('id', '=', topic.id).execute();
      await searchIndex(trx).remove('forum', topic.uuid);
    });
}

// ---------------------------------------------------------------------------------------------
// Comments

/** Comments with their topic, parent and author, visible to `viewer`. */
export function commentsBase(db: Db, viewer: Viewer | null) {
  let q = forumDb(db)
    .selectFrom('forum_comments as c')
    .innerJoin('forum_topics as t', 't.id', 'c.topic_id')
    .leftJoin('forum_comments as p', 'p.id', 'c.parent_id')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select([
      'c.id',
      'c.uuid',
      'c.subject',
      'c.body_html',
      'c.hidden',
      'c.created',
      'c.changed',
      'c.author_id',
      'c.parent_id',
      'p.uuid as parent_uuid',
      't.uuid as topic_uuid',
      't.id as topic_id',
      'u.uuid as author_uuid',
    ]);
  if (!isModerator(viewer)) q = q.where('c.hidden', '=', false).where('t.hidden', '=', false);
  return q;
}

export type CommentRow = Awaited<ReturnType<ReturnType<typeof commentsBase>['executeTakeFirstOrThrow']>>;

export async function findComment(db: Db, viewer: Viewer | null, uuid: string): Promise<CommentRow> {
  const comment = isUuid(uuid)
    ? await commentsBase(db, viewer).where('c.uuid', '=', uuid).executeTakeFirst()
    : undefined;
  if (!comment) throw notFound(M.errors.commentNotFound);
  return comment;
}

export interface NewComment {
  topicId: number;
  parentId: number | null;
  subject: string;
  bodyHtml: string;
  authorId: number | null;
  created?: Date;
  sourceKey?: string;
  /** Set by a moderator when posting. */
  hidden?: boolean | undefined;
}

export async function insertComment(
  db: Db | ForumDb,
  input: NewComment,
): Promise<{ id: number; uuid: string }> {
  const run = async (trx: ForumDb) => {
    const row = await trx
      .insertInto('forum_comments')
      .values({
        topic_id: input.topicId,
        parent_id: input.parentId,
        author_id: input.authorId,
        subject: input.subject,
        body_html: input.bodyHtml,
        source_key: input.sourceKey ?? null,
        ...(input.created ? { created: input.created, changed: input.created } : {}),
        ...(input.hidden === undefined ? {} : { hidden: input.hidden }),
      })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    // The topic changed: a new comment is activity on it.
    await trx
      .updateTable('forum_topics')
      .set({ changed: input.created ?? new Date() })
      .where('id', '=', input.topicId)
      .execute();
    return row;
  };
  const fdb = db as ForumDb;
  return fdb.isTransaction ? run(fdb) : fdb.transaction().execute(run);
}

export async function moderateComment(db: Db, comment: CommentRow, status: boolean): Promise<void> {
  await forumDb(db)
    .updateTable('forum_comments')
    .set({ hidden: !status })
    .where('id', '=', comment.id)
    .execute();
}

export async function deleteComment(db: Db, comment: CommentRow): Promise<void> {
  await forumDb(db).deleteFrom('forum_comments').where('id', '=', comment.id).execute();
}

/** A subject from the body when none is given (Drupal cuts the comment's text the same way). */
export function subjectFrom(bodyHtml: string): string {
  const text = plainText(bodyHtml);
  return text.length <= FORUM_SUBJECT_MAX ? text : `${text.slice(0, FORUM_SUBJECT_MAX - 1).trimEnd()}…`;
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export type SubscriptionTarget =
  | { kind: 'forum'; id: number; uuid: string; name: string }
  | {
      kind: 'topic';
      id: number;
      uuid: string;
      name: string;
    };

/** The forum or the visible topic with this uuid. */
export async function findTarget(
  db: Db,
  viewer: Viewer | null,
  uuid: string,
  kind?: 'forum' | 'topic',
): Promise<SubscriptionTarget | undefined> {
  if (!isUuid(uuid)) return undefined;
  if (kind !== 'topic') {
    const f = await forumDb(db)
      .selectFrom('forums')
      .select(['id', 'uuid', 'name'])
      .where('uuid', '=', uuid)
      .executeTakeFirst();
    if (f) return { kind: 'forum', id: f.id, uuid: f.uuid, name: f.name };
  }
  if (kind !== 'forum') {
    const t = await topicsBase(db, viewer).where('t.uuid', '=', uuid).executeTakeFirst();
    if (t) return { kind: 'topic', id: t.id, uuid: t.uuid, name: t.title };
  }
  return undefined;
}

function targetColumn(target: SubscriptionTarget) {
  return target.kind === 'forum' ? ('forum_id' as const) : ('topic_id' as const);
}

export async function isSubscribed(db: Db, userId: number, target: SubscriptionTarget): Promise<boolean> {
  const row = await forumDb(db)
    .selectFrom('forum_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where(targetColumn(target), '=', target.id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setSubscribed(
  db: Db,
  userId: number,
  target: SubscriptionTarget,
  subscribed: boolean,
): Promise<void> {
  const fdb = forumDb(db);
  if (subscribed) {
    await fdb
      .insertInto('forum_subscriptions')
      .values({ user_id: userId, [targetColumn(target)]: target.id })
      .onConflict((oc) => oc.columns([targetColumn(target), 'user_id']).doNothing())
      .execute();
  } else {
    await fdb
      .deleteFrom('forum_subscriptions')
      .where('user_id', '=', userId)
      .where(targetColumn(target), '=', target.id)
      .execute();
  }
}

/** Signed unsubscribe tokens: `user.kind.uuid.mac`, the mac keyed by the portal's secret. */
export function unsubscribeToken(key: string, userId: number, target: SubscriptionTarget): string {
  const payload = `${userId}.${target.kind}.${target.uuid}`;
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

export function readUnsubscribeToken(
  key: string,
  token: string,
): { userId: number; kind: 'forum' | 'topic'; uuid: string } | undefined {
  const m = /^(\d{1,10})\.(forum|topic)\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return undefined;
  const payload = `${m[1]}.${m[2]}.${m[3]}`;
  const expected = Buffer.from(createHmac('sha256', key).update(payload).digest('base64url'));
  const given = Buffer.from(m[4]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return { userId: Number(m[1]), kind: m[2] as 'forum' | 'topic', uuid: m[3]! };
}

/** Who gets an e-mail: the subscribers of the targets, except the author of the post. */
export async function subscribers(
  db: Db,
  column: 'forum_id' | 'topic_id',
  ids: readonly number[],
  exceptUserId: number | null,
): Promise<{ id: number; email: string; target: number }[]> {
  if (ids.length === 0) return [];
  let q = forumDb(db)
    .selectFrom('forum_subscriptions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id', 'u.email', `s.${column} as target`])
    .where(`s.${column}`, 'in', [...ids]);
  if (exceptUserId !== null) q = q.where('u.id', '<>', exceptUserId);
  const rows = await q.execute();
  // One e-mail per person even when they follow a forum and its container.
  const seen = new Set<number>();
  return rows
    .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
    .map((r) => ({ id: r.id, email: r.email, target: r.target! }));
}

/** A forum and its containers, nearest first. */
export function ancestry(forums: readonly ForumRow[], forum: ForumRow): ForumRow[] {
  const byId = new Map(forums.map((f) => [f.id, f]));
  const out: ForumRow[] = [];
  let current: ForumRow | undefined = forum;
  while (current && !out.includes(current)) {
    out.push(current);
    current = current.parent_id === null ? undefined : byId.get(current.parent_id);
  }
  return out;
}
