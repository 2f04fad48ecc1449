import type { DailyEndpointAggregate, EndpointAggregate } from '@portico/contracts/applications';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/**
 * Usage analytics from the gateway's per-day rollup `api_call_daily` (one row per client, day and
 * endpoint), never from the raw calls: a month of one application is at most 31 rows per
 * endpoint and client, whatever the traffic.
 */
export const ANALYTICS_SETTING = 'app-analytics';

export async function analyticsEnabled(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', ANALYTICS_SETTING)
    .executeTakeFirst();
  return (row?.value as { enabled?: unknown } | undefined)?.enabled === true;
}

export async function setAnalyticsEnabled(db: Db, enabled: boolean): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: ANALYTICS_SETTING, value: JSON.stringify({ enabled }) })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: JSON.stringify({ enabled }), updated_at: new Date() }),
    )
    .execute();
}

export interface Range {
  /** 'YYYY-MM-DD', inclusive (UTC days). */
  from: string;
  to: string;
}

interface Row {
  endpoint: string;
  min_ms: number;
  max_ms: number;
  sum_ms: number;
  calls: number;
  success_calls: number;
  failed_calls: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

function aggregate(r: Row): EndpointAggregate {
  const calls = Number(r.calls);
  return {
    endpoint: r.endpoint,
    minExecutionTime: round(Number(r.min_ms)),
    avgExecutionTime: calls ? round(Number(r.sum_ms) / calls) : 0,
    maxExecutionTime: round(Number(r.max_ms)),
    successCalls: Number(r.success_calls),
    failedCalls: Number(r.failed_calls),
    totalCalls: calls,
  };
}

/** Per endpoint over the range, slowest (by average) first. */
export async function endpointAggregates(
  db: Db,
  clientIds: string[],
  range: Range,
): Promise<EndpointAggregate[]> {
  if (!clientIds.length) return [];
  const rows = await db
    .selectFrom('api_call_daily')
    .select([
      'endpoint',
      sql<number>`min(min_ms)`.as('min_ms'),
      sql<number>`max(max_ms)`.as('max_ms'),
      sql<number>`sum(sum_ms)`.as('sum_ms'),
      sql<number>`sum(calls)`.as('calls'),
      sql<number>`sum(success_calls)`.as('success_calls'),
      sql<number>`sum(failed_calls)`.as('failed_calls'),
    ])
    .where('client_id', 'in', clientIds)
    .where(sql<boolean>`day between ${range.from}::date and ${range.to}::date`)
    .groupBy('endpoint')
    .execute();
  return rows
    .map(aggregate)
    .sort((a, b) => b.avgExecutionTime - a.avgExecutionTime || a.endpoint.localeCompare(b.endpoint));
}

/** Per endpoint and day over the range, by day then endpoint. */
export async function dailyAggregates(
  db: Db,
  clientIds: string[],
  range: Range,
): Promise<DailyEndpointAggregate[]> {
  if (!clientIds.length) return [];
  const rows = await db
    .selectFrom('api_call_daily')
    .select([
      'endpoint',
      sql<string>`to_char(day, 'YYYY-MM-DD')`.as('reference_date'),
      sql<number>`min(min_ms)`.as('min_ms'),
      sql<number>`max(max_ms)`.as('max_ms'),
      sql<number>`sum(sum_ms)`.as('sum_ms'),
      sql<number>`sum(calls)`.as('calls'),
      sql<number>`sum(success_calls)`.as('success_calls'),
      sql<number>`sum(failed_calls)`.as('failed_calls'),
    ])
    .where('client_id', 'in', clientIds)
    .where(sql<boolean>`day between ${range.from}::date and ${range.to}::date`)
    .groupBy(['endpoint', 'day'])
    .orderBy('day')
    .orderBy('endpoint')
    .execute();
  return rows.map((r) => ({ ...aggregate(r), referenceDate: r.reference_date }));
}
