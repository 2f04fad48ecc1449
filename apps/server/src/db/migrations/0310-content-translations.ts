import { sql, type Kysely } from 'kysely';
import { trackDataChanges } from '../data-versions.ts';

/**
 * Content translations (issue 30, decision 063): one row per translated item and language, its
 * translatable fields only, as JSON. The default language's text stays in the item's own table.
 * `entity_type` names the owning module's kind (`article`, `faq`, `page`, …), `entity_id` its
 * item as the console names it (an integer id or a key, as text). Rows of a deleted item are
 * removed by its module in the delete's transaction (no foreign key: one table serves many).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table content_translations (
      entity_type text not null,
      entity_id text not null,
      langcode text not null check (langcode ~ '^[a-z]{2,3}$'),
      fields jsonb not null check (jsonb_typeof(fields) = 'object'),
      updated timestamptz not null default now(),
      updated_by integer references users (id) on delete set null,
      primary key (entity_type, entity_id, langcode)
    )`.execute(db);
  // A list page reads every translation of one kind in one language.
  await sql`create index content_translations_by_language on content_translations (entity_type, langcode)`.execute(
    db,
  );
  // Cached public answers that show translations list this domain beside their own.
  await trackDataChanges(db, 'translations', ['content_translations']);
}
