import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Named documents of site content (block layout, cookie consent) kept in `site_content`. */
export function siteContentRepo(db: Db) {
  return {
    /** The live document (never a pending draft): what the site shows and export writes. */
    async get<T>(key: string): Promise<T | undefined> {
      const row = await db
        .selectFrom('site_content')
        .select('data')
        .where('key', '=', key)
        .executeTakeFirst();
      return row?.data as T | undefined;
    },
    /**
     * Writes a document as the content import has it: nothing changes when it is the same, and a
     * different one raises the version (a console editor who opened the old one is told).
     */
    async put(key: string, data: unknown): Promise<void> {
      const json = JSON.stringify(data);
      await db
        .insertInto('site_content')
        .values({ key, data: json })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              data: json,
              updated_at: sql`now()`,
              version: sql`site_content.version + 1`,
            })
            .where(sql<boolean>`site_content.data is distinct from excluded.data`),
        )
        .execute();
    },
    /** Whether the document was saved in the console (the import then leaves it alone). */
    async editedInConsole(key: string): Promise<boolean> {
      const row = await db
        .selectFrom('site_content')
        .select('edited_at')
        .where('key', '=', key)
        .executeTakeFirst();
      return !!row?.edited_at;
    },
  };
}
