import { sql, type Kysely } from 'kysely';

/**
 * Drops migration 0273's `api_calls (occurred_at) include (api_alias, status, application_uuid)`.
 * Its reader, the console dashboard's calls per API per day, reads the rollup
 * `api_calls_per_api_day` since migration 0279, and the only query of the raw calls left (which
 * applications called which operations of an API lately, the audience of a breaking-change
 * notice) goes through `api_calls_alias_time (api_alias, occurred_at)` of migration 0275. Every
 * recorded sandbox call paid for an entry nobody read: the widest of the table's indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists api_calls_occurred_at`.execute(db);
}
