import { z } from 'zod';

/** Forums (spec B 2.13, 3, 5, 7, 9): constants, limits and the shapes of the forum calls. */

/** Spec B 9: topic comments 10 per page; topic search 20 per page. */
export const FORUM_COMMENTS_PAGE_SIZE = 10;
export const FORUM_TOPICS_PAGE_SIZE = 20;

/** Documented input limits (apps/server/src/modules/forum/README.md): longer input is a 413. */
export const FORUM_TITLE_MAX = 255;
export const FORUM_SUBJECT_MAX = 64;
/** The rich-text body of a topic, as sent (HTML), in characters. */
export const FORUM_TOPIC_BODY_MAX = 65_536;
/** The rich-text body of a comment, as sent (HTML), in characters. */
export const FORUM_COMMENT_BODY_MAX = 16_384;

/** Rate limits (database counters, per user and per client address). */
export const FORUM_RATE_WINDOW_MS = 10 * 60_000;
export const FORUM_TOPICS_PER_USER = 5;
export const FORUM_TOPICS_PER_ADDRESS = 20;
export const FORUM_COMMENTS_PER_USER = 30;
export const FORUM_COMMENTS_PER_ADDRESS = 90;

/** The JSON:API types of spec B 7. */
export const FORUM_TERM_TYPE = 'taxonomy_term--forums';
export const FORUM_TOPIC_TYPE = 'node--forum';
export const FORUM_COMMENT_TYPE = 'comment--comment_forum';
export const USER_TYPE = 'user--user';

const identifier = (type: string) => z.object({ type: z.literal(type), id: z.uuid() });

/** The topic attributes only a moderator sets: published (status), pinned (sticky), locked. */
export const FORUM_TOPIC_MODERATION = ['status', 'sticky', 'locked'] as const;

/**
 * POST /jsonapi/node/forum (spec B 7): title, body and the forum it belongs to; a moderator may
 * also post it hidden, pinned or locked. `uid`, when sent, is the caller. Any other member is a 400.
 */
export const createTopicDocument = z.object({
  data: z.object({
    type: z.literal(FORUM_TOPIC_TYPE),
    attributes: z
      .object({
        title: z.string(),
        body: z.union([z.string(), z.object({ value: z.string(), format: z.string().optional() }).strict()]),
        status: z.boolean().optional(),
        sticky: z.boolean().optional(),
        locked: z.boolean().optional(),
      })
      .strict(),
    relationships: z
      .object({
        taxonomy_forums: z.object({ data: identifier(FORUM_TERM_TYPE) }),
        uid: z.object({ data: identifier(USER_TYPE) }).optional(),
      })
      .strict(),
  }),
});

/** POST /jsonapi/comment/comment_forum (spec B 7); a moderator may also post it hidden (status). */
export const createCommentDocument = z.object({
  data: z.object({
    type: z.literal(FORUM_COMMENT_TYPE),
    attributes: z
      .object({
        subject: z.string().optional(),
        entity_type: z.literal('node'),
        field_name: z.literal('comment_forum'),
        comment_body: z.object({ value: z.string(), format: z.string().optional() }).strict(),
        status: z.boolean().optional(),
      })
      .strict(),
    relationships: z
      .object({
        entity_id: z.object({ data: identifier(FORUM_TOPIC_TYPE) }),
        pid: z.object({ data: identifier(FORUM_COMMENT_TYPE).nullable() }).optional(),
        uid: z.object({ data: identifier(USER_TYPE) }).optional(),
      })
      .strict(),
  }),
});

/** PATCH of a topic by a moderator: published (status), sticky (pinned), locked (no new comments). */
export const moderateTopicDocument = z.object({
  data: z.object({
    type: z.literal(FORUM_TOPIC_TYPE),
    id: z.uuid(),
    attributes: z
      .object({ status: z.boolean(), sticky: z.boolean(), locked: z.boolean() })
      .partial()
      .strict(),
  }),
});

/** PATCH of a comment by a moderator: published (status). */
export const moderateCommentDocument = z.object({
  data: z.object({
    type: z.literal(FORUM_COMMENT_TYPE),
    id: z.uuid(),
    attributes: z.object({ status: z.boolean() }).strict(),
  }),
});

/** POST /api/subscribe-list (spec B 3 'Subscription', 7). */
export const subscribeListBody = z.object({
  /** 'taxonomy_term' for a forum, 'node' for a topic. */
  entity_type: z.enum(['taxonomy_term', 'node']),
  /** What to do. */
  type: z.enum(['subscribe', 'unsubscribe']),
  /** The forum's or topic's uuid. */
  node: z.uuid(),
  /** The caller's own uuid. */
  user: z.uuid(),
});

/** A topic as GET /phpsdk/forum-topics/{forumId} lists it (spec B 3 'Forum topic'). */
export interface ForumAuthor {
  uuid: string;
  uid: number;
  name: string;
  created: string;
  changed: string;
  image: { url: string; alt: string } | null;
}

export interface ForumTopicSummary {
  uuid: string;
  nid: number;
  title: string;
  changed: string;
  created: string;
  sticky: boolean;
  promote: boolean;
  locked: boolean;
  /** False when a moderator hid the topic (only moderators see it then). */
  status: boolean;
  body: string;
  author: ForumAuthor | null;
  comment_forum: {
    comment_count: number;
    last_comment_name: string | null;
    last_comment_date: string | null;
    last_comment_uid: number | null;
  };
  /** The forum's uuid. */
  forumParent: string;
}
