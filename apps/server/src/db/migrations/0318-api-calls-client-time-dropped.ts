import { sql, type Kysely } from 'kysely';

/**
 * Drops migration 0031's `api_calls (client_id, occurred_at)`. Analytics never read the raw calls:
 * an application's figures come from the rollup `api_call_daily`, kept with every recorded batch,
 * and the only query of the raw calls left (the audience of a breaking-change notice) goes through
 * `api_calls_alias_time` (migration 0275). Every recorded sandbox call paid for an entry of an index
 * only `bench:analytics` read, to check the rollup against the raw rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists api_calls_client_time`.execute(db);
}
