import { sql, type Kysely } from 'kysely';

/**
 * The console's user pages (issue 27, decision 045): the list is paged newest first or by name
 * (each account's organizations come through memberships_user of 0020).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index users_created on users (created_at desc, id desc)`.execute(db);
  await sql`create index users_name_lower on users (lower(name), id)`.execute(db);
}
