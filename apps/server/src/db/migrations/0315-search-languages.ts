import { sql, type Kysely } from 'kysely';

/**
 * Site search rows per language (issue 30, decision 065). `search_documents` gets `langcode`
 * (default 'en', the default language: every row written before is English) as part of its key,
 * so an item has its own row in each language it is translated into, and both text search
 * vectors are made with the row's language's configuration: a CASE over the languages of today
 * (contracts LOCALES: en, de), since a generated column takes only immutable expressions
 * (`to_tsvector(regconfig, text)` with a constant configuration is; a cast of a text column to
 * regconfig is not, and a regconfig column would stop pg_upgrade). A third language is a new
 * migration that makes both columns again with one more branch (and its entry in
 * modules/search/service.ts TEXT_SEARCH_CONFIGS). The translated rows of the translations already
 * saved are written at start-up by the search module (a migration imports no domain code).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_documents add column langcode text not null default 'en'`.execute(db);
  await sql`alter table search_documents drop constraint search_documents_pk`.execute(db);
  await sql`alter table search_documents add constraint search_documents_pk primary key (type, uuid, langcode)`.execute(
    db,
  );
  // The generated columns cannot change their expression in place (PostgreSQL 15): made again,
  // their GIN indexes with them (fastupdate off, as migration 0210 set them).
  await sql`alter table search_documents drop column heading, drop column document`.execute(db);
  const vector = (column: string) =>
    sql`to_tsvector(case langcode when 'de' then 'german'::regconfig else 'english'::regconfig end, ${sql.ref(column)})`;
  await sql`
    alter table search_documents
      add column document tsvector generated always as (
        setweight(${vector('title')}, 'A') || setweight(${vector('keywords')}, 'B') || setweight(${vector('body')}, 'C')
      ) stored,
      add column heading tsvector generated always as (
        setweight(${vector('title')}, 'A') || setweight(${vector('keywords')}, 'B')
      ) stored`.execute(db);
  await sql`create index search_documents_document on search_documents using gin (document) with (fastupdate = off)`.execute(
    db,
  );
  await sql`create index search_documents_heading on search_documents using gin (heading) with (fastupdate = off)`.execute(
    db,
  );
}
