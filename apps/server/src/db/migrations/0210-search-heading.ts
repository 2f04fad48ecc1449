import { sql, type Kysely } from 'kysely';

/**
 * The title and hidden keywords of every search document as a text search vector of their own
 * (title A, keywords B), with its own GIN index (decision 029). A word found in thousands of
 * documents is no longer ranked across all of them: the documents whose title or keywords hold
 * every word come first, found through this small index, and only they are ranked.
 * `fastupdate = off`: the index is written in the same transaction as the change, never through
 * a pending list that every query would scan until the next vacuum. Column types:
 * modules/search/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table search_documents add column heading tsvector generated always as (
      setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', keywords), 'B')
    ) stored`.execute(db);
  await sql`create index search_documents_heading on search_documents using gin (heading) with (fastupdate = off)`.execute(
    db,
  );
  await sql`alter index search_documents_document set (fastupdate = off)`.execute(db);
  // What the pending list already holds goes into the index now, not at the next vacuum.
  await sql`select gin_clean_pending_list('search_documents_document'::regclass)`.execute(db);
}
