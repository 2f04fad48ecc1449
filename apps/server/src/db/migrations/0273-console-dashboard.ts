import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the provider console's dashboard (issue 27, modules/console-dashboard): each figure
 * reads a date range (or the pending and open rows) through an index instead of a whole table.
 * - `api_calls (occurred_at)` covering the API, the status and the application: the calls and
 *   errors per API per day, and which applications called, are an index-only scan of the range.
 * - `users (created_at)`, `applications (created)`: sign-ups, applications created in the range.
 * - the open tickets by severity (a partial index; the pending go-live requests have
 *   `go_live_requests_status (status, created)` since migration 0050).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index api_calls_occurred_at on api_calls (occurred_at) include (api_alias, status, application_uuid)`.execute(
    db,
  );
  await sql`create index users_created_at on users (created_at)`.execute(db);
  await sql`create index applications_created on applications (created)`.execute(db);
  await sql`create index support_tickets_open_severity on support_tickets (severity) where status = 'OPEN'`.execute(
    db,
  );
}
