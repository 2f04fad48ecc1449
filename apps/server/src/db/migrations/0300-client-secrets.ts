import { sql, type Kysely } from 'kysely';

/**
 * Client secrets with overlap (issue 28): every secret of a confidential client, sealed with the
 * secret box like `oauth_clients.secret`. `oauth_clients.secret` stays the current secret (the one
 * the application view shows); older secrets keep working until `expires_at` unless revoked.
 * `week_reminder_at` / `day_reminder_at` record (claim) the expiry reminders, sent once each.
 * The existing secrets move over as current secrets (sealed values copied as they are).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_client_secrets')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('client_id', 'text', (c) =>
      c.notNull().references('oauth_clients.client_id').onDelete('cascade'),
    )
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('week_reminder_at', 'timestamptz')
    .addColumn('day_reminder_at', 'timestamptz')
    .execute();
  await sql`create index oauth_client_secrets_client on oauth_client_secrets (client_id)`.execute(db);
  await sql`create index oauth_client_secrets_expiry on oauth_client_secrets (expires_at)
    where expires_at is not null and revoked_at is null`.execute(db);
  await sql`insert into oauth_client_secrets (client_id, secret, created_at)
    select client_id, secret, updated_at from oauth_clients where secret is not null`.execute(db);
}
