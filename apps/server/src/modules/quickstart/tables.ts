import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { QuickstartStep } from '@portico/contracts/quickstart';
import type { Db } from '../../db/client.ts';

/** Kysely types of migration 0180-quickstart-stories. */
export interface QuickstartStoriesTable {
  id: Generated<number>;
  uuid: string;
  weight: Generated<number>;
  title: string;
  steps: JSONColumnType<QuickstartStep[], string, string>;
  disable_for_anonymous: Generated<boolean>;
  source_hash: string;
  changed: ColumnType<Date, Date | string | undefined, Date | string>;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type QuickstartTables = { quickstart_stories: QuickstartStoriesTable };

export function quickstartDb(db: Db) {
  return db.withTables<QuickstartTables>();
}
