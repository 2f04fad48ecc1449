import type { ApiDayCalls } from '@portico/contracts/console-dashboard';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { appDb } from './tables.ts';

/** A range of instants: `start` inclusive, `end` exclusive. */
interface InstantRange {
  start: Date;
  end: Date;
}

/**
 * Organizations active in the range: one of their applications was created in it, or called the
 * sandbox in it (the gateway's records, `api_calls`). One query; the calls are read through
 * `api_calls_occurred_at` (migration 0273).
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
            .selectFrom('api_calls')
            .select(sql<string>`application_uuid`.as('uuid'))
            .where('occurred_at', '>=', range.start)
            .where('occurred_at', '<', range.end)
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
 * Sandbox calls and errors (status 400 or more) per API per UTC day of the range, from the
 * gateway's records; an index-only scan of `api_calls_occurred_at` (migration 0273). One query.
 */
export async function callsPerApiPerDay(db: Db, range: InstantRange): Promise<ApiDayCalls[]> {
  const rows = await db
    .selectFrom('api_calls')
    .select([
      sql<string>`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      'api_alias',
      sql<number>`count(*)`.as('calls'),
      sql<number>`count(*) filter (where status >= 400)`.as('errors'),
    ])
    .where('occurred_at', '>=', range.start)
    .where('occurred_at', '<', range.end)
    .groupBy([sql`1`, 'api_alias'])
    .orderBy(sql`1`)
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
