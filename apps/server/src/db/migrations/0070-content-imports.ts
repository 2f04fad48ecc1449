import { sql, type Kysely } from 'kysely';

/**
 * Demo content that users take over (an organization, its applications) is imported once: a row
 * here records it, so a later start never re-creates what someone deleted or undoes an edit. The
 * row is written in the same transaction as the content, so instances starting together import it
 * once (the second waits on the key, then finds it taken).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_imports')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
