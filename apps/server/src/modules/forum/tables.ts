import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';

/** Kysely types of migration 0160-forum; `users` (authors, subscribers) comes from db/schema.ts. */

type Created = ColumnType<Date, Date | string | undefined, never>;
type Changed = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ForumsTable {
  /** The numeric tid. */
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  description: Generated<string>;
  weight: Generated<number>;
  /** A container holds forums only: no topics are posted in it. */
  container: Generated<boolean>;
  parent_id: number | null;
  source_key: string | null;
  created: Created;
  changed: Changed;
}

export interface ForumTopicsTable {
  /** The numeric nid. */
  id: Generated<number>;
  uuid: Generated<string>;
  forum_id: number;
  author_id: number | null;
  title: string;
  /** Sanitized HTML. */
  body_html: string;
  sticky: Generated<boolean>;
  locked: Generated<boolean>;
  hidden: Generated<boolean>;
  source_key: string | null;
  created: Created;
  changed: Changed;
}

export interface ForumCommentsTable {
  /** The numeric cid. */
  id: Generated<number>;
  uuid: Generated<string>;
  topic_id: number;
  parent_id: number | null;
  author_id: number | null;
  subject: Generated<string>;
  /** Sanitized HTML. */
  body_html: string;
  hidden: Generated<boolean>;
  source_key: string | null;
  created: Created;
  changed: Changed;
}

export interface ForumSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  forum_id: number | null;
  topic_id: number | null;
  created: Created;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type ForumTables = {
  forums: ForumsTable;
  forum_topics: ForumTopicsTable;
  forum_comments: ForumCommentsTable;
  forum_subscriptions: ForumSubscriptionsTable;
};

export type ForumDb = Kysely<Database & ForumTables>;

/** The database (or a transaction) with the forum tables known to Kysely. */
export function forumDb(db: Db | Kysely<Database>): ForumDb {
  return db.withTables<ForumTables>();
}
