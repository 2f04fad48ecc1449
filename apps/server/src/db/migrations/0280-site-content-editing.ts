import { sql, type Kysely } from 'kysely';

/**
 * The site's own texts edited in the provider console (issue 27, modules/site/README.md
 * 'Console'): the block layout (carousel, awards, bottom banners, footer, social links, getting
 * started, promotional banners) and the cookie popup's texts.
 * - `site_content.version`: raised by every save; a save names the version it started from, and a
 *   stale one is refused (optimistic concurrency).
 * - `site_content.edited_at`: the last save through the console; from then on the content import
 *   leaves that document alone.
 * - `site_content_revisions`: every save's document, who saved and when.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table site_content add column version integer not null default 1`.execute(db);
  await sql`alter table site_content add column edited_at timestamptz`.execute(db);
  await sql`create table site_content_revisions (
    id serial primary key,
    key text not null references site_content(key) on delete cascade,
    version integer not null,
    author_id integer references users(id) on delete set null,
    author_email text,
    created timestamptz not null default now(),
    data jsonb not null,
    unique (key, version)
  )`.execute(db);
}
