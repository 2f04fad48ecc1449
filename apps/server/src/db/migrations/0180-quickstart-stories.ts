import { sql, type Kysely } from 'kysely';

/**
 * Quick Start stories (spec B 2.15, 3 'Quick Start story', 7 `GET /getting_started/stories`):
 * imported from content/quickstart, in `weight` order. The uuid comes from the content file so that
 * the stories users completed (users.completed_stories) stay valid across imports.
 * Column types for Kysely: modules/quickstart/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quickstart_stories')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique())
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    // [{ target, content, navigationUrl, styles, spotlightClicks }]
    .addColumn('steps', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('disable_for_anonymous', 'boolean', (c) => c.notNull().defaultTo(false))
    // sha256 of the story as the content file has it: an unchanged story is not written again.
    .addColumn('source_hash', 'text', (c) => c.notNull())
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
