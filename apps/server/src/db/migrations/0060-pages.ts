import { sql, type Kysely } from 'kysely';

/**
 * Basic pages (spec B 2.1 '/{page}', 2.8, 3): served to `GET {alias}?_format=json`. A page has
 * one canonical alias and any number of others (e.g. '/privacy' and '/page/privacy'); every alias,
 * the canonical one included, is a row of `page_aliases`, the table requests are looked up in.
 * Column types for Kysely: modules/pages/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    // The canonical path alias, lower case with a leading slash, e.g. '/privacy'.
    .addColumn('alias', 'text', (c) =>
      c
        .notNull()
        .unique()
        .check(sql`alias like '/%' and alias = lower(alias)`),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    // HTML, sanitized before it is stored.
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_url', 'text')
    .addColumn('image_alt', 'text')
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('google_drive_id', 'text')
    .addColumn('scrollspy_visible', 'boolean', (c) => c.notNull().defaultTo(false))
    // sha256 of the content file the page was imported from; null for pages created otherwise
    // (the importer never touches those).
    .addColumn('source_hash', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('pages_author').on('pages').column('author_id').execute();

  await db.schema
    .createTable('page_aliases')
    .addColumn('alias', 'text', (c) => c.primaryKey().check(sql`alias like '/%' and alias = lower(alias)`))
    .addColumn('page_id', 'integer', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('page_aliases_page').on('page_aliases').column('page_id').execute();
}
