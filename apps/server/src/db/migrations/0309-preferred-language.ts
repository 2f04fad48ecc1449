import { sql, type Kysely } from 'kysely';

/**
 * A signed-in user's language (issue 30): the portal's pages, the identity provider's pages and
 * the e-mails sent to them use it. Null until the user picks one; then the browser's
 * Accept-Language decides. The name is Drupal's (`preferred_langcode` on the user entity).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column preferred_langcode text`.execute(db);
}
