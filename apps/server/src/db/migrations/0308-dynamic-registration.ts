import { sql, type Kysely } from 'kysely';

/**
 * Dynamic client registration (issue 28, decision 052): an application created by a TPP's own
 * tooling at the authorization server's registration endpoint (RFC 7591) names the application
 * whose software statement it registered with. Null for applications created on the portal. No
 * foreign key: deleting the application the statement was issued for keeps the registered ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications add column registered_from uuid`.execute(db);
}
