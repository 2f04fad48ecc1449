import { sql, type Kysely } from 'kysely';

/**
 * The default-language text each translated leaf of a structured document was translated from
 * (decision 064, amended): `content_translations.sources`, a JSON pointer to its English, written
 * with an overlay. Reads find a leaf the English edits moved (a reordered step, a footer column
 * inserted before others) by that text and show its translation there, not under the text that
 * took its place. Null for the other kinds and for overlays written before: applied as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table content_translations
      add column sources jsonb check (sources is null or jsonb_typeof(sources) = 'object')`.execute(db);
}
