import { sql, type Kysely } from 'kysely';

/**
 * Products, changelogs and comparison tables made and edited in the provider console (issue 27,
 * modules/catalog/README.md 'Console: API products'):
 * - `api_products.console_created`: the product was created in the console (no content file and
 *   no OpenAPI import describes it): `export-content` writes it to content/catalog/console.yaml.
 * - `api_products.changelog_edited_at`: the last console change to the product's changelog; the
 *   content import leaves the changelog of such a product alone from then on.
 * - `change_log_entries.notes_markdown`: the Markdown an entry was written in (null: `notes`, the
 *   HTML, is its source); `edit_version`, `changed`: raised by every console save.
 * - `comparison_tables.edit_version`, `edited_at`: likewise for a comparison table.
 * - `api_documentations.plan_edited_at`: the plan was set in the console; imports keep it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_products add column console_created boolean not null default false`.execute(db);
  await sql`alter table api_products add column changelog_edited_at timestamptz`.execute(db);
  await sql`alter table change_log_entries add column notes_markdown text`.execute(db);
  await sql`alter table change_log_entries add column edit_version integer not null default 1`.execute(db);
  await sql`alter table change_log_entries add column changed timestamptz not null default now()`.execute(db);
  await sql`alter table comparison_tables add column edit_version integer not null default 1`.execute(db);
  await sql`alter table comparison_tables add column edited_at timestamptz`.execute(db);
  await sql`alter table api_documentations add column plan_edited_at timestamptz`.execute(db);
}
