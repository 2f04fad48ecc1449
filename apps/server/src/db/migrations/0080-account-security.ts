import { sql, type Kysely } from 'kysely';

/**
 * Account security (issue 10): e-mail verification links, the clients an account has signed in
 * from (they keep working while an address is being guessed at), and the growing sign-in delays.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Single-use, expiring links that prove an address; only the token's sha256 is kept. The address
  // is stored with the link: a link proves the address it was sent to, not whatever the account
  // holds when it is opened.
  await db.schema
    .createTable('email_verifications')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('email_verifications_user')
    .on('email_verifications')
    .column('user_id')
    .execute();

  // A device (its cookie) or an IP address an account has signed in from with the right password,
  // as sha256 of 'device:<id>' or 'ip:<address>'.
  await db.schema
    .createTable('trusted_sign_ins')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_hash', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('trusted_sign_ins_pk', ['user_id', 'client_hash'])
    .execute();

  // Throttled counters: the earliest time the next attempt is let through.
  await db.schema.alterTable('rate_limits').addColumn('next_allowed_at', 'timestamptz').execute();
}
