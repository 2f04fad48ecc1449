import { sql, type Kysely } from 'kysely';

/**
 * API products edited in the provider console (issue 27, modules/catalog/README.md 'Console: API
 * products'):
 * - `api_products.edit_version`: raised by every console save; a save names the version it started
 *   from and a stale one is refused (optimistic concurrency). (`version` is the product's own
 *   version label, e.g. '1.0'.)
 * - `api_products.successor_id`: the product a deprecated one's 'GO TO NEW VERSION' leads to; null
 *   leaves it to the newest version of the same family.
 * - `api_products.retired`: out of the catalog, its lists, its search and new subscriptions;
 *   existing subscriptions stay.
 * - `api_products.edited_at`: the last save through the console; the content import never replaces
 *   what the console edited.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_products add column edit_version integer not null default 1`.execute(db);
  await sql`alter table api_products add column successor_id integer references api_products(id) on delete set null`.execute(
    db,
  );
  await sql`alter table api_products add constraint api_products_successor_not_self check (successor_id <> id)`.execute(
    db,
  );
  await sql`alter table api_products add column retired boolean not null default false`.execute(db);
  await sql`alter table api_products add column edited_at timestamptz`.execute(db);
}
