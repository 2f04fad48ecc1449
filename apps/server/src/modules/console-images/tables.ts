import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { ImageType } from '../../lib/uploads.ts';

/** Kysely types of migration 0290-console-images; `users` comes from db/schema.ts. */
export interface ConsoleImagesTable {
  id: Generated<number>;
  uuid: string;
  storage_key: string;
  file_name: string;
  type: ImageType;
  size: number;
  width: number | null;
  height: number | null;
  uploaded_by: number | null;
  created: ColumnType<Date, Date | string | undefined, never>;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type ConsoleImagesTables = { console_images: ConsoleImagesTable };

/** The database with the console images' table known to Kysely. */
export function imagesDb(db: Db) {
  return db.withTables<ConsoleImagesTables>();
}
