import { sql, type Kysely } from 'kysely';

/**
 * The version of a product's plans as the console edits them together (issue 27, catalog
 * README.md 'Console: API products'): `api_products.plans_version`, raised by every save of the
 * plans, which names the version it started from (a stale one is a 409, as every console save).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_products add column plans_version integer not null default 1`.execute(db);
}
