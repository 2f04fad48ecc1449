import type { ApiDayCalls } from '@portico/contracts/console-dashboard';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { appDb } from './tables.ts';

/** A range of instants: `start` inclusive, `end` exclusive. */
interface InstantRange {
  start: Date;
  end: Date;
}

/** The UTC days of a range of whole days, as the rollup's `date` column compares them. */
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Organizations active in the range: one of their applications was created in it, or called the
 * sandbox in it (the gateway's rollup per day, API and application, migration 0279). One query.
 * The range is of whole UTC days.
 */
export async function activeOrganizations(db: Db, range: InstantRange): Promise<number> {
  const row = await appDb(db)
    .selectFrom('applications as a')
    .select(sql<number>`count(distinct a.organization_id)`.as('count'))
    .where((eb) =>
      eb.or([
        eb.and([eb('a.created', '>=', range.start), eb('a.created', '<', range.end)]),
        eb(
          'a.uuid',
          'in',
          db
            .selectFrom('api_calls_per_api_day')
            .select(sql<string>`application_uuid`.as('uuid'))
            .where('day', '>=', dayOf(range.start))
            .where('day', '<', dayOf(range.end))
            .where('application_uuid', 'is not', null),
        ),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every application now, by environment (PRODUCTION: it went live); one query. */
export async function applicationsPerEnvironment(
  db: Db,
): Promise<{ development: number; production: number }> {
  const rows = await appDb(db)
    .selectFrom('applications')
    .select(['status', sql<number>`count(*)`.as('count')])
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.count ?? 0);
  return { development: count('DEVELOPMENT'), production: count('PRODUCTION') };
}

/**
 * Sandbox calls and errors (status 400 or more) per API per UTC day of the range (whole UTC days),
 * from the gateway's rollup per day, API and application (migration 0279): a few rows per day
 * whatever the number of calls. One query.
 */
export async function callsPerApiPerDay(db: Db, range: InstantRange): Promise<ApiDayCalls[]> {
  const rows = await db
    .selectFrom('api_calls_per_api_day')
    .select([
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
      'api_alias',
      sql<number>`sum(calls)`.as('calls'),
      sql<number>`sum(errors)`.as('errors'),
    ])
    .where('day', '>=', dayOf(range.start))
    .where('day', '<', dayOf(range.end))
    .groupBy(['day', 'api_alias'])
    .orderBy('day')
    .orderBy('api_alias')
    .execute();
  return rows.map((r) => ({
    day: r.day,
    api: r.api_alias,
    calls: Number(r.calls),
    errors: Number(r.errors),
  }));
}

/**
 * The go-live requests waiting for a decision at `now`, with the age of the oldest and the median
 * age, in seconds (null when none waits). One query, through `go_live_requests_status`.
 */
export async function goLiveWaiting(
  db: Db,
  now: Date,
): Promise<{ waiting: number; oldestAgeSeconds: number | null; medianAgeSeconds: number | null }> {
  const age = sql<number>`extract(epoch from (${now}::timestamptz - created))`;
  const row = await appDb(db)
    .selectFrom('go_live_requests')
    .select([
      sql<number>`count(*)`.as('waiting'),
      sql<number | null>`max(${age})`.as('oldest'),
      sql<number | null>`percentile_cont(0.5) within group (order by ${age})`.as('median'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const seconds = (v: number | string | null) => (v === null ? null : Math.max(0, Math.round(Number(v))));
  return {
    waiting: Number(row.waiting),
    oldestAgeSeconds: seconds(row.oldest),
    medianAgeSeconds: seconds(row.median),
  };
}
