import { sql, type Kysely } from 'kysely';

/**
 * Applications of organizations, their product subscriptions and go-live requests (spec A 3, 4),
 * and the analytics switch. The OAuth clients of an application live in `oauth_clients`
 * (application_uuid, environment). Column types for Kysely: modules/applications/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('applications')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('organization_id', 'integer', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    // Sanitized HTML.
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('grant_types', sql`text[]`, (c) => c.notNull())
    .addColumn('redirect_uris', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('post_logout_redirect_uris', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    // The environment (spec: applicationStatus). The organizations module's delete check reads it.
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('DEVELOPMENT')
        .check(sql`status in ('DEVELOPMENT', 'PRODUCTION')`),
    )
    // The latest go-live request's state; null before the first request.
    .addColumn('golive_status', 'text', (c) =>
      c.check(sql`golive_status in ('pending', 'approved', 'rejected')`),
    )
    .addColumn('golive_reason', 'text')
    // POST /secret/delete: the secret of that environment is unknown to everyone until a reset.
    .addColumn('development_secret_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('production_secret_deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('applications_organization')
    .on('applications')
    .columns(['organization_id', 'created'])
    .execute();
  await db.schema.createIndex('applications_created_by').on('applications').column('created_by').execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('application_id', 'integer', (c) =>
      c.notNull().references('applications.id').onDelete('cascade'),
    )
    .addColumn('product_id', 'integer', (c) => c.notNull().references('api_products.id').onDelete('cascade'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('subscriptions_pk', ['application_id', 'product_id'])
    .execute();
  await db.schema.createIndex('subscriptions_product').on('subscriptions').column('product_id').execute();

  await db.schema
    .createTable('go_live_requests')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    // Kept after the application is deleted: the review record stays.
    .addColumn('application_id', 'integer', (c) => c.references('applications.id').onDelete('set null'))
    .addColumn('organization_id', 'integer', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('application_title', 'text', (c) => c.notNull())
    // The node title: application title plus Unix seconds (spec A 3).
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('developer_type', 'text', (c) =>
      c.notNull().check(sql`developer_type in ('Personal', 'Company')`),
    )
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('site_url', 'text', (c) => c.notNull())
    .addColumn('use_cases', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'approved', 'rejected')`),
    )
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // At most one request under review per application.
  await sql`create unique index go_live_requests_pending on go_live_requests (application_id) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('go_live_requests_status')
    .on('go_live_requests')
    .columns(['status', 'created'])
    .execute();
  await db.schema
    .createIndex('go_live_requests_application')
    .on('go_live_requests')
    .column('application_id')
    .execute();
  await db.schema
    .createIndex('go_live_requests_organization')
    .on('go_live_requests')
    .column('organization_id')
    .execute();

  // GET /phpsdk/app-analytics/enabled answers '1' while this is on.
  await sql`insert into settings (key, value) values ('app-analytics', '{"enabled": true}'::jsonb)
    on conflict (key) do nothing`.execute(db);
}
