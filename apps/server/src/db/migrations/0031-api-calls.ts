import { sql, type Kysely } from 'kysely';

/**
 * Sandbox gateway calls for analytics: raw records, and a per-day per-endpoint rollup kept up to
 * date on every flush so that analytics queries never scan the raw calls.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_calls')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('application_uuid', 'uuid')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('api_alias', 'text', (c) => c.notNull())
    // Method and path template, e.g. 'GET /accounts/{accountId}'.
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'real', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('api_calls_client_time')
    .on('api_calls')
    .columns(['client_id', 'occurred_at'])
    .execute();

  await db.schema
    .createTable('api_call_daily')
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('calls', 'integer', (c) => c.notNull())
    .addColumn('success_calls', 'integer', (c) => c.notNull())
    .addColumn('failed_calls', 'integer', (c) => c.notNull())
    .addColumn('min_ms', 'real', (c) => c.notNull())
    .addColumn('max_ms', 'real', (c) => c.notNull())
    .addColumn('sum_ms', sql`double precision`, (c) => c.notNull())
    .addPrimaryKeyConstraint('api_call_daily_pk', ['client_id', 'day', 'endpoint'])
    .execute();
}
