import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Named documents of site content (block layout, cookie consent) kept in `site_content`. */
export function siteContentRepo(db: Db) {
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const row = await db
        .selectFrom('site_content')
        .select('data')
        .where('key', '=', key)
        .executeTakeFirst();
      return row?.data as T | undefined;
    },
    async put(key: string, data: unknown): Promise<void> {
      const json = JSON.stringify(data);
      await db
        .insertInto('site_content')
        .values({ key, data: json })
        .onConflict((oc) => oc.column('key').doUpdateSet({ data: json, updated_at: sql`now()` }))
        .execute();
    },
  };
}
