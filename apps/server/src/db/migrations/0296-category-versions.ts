import { sql, type Kysely } from 'kysely';

/**
 * News (blog) and FAQ categories edited in the console as versioned content (issue 27,
 * docs/decisions/048-versioned-content.md item 5, modules/content/README.md 'Console: categories'):
 * `version`, raised by every console save, rename or move and by an import that moves one (a
 * stale save is a 409), and `changed`, the time of the last change. Their revisions are rows of
 * `content_revisions` (kinds `news_category`, `faq_category`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['news_categories', 'faq_categories']) {
    await sql`alter table ${sql.table(table)} add column version integer not null default 1`.execute(db);
    await sql`alter table ${sql.table(table)} add column changed timestamptz not null default now()`.execute(
      db,
    );
  }
}
