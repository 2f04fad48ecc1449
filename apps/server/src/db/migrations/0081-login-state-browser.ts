import { type Kysely } from 'kysely';

/**
 * A login state belongs to the browser that asked for it (RFC 6749 10.12): the sha256 of that
 * browser's login cookie. Without it, a code and state obtained by someone else could be handed to
 * a victim's browser, which would then be signed in to the other person's account (login CSRF).
 * Rows from before this column (null) are refused: they expire within the hour anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('login_states').addColumn('browser_hash', 'text').execute();
}
