import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';

export interface CallRecord {
  occurredAt: Date;
  applicationUuid: string | null;
  clientId: string;
  environment: string;
  apiAlias: string;
  /** Method and path template, e.g. 'GET /accounts/{accountId}'. */
  endpoint: string;
  method: string;
  status: number;
  durationMs: number;
}

/** A flush starts at most this long after the first record it will write (the crash window). */
export const FLUSH_INTERVAL_MS = 250;
/** ... or as soon as this many records wait. */
export const FLUSH_AT = 1_000;
/** Records per transaction: its rows and its rollups together (a few ms of work on PGlite). */
export const WRITE_ROWS = 250;
/** Records kept while the database is unreachable; beyond this the oldest are dropped. */
const MAX_PENDING = 50_000;

/** Lets the event loop answer what arrived meanwhile (PGlite runs on this thread). */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Gateway calls for analytics, recorded without slowing the call (decision 055): queued in memory
 * and written at most FLUSH_INTERVAL_MS after they were queued, or as soon as FLUSH_AT wait, in
 * transactions of WRITE_ROWS records: one insert of all their rows into `api_calls` (one JSON
 * parameter, whatever the number of rows) and the per-day rollups (`api_call_daily` per client and
 * endpoint, `api_calls_per_api_day` per API and application) updated once per transaction from
 * the rows it adds. `close()` (the app's onClose, so a graceful stop) writes everything still
 * queued; a crash loses what was queued and not yet committed, at most about FLUSH_INTERVAL_MS of
 * calls (or FLUSH_AT records) plus the transaction being written.
 */
export function createCallRecorder(db: Db, log: FastifyBaseLogger) {
  let buffer: CallRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let flushing = false;

  async function write(batch: CallRecord[]): Promise<void> {
    const daily = new Map<
      string,
      {
        day: string;
        client_id: string;
        endpoint: string;
        calls: number;
        success: number;
        failed: number;
        min: number;
        max: number;
        sum: number;
      }
    >();
    // Per day, API and application (the console's dashboard, migration 0279).
    const perApi = new Map<
      string,
      { day: string; api_alias: string; application_uuid: string | null; calls: number; errors: number }
    >();
    for (const r of batch) {
      const day = r.occurredAt.toISOString().slice(0, 10);
      const apiKey = `${day}\n${r.apiAlias}\n${r.applicationUuid ?? ''}`;
      const p = perApi.get(apiKey);
      if (p) {
        p.calls++;
        if (r.status >= 400) p.errors++;
      } else {
        perApi.set(apiKey, {
          day,
          api_alias: r.apiAlias,
          application_uuid: r.applicationUuid,
          calls: 1,
          errors: r.status >= 400 ? 1 : 0,
        });
      }
      const key = `${r.clientId}\n${day}\n${r.endpoint}`;
      const ok = r.status < 400;
      const d = daily.get(key);
      if (d) {
        d.calls++;
        if (ok) d.success++;
        else d.failed++;
        d.min = Math.min(d.min, r.durationMs);
        d.max = Math.max(d.max, r.durationMs);
        d.sum += r.durationMs;
      } else {
        daily.set(key, {
          day,
          client_id: r.clientId,
          endpoint: r.endpoint,
          calls: 1,
          success: ok ? 1 : 0,
          failed: ok ? 0 : 1,
          min: r.durationMs,
          max: r.durationMs,
          sum: r.durationMs,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      // One parameter for all the rows: a statement of 250 × 9 parameters costs about twice as
      // much to parse and plan.
      const rows = JSON.stringify(
        batch.map((r) => ({
          occurred_at: r.occurredAt.toISOString(),
          application_uuid: r.applicationUuid,
          client_id: r.clientId,
          environment: r.environment,
          api_alias: r.apiAlias,
          endpoint: r.endpoint,
          method: r.method,
          status: r.status,
          duration_ms: r.durationMs,
        })),
      );
      await sql`insert into api_calls
          (occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms)
        select occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms
        from json_to_recordset(${rows}::json) as r(occurred_at timestamptz, application_uuid uuid,
          client_id text, environment text, api_alias text, endpoint text, method text, status integer,
          duration_ms real)`.execute(trx);
      // Sorted so that concurrent flushes of several instances lock rollup rows in the same order.
      const dailyRows = [...daily.values()].sort((a, b) =>
        a.client_id === b.client_id
          ? a.day === b.day
            ? a.endpoint.localeCompare(b.endpoint)
            : a.day.localeCompare(b.day)
          : a.client_id.localeCompare(b.client_id),
      );
      await trx
        .insertInto('api_call_daily')
        .values(
          dailyRows.map((d) => ({
            day: d.day,
            client_id: d.client_id,
            endpoint: d.endpoint,
            calls: d.calls,
            success_calls: d.success,
            failed_calls: d.failed,
            min_ms: d.min,
            max_ms: d.max,
            sum_ms: d.sum,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['client_id', 'day', 'endpoint']).doUpdateSet({
            calls: sql`api_call_daily.calls + excluded.calls`,
            success_calls: sql`api_call_daily.success_calls + excluded.success_calls`,
            failed_calls: sql`api_call_daily.failed_calls + excluded.failed_calls`,
            min_ms: sql`least(api_call_daily.min_ms, excluded.min_ms)`,
            max_ms: sql`greatest(api_call_daily.max_ms, excluded.max_ms)`,
            sum_ms: sql`api_call_daily.sum_ms + excluded.sum_ms`,
          }),
        )
        .execute();
      // In key order too, for the same reason.
      const apiRows = [...perApi.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, p]) => p);
      await trx
        .insertInto('api_calls_per_api_day')
        .values(apiRows)
        .onConflict((oc) =>
          oc.constraint('api_calls_per_api_day_key').doUpdateSet({
            calls: sql`api_calls_per_api_day.calls + excluded.calls`,
            errors: sql`api_calls_per_api_day.errors + excluded.errors`,
          }),
        )
        .execute();
    });
  }

  async function flushOnce(): Promise<void> {
    flushing = true;
    try {
      let first = true;
      while (buffer.length) {
        // Between transactions, the requests that arrived meanwhile are answered.
        if (!first) await turn();
        first = false;
        const batch = buffer.slice(0, WRITE_ROWS);
        buffer = buffer.slice(batch.length);
        try {
          await write(batch);
        } catch (err) {
          // Kept for the next flush (the database may be restarting); bounded.
          buffer = [...batch, ...buffer].slice(-MAX_PENDING);
          log.warn({ err, pending: buffer.length }, 'recording gateway calls failed; will retry');
          schedule();
          return;
        }
      }
    } finally {
      flushing = false;
    }
  }

  /** Flushes are serialized: a flush waits for the one in progress, then writes what is left. */
  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    chain = chain.then(flushOnce);
    return chain;
  }

  function schedule(): void {
    if (!timer) {
      timer = setTimeout(() => void flush(), FLUSH_INTERVAL_MS);
      timer.unref();
    }
  }

  return {
    record(call: CallRecord): void {
      buffer.push(call);
      // A flush in progress writes what arrives meanwhile too.
      if (flushing) return;
      if (buffer.length >= FLUSH_AT) void flush();
      else schedule();
    },
    flush,
    get pending(): number {
      return buffer.length;
    },
    async close(): Promise<void> {
      await flush();
    },
  };
}

export type CallRecorder = ReturnType<typeof createCallRecorder>;
