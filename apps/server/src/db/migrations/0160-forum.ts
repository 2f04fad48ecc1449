import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

/**
 * Forums (spec B 2.13, 3): forums and containers (a tree), topics, threaded comments and the
 * subscriptions to forums and topics. Moderation keeps hidden topics and comments as rows with
 * `hidden` set (gone for everyone but moderators, counted nowhere); deleting removes them.
 * `source_key` names the content file entry an item was imported from (null for posts). Column
 * types for Kysely: modules/forum/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const uuid = (c: ColumnDefinitionBuilder) =>
    c
      .notNull()
      .unique()
      .defaultTo(sql`gen_random_uuid()`);
  await db.schema
    .createTable('forums')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', uuid)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    // A container holds forums only: no topics are posted in it.
    .addColumn('container', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('parent_id', 'integer', (c) => c.references('forums.id').onDelete('cascade'))
    .addColumn('source_key', 'text', (c) => c.unique())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('forums_parent').on('forums').column('parent_id').execute();

  await db.schema
    .createTable('forum_topics')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', uuid)
    .addColumn('forum_id', 'integer', (c) => c.notNull().references('forums.id').onDelete('cascade'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    // Sanitized HTML.
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('sticky', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('locked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('source_key', 'text', (c) => c.unique())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('forum_topics_forum')
    .on('forum_topics')
    .columns(['forum_id', 'created'])
    .execute();
  // A forum's topic list: pinned first, then by last activity.
  await db.schema
    .createIndex('forum_topics_forum_activity')
    .on('forum_topics')
    .columns(['forum_id', 'sticky', 'changed'])
    .execute();
  await db.schema.createIndex('forum_topics_author').on('forum_topics').column('author_id').execute();

  await db.schema
    .createTable('forum_comments')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', uuid)
    .addColumn('topic_id', 'integer', (c) => c.notNull().references('forum_topics.id').onDelete('cascade'))
    // The comment this one replies to; a deleted parent leaves its replies in place.
    .addColumn('parent_id', 'integer', (c) => c.references('forum_comments.id').onDelete('set null'))
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    // Sanitized HTML.
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('source_key', 'text', (c) => c.unique())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('forum_comments_topic')
    .on('forum_comments')
    .columns(['topic_id', 'created'])
    .execute();
  await db.schema.createIndex('forum_comments_parent').on('forum_comments').column('parent_id').execute();
  await db.schema.createIndex('forum_comments_author').on('forum_comments').column('author_id').execute();

  // One row per user and forum or topic followed.
  await db.schema
    .createTable('forum_subscriptions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('forum_id', 'integer', (c) => c.references('forums.id').onDelete('cascade'))
    .addColumn('topic_id', 'integer', (c) => c.references('forum_topics.id').onDelete('cascade'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('forum_subscriptions_one_target', sql`num_nonnulls(forum_id, topic_id) = 1`)
    .execute();
  await db.schema
    .createIndex('forum_subscriptions_forum')
    .on('forum_subscriptions')
    .columns(['forum_id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('forum_subscriptions_topic')
    .on('forum_subscriptions')
    .columns(['topic_id', 'user_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('forum_subscriptions_user')
    .on('forum_subscriptions')
    .column('user_id')
    .execute();
}
