import { sql, type Kysely } from 'kysely';

/**
 * What a module last wrote to the search index from a source that is re-read in bulk (an imported
 * OpenAPI document: its operations become api_endpoint rows): the source's fingerprint, so that an
 * unchanged document is not indexed again on every start. And the basic pages that existed before
 * the index did, indexed once here (later writes go through modules/pages/repo.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_sources')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .execute();
  await sql`
    insert into search_documents (type, uuid, title, body, link, image, created)
    select 'page', uuid, title,
           btrim(regexp_replace(regexp_replace(body_html, '<[^>]*>', ' ', 'g'), '\\s+', ' ', 'g')),
           alias, image_url, created
    from pages
    on conflict do nothing`.execute(db);
}
