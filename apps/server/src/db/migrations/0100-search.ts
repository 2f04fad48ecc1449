import { sql, type Kysely } from 'kysely';

/**
 * The site search index (spec B 2.6, 7 '/phpsdk/search'): one row per searchable thing (an article,
 * a basic page, a forum topic, an API product, an API endpoint), written by the module that owns
 * the thing whenever it changes (modules/search/service.ts), never rebuilt per query. The text
 * search vector is a generated column with a GIN index: PostgreSQL's own full-text search, the same
 * on PGlite and PostgreSQL. Column types for Kysely: modules/search/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_documents')
    // article, page, forum, api_product, api_endpoint (contracts SEARCH_TYPES); a later module
    // adds its own type by writing rows of it.
    .addColumn('type', 'text', (c) => c.notNull())
    // The thing's own uuid: search results link to it.
    .addColumn('uuid', 'uuid', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    // Plain text (tags stripped), what the snippet is cut from.
    .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
    // Extra words that find the thing without being shown (an endpoint's path and operationId).
    .addColumn('keywords', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('link', 'text')
    .addColumn('image', 'text')
    .addColumn('deprecated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('document', sql`tsvector`, (c) =>
      c
        .generatedAlwaysAs(
          sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', keywords), 'B') || setweight(to_tsvector('english', body), 'C')`,
        )
        .stored(),
    )
    .addPrimaryKeyConstraint('search_documents_pk', ['type', 'uuid'])
    .execute();
  await db.schema
    .createIndex('search_documents_document')
    .on('search_documents')
    .using('gin')
    .column('document')
    .execute();
  await db.schema
    .createIndex('search_documents_created')
    .on('search_documents')
    .columns(['created'])
    .execute();
}
