import { sql, type Kysely } from 'kysely';

/**
 * The converted OpenAPI document and its index as `json`, not `jsonb`: jsonb stores object keys
 * sorted by length, which scrambles the order of paths and schema properties that readers of the
 * reference and of the downloaded document rely on. `json` keeps the text as written (and is
 * cheaper to store); the gateway reads it the same way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_documentations
    alter column converted type json using converted::json,
    alter column operation_index type json using operation_index::json`.execute(db);
}
