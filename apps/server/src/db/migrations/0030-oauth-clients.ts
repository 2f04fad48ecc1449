import { sql, type Kysely } from 'kysely';

/**
 * The API authorization server's clients (one per application and environment, or standalone),
 * the scopes granted to clients directly, and the sandbox's demo bank customers who sign in
 * during the authorization_code flow.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    // Sealed with the secret box; null for a public client (PKCE, no secret).
    .addColumn('secret', 'text')
    .addColumn('application_uuid', 'uuid')
    .addColumn('environment', 'text', (c) =>
      c.notNull().check(sql`environment in ('DEVELOPMENT', 'PRODUCTION')`),
    )
    .addColumn('grant_types', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('redirect_uris', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('post_logout_redirect_uris', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index oauth_clients_application on oauth_clients (application_uuid, environment) where application_uuid is not null`.execute(
    db,
  );

  await db.schema
    .createTable('oauth_client_scopes')
    .addColumn('client_id', 'text', (c) =>
      c.notNull().references('oauth_clients.client_id').onDelete('cascade'),
    )
    .addColumn('scope', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_client_scopes_pk', ['client_id', 'scope'])
    .execute();

  await db.schema
    .createTable('sandbox_users')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index sandbox_users_username on sandbox_users (lower(username))`.execute(db);
}
