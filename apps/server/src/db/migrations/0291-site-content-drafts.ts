import { sql, type Kysely } from 'kysely';

/**
 * Drafts and scheduled publication of the site's texts (issue 27, modules/site/README.md
 * 'Console'): next to the live document (`data`, what the site shows) a site document may hold ONE
 * pending version.
 * - `site_content.draft`: the pending document, or null; saving a draft leaves `data` alone.
 * - `site_content.publish_at`: when the pending document goes live (the versioned-content
 *   scheduler moves `draft` into `data`), or null for a draft that waits for a person.
 * - `content_revisions.state`: whether a revision's save published its document, stored it as a
 *   draft or scheduled it (null for kinds whose revisions say their state in their fields).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table site_content add column draft jsonb`.execute(db);
  await sql`alter table site_content add column publish_at timestamptz`.execute(db);
  await sql`alter table site_content add constraint site_content_publish_at_needs_draft
    check (publish_at is null or draft is not null)`.execute(db);
  await sql`alter table content_revisions add column state text
    check (state in ('published', 'draft', 'scheduled'))`.execute(db);
}
