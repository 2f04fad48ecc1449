import { sql, type Kysely } from 'kysely';

/**
 * The PSD2 roles an API product requires (issue 28): an application linked to a sandbox or real
 * PSD2 certificate may subscribe only to products whose roles its certificate holds, and its
 * tokens carry only those products' scopes. Empty: no role required (every product until now).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_products add column psd2_roles text[] not null default '{}'`.execute(db);
}
