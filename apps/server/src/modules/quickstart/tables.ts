import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { QuickstartStep } from '@portico/contracts/quickstart';
import type { Db } from '../../db/client.ts';

/** Kysely types of migrations 0180-quickstart-stories and 0281-content-revisions. */
export interface QuickstartStoriesTable {
  id: Generated<number>;
  uuid: string;
  weight: Generated<number>;
  title: string;
  steps: JSONColumnType<QuickstartStep[], string, string>;
  disable_for_anonymous: Generated<boolean>;
  /** sha256 of the story as the file had it; null for a story created in the console. */
  source_hash: string | null;
  changed: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Migration 0281: raised by every console save (optimistic concurrency). */
  version: Generated<number>;
  /** A draft or scheduled story is shown to nobody on the developer side. */
  published: Generated<boolean>;
  /** A scheduled publication (with `published` false until then). */
  publish_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The last console save: the import leaves such a story alone. */
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created: ColumnType<Date, Date | string | undefined, never>;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type QuickstartTables = { quickstart_stories: QuickstartStoriesTable };

export function quickstartDb(db: Db) {
  return db.withTables<QuickstartTables>();
}
