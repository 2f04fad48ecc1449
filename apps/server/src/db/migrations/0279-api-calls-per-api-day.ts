import { sql, type Kysely } from 'kysely';

/**
 * The gateway's calls per UTC day, API and application (issue 27, the console's dashboard): a
 * rollup the call recorder keeps in the same transaction as the raw `api_calls` rows, as it keeps
 * `api_call_daily` per client and endpoint. The dashboard's calls and error rates per API per day
 * and its active organizations read it instead of every call of the range (10 million calls
 * over 90 days are a few thousand rows here). `application_uuid` is null for a call no application
 * made (an unknown client); such calls are one row per day and API (`nulls not distinct`).
 * Filled from the calls recorded so far.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table api_calls_per_api_day (
    day date not null,
    api_alias text not null,
    application_uuid uuid,
    calls integer not null,
    errors integer not null,
    constraint api_calls_per_api_day_key unique nulls not distinct (day, api_alias, application_uuid)
  )`.execute(db);
  await sql`insert into api_calls_per_api_day (day, api_alias, application_uuid, calls, errors)
    select (occurred_at at time zone 'UTC')::date, api_alias, application_uuid,
           count(*), count(*) filter (where status >= 400)
    from api_calls
    group by 1, 2, 3`.execute(db);
}
