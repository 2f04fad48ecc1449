import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '../../plugins/session.ts';
import { plainText } from '../../lib/plain-text.ts';
import { texts } from '../../lib/i18n.ts';
import { recipientLocale } from '../../lib/mailer.ts';
import {
  allForums,
  ancestry,
  subscribers,
  unsubscribeToken,
  type CommentRow,
  type ForumRow,
  type SubscriptionTarget,
  type TopicRow,
} from './service.ts';

/**
 * Notification e-mails (app.mailer: SMTP or the outbox): subscribers of a forum (or of one of its
 * containers) hear of every new topic, subscribers of a topic of every new comment; never the
 * author. Each e-mail carries a signed unsubscribe link for the subscription that caused it.
 * Sent after the post is committed: a failing mail server never undoes a post.
 */

export const unsubscribeKey = (app: FastifyInstance): string => app.secretBox.derive('forum-unsubscribe');

function excerpt(html: string): string {
  const text = plainText(html);
  return text.length > 400 ? `${text.slice(0, 399).trimEnd()}…` : text;
}

function unsubscribeLink(app: FastifyInstance, userId: number, target: SubscriptionTarget): string {
  const token = unsubscribeToken(unsubscribeKey(app), userId, target);
  return `${app.config.publicUrl}/api/subscribe-list/unsubscribe?token=${encodeURIComponent(token)}`;
}

export async function notifyNewTopic(
  app: FastifyInstance,
  forum: ForumRow,
  topic: TopicRow,
  author: SessionUser,
): Promise<void> {
  const chain = ancestry(await allForums(app.db), forum);
  const byId = new Map(chain.map((f) => [f.id, f]));
  const people = await subscribers(
    app.db,
    'forum_id',
    chain.map((f) => f.id),
    author.id,
  );
  const link = `${app.config.publicUrl}/forum-topic/${topic.uuid}`;
  for (const person of people) {
    const followed = byId.get(person.target) ?? forum;
    const values = {
      forum: forum.name,
      title: topic.title,
      author: author.name,
      excerpt: excerpt(topic.body_html),
      link,
      unsubscribe: unsubscribeLink(app, person.id, {
        kind: 'forum',
        id: followed.id,
        uuid: followed.uuid,
        name: followed.name,
      }),
    };
    const T = texts(await recipientLocale(app.db, person.email), 'emails', 'forum.mail');
    await app.mailer.send({
      to: person.email,
      subject: T('newTopicSubject', values),
      text: T('newTopicText', { ...values, forum: followed.name }),
    });
  }
}

export async function notifyNewComment(
  app: FastifyInstance,
  topic: TopicRow,
  comment: CommentRow,
  author: SessionUser,
): Promise<void> {
  const people = await subscribers(app.db, 'topic_id', [topic.id], author.id);
  const link = `${app.config.publicUrl}/forum-topic/${topic.uuid}`;
  for (const person of people) {
    const values = {
      title: topic.title,
      author: author.name,
      excerpt: excerpt(comment.body_html),
      link,
      unsubscribe: unsubscribeLink(app, person.id, {
        kind: 'topic',
        id: topic.id,
        uuid: topic.uuid,
        name: topic.title,
      }),
    };
    const T = texts(await recipientLocale(app.db, person.email), 'emails', 'forum.mail');
    await app.mailer.send({
      to: person.email,
      subject: T('newCommentSubject', values),
      text: T('newCommentText', values),
    });
  }
}
