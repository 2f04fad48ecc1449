import { sql, type Kysely } from 'kysely';

/**
 * One revisions table for everything the console edits with versions (issue 27,
 * docs/decisions/048-versioned-content.md, lib/versioned-content.ts):
 * - `content_revisions`: every save's fields, who saved and when, for every kind of item ('article',
 *   'faq', 'page', 'site_content', 'quickstart_story'). Items with an integer id (articles, FAQ
 *   questions, pages, stories) name it in `item_id`; the site's texts are keyed documents
 *   ('block-layout', 'cookies-consent') and name their key in `item_key`. Exactly one of the two
 *   is set. No foreign key (one column cannot reference four tables): deleting an item deletes its
 *   revisions in the same transaction (the component's delete).
 * - The rows of `article_revisions`, `faq_revisions`, `page_revisions` and
 *   `site_content_revisions` are carried over (ids, authors and dates kept), and those tables go.
 * - Scheduled publishing for pages and FAQ questions: `publish_at` (with `published` false until
 *   then), as articles have had since migration 0274.
 * - Quick Start stories edited in the console: `version`, `published` (every story there is is
 *   published), `publish_at`, `edited_at` (the import leaves an edited story alone), `created`;
 *   `source_hash` is null for a story created in the console.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table content_revisions (
    id serial primary key,
    kind text not null,
    item_id integer,
    item_key text,
    version integer not null,
    author_id integer references users(id) on delete set null,
    author_email text,
    created timestamptz not null default now(),
    fields jsonb not null,
    constraint content_revisions_item check ((item_id is null) <> (item_key is null)),
    constraint content_revisions_id_version unique (kind, item_id, version),
    constraint content_revisions_key_version unique (kind, item_key, version)
  )`.execute(db);
  // The unique constraints are the lookups' indexes (kind, item, version); this one serves the
  // newest-first lists of an item's revisions and the deletes by item.
  await sql`create index content_revisions_item on content_revisions (kind, item_id, item_key, version desc)`.execute(
    db,
  );
  await sql`insert into content_revisions (kind, item_id, version, author_id, author_email, created, fields)
    select 'article', article_id, version, author_id, author_email, created, fields from article_revisions
    union all
    select 'faq', faq_id, version, author_id, author_email, created, fields from faq_revisions
    union all
    select 'page', page_id, version, author_id, author_email, created, fields from page_revisions
    order by created, version`.execute(db);
  await sql`insert into content_revisions (kind, item_key, version, author_id, author_email, created, fields)
    select 'site_content', key, version, author_id, author_email, created, data from site_content_revisions
    order by created, version`.execute(db);
  await sql`drop table article_revisions`.execute(db);
  await sql`drop table faq_revisions`.execute(db);
  await sql`drop table page_revisions`.execute(db);
  await sql`drop table site_content_revisions`.execute(db);

  for (const table of ['pages', 'faqs']) {
    await sql`alter table ${sql.table(table)} add column publish_at timestamptz`.execute(db);
    await sql`create index ${sql.id(`${table}_publish_at`)} on ${sql.table(table)} (publish_at) where publish_at is not null`.execute(
      db,
    );
  }

  await sql`alter table quickstart_stories add column version integer not null default 1`.execute(db);
  await sql`alter table quickstart_stories add column published boolean not null default true`.execute(db);
  await sql`alter table quickstart_stories add column publish_at timestamptz`.execute(db);
  await sql`alter table quickstart_stories add column edited_at timestamptz`.execute(db);
  await sql`alter table quickstart_stories add column created timestamptz not null default now()`.execute(db);
  await sql`alter table quickstart_stories alter column source_hash drop not null`.execute(db);
  await sql`create index quickstart_stories_publish_at on quickstart_stories (publish_at) where publish_at is not null`.execute(
    db,
  );
}
