import { sql, type Kysely } from 'kysely';

/**
 * Basic pages edited in the provider console (issue 27, modules/pages/README.md 'Console'):
 * - `pages.body_markdown`: the Markdown the page is written in (the files' format); the console
 *   edits it and `body_html` stays its sanitized rendering. Null for rows imported before: the
 *   import fills it in (its rendering version changed).
 * - `pages.version`: raised by every save; an update names the version it started from, and a
 *   stale one is refused (optimistic concurrency).
 * - `pages.published`: a draft page answers no visitor and is not in the site search. Every page
 *   there is is published.
 * - `pages.edited_at`: the last save through the console; the content import never replaces a
 *   page edited in the browser.
 * - `pages.source_file`: the content file (relative to content/) the page was imported from or
 *   exported to, so that the export keeps file names.
 * - `page_revisions`: every save's fields, who saved and when.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pages add column body_markdown text`.execute(db);
  await sql`alter table pages add column version integer not null default 1`.execute(db);
  await sql`alter table pages add column published boolean not null default true`.execute(db);
  await sql`alter table pages add column edited_at timestamptz`.execute(db);
  await sql`alter table pages add column source_file text`.execute(db);
  await sql`create table page_revisions (
    id serial primary key,
    page_id integer not null references pages(id) on delete cascade,
    version integer not null,
    author_id integer references users(id) on delete set null,
    author_email text,
    created timestamptz not null default now(),
    fields jsonb not null,
    unique (page_id, version)
  )`.execute(db);
}
