import { sql, type Kysely } from 'kysely';

/**
 * Articles edited in the provider console (issue 27, modules/content/README.md 'Console'):
 * - `articles.body_markdown`: the Markdown the article is written in (the files' format); the
 *   console edits it and `body_html` stays its sanitized rendering.
 * - `articles.version`: raised by every save; an update names the version it started from, and a
 *   stale one is refused (optimistic concurrency).
 * - `articles.publish_at`: a scheduled publication (with `published` false until then); the
 *   scheduler publishes it once, whichever instance runs first (the row's lock decides).
 * - `articles.edited_at`: the last save through the console; the content import never replaces
 *   an article edited in the browser.
 * - `article_revisions`: every save's fields, who saved and when.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table articles add column body_markdown text`.execute(db);
  await sql`alter table articles add column version integer not null default 1`.execute(db);
  await sql`alter table articles add column publish_at timestamptz`.execute(db);
  await sql`alter table articles add column edited_at timestamptz`.execute(db);
  await sql`create index articles_publish_at on articles (publish_at) where publish_at is not null`.execute(
    db,
  );
  await sql`create table article_revisions (
    id serial primary key,
    article_id integer not null references articles(id) on delete cascade,
    version integer not null,
    author_id integer references users(id) on delete set null,
    author_email text,
    created timestamptz not null default now(),
    fields jsonb not null,
    unique (article_id, version)
  )`.execute(db);
}
