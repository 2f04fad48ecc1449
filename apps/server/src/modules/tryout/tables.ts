import type { ColumnType } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Kysely types of migration 0140-tryout-history. */
export interface TryoutHistoryTable {
  user_id: number;
  uuid: string;
  documentation_id: string;
  favorite: boolean;
  /** Milliseconds since the epoch, as the browser wrote it (bigint: read back as a string). */
  created: ColumnType<string, number, number>;
  /** The whole item (TryoutHistoryItemInput), JSON. */
  item: ColumnType<unknown, string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type TryoutTables = { tryout_history: TryoutHistoryTable };

export function tryoutDb(db: Db) {
  return db.withTables<TryoutTables>();
}
