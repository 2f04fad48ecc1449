import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { uncountedWriter, type Db } from '../db/client.ts';

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
/** Records per statement: its rows and its rollups together (a few ms of work on PGlite). */
export const WRITE_ROWS = 250;
/** Records kept while the database is unreachable; beyond this the oldest are dropped. */
const MAX_PENDING = 50_000;

/**
 * A batch's rows and the rollups of the same rows in one statement (atomic on its own, one round
 * trip): the rows arrive as one JSON parameter of arrays (half the characters of objects with
 * keys), and the per-day rollups are counted by the database from the same parameter.
 * `api_call_daily` per client, day and endpoint; `api_calls_per_api_day` per day, API and
 * application (the console's dashboard, migration 0279); days in UTC. Each rollup's rows are
 * inserted in key order, so that concurrent writes of several instances lock them in the same order.
 */
const insertBatch = (rows: string) => sql`with r as (
    select (e->>0)::timestamptz as occurred_at, (e->>1)::uuid as application_uuid,
      e->>2 as client_id, e->>3 as environment, e->>4 as api_alias, e->>5 as endpoint,
      e->>6 as method, (e->>7)::integer as status, (e->>8)::double precision as duration_ms,
      ((e->>0)::timestamptz at time zone 'UTC')::date as day
    from json_array_elements(${rows}::json) as e
  ), calls as (
    insert into api_calls
      (occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms)
    select occurred_at, application_uuid, client_id, environment, api_alias, endpoint, method, status, duration_ms
    from r
  ), daily as (
    insert into api_call_daily
      (day, client_id, endpoint, calls, success_calls, failed_calls, min_ms, max_ms, sum_ms)
    select day, client_id, endpoint, count(*), count(*) filter (where status < 400),
      count(*) filter (where status >= 400), min(duration_ms), max(duration_ms), sum(duration_ms)
    from r group by client_id, day, endpoint order by client_id, day, endpoint
    on conflict (client_id, day, endpoint) do update set
      calls = api_call_daily.calls + excluded.calls,
      success_calls = api_call_daily.success_calls + excluded.success_calls,
      failed_calls = api_call_daily.failed_calls + excluded.failed_calls,
      min_ms = least(api_call_daily.min_ms, excluded.min_ms),
      max_ms = greatest(api_call_daily.max_ms, excluded.max_ms),
      sum_ms = api_call_daily.sum_ms + excluded.sum_ms
  )
  insert into api_calls_per_api_day (day, api_alias, application_uuid, calls, errors)
  select day, api_alias, application_uuid, count(*), count(*) filter (where status >= 400)
  from r group by day, api_alias, application_uuid order by day, api_alias, application_uuid
  on conflict on constraint api_calls_per_api_day_key do update set
    calls = api_calls_per_api_day.calls + excluded.calls,
    errors = api_calls_per_api_day.errors + excluded.errors`;

/**
 * Gateway calls for analytics, recorded without slowing the call (decisions 055, 067): queued in
 * memory and written at most FLUSH_INTERVAL_MS after they were queued, or as soon as FLUSH_AT wait,
 * in statements of WRITE_ROWS records that insert their rows into `api_calls` and update the
 * per-day rollups from them. A flush writes what was queued when it began; what arrives meanwhile
 * waits for the next one (a timer, or FLUSH_AT), so that a steady stream of calls is written in
 * full batches rather than in as many small ones as the database can take. `close()` (the app's
 * onClose, so a graceful stop) writes everything still queued; a crash loses what was queued and
 * not yet committed, at most about FLUSH_INTERVAL_MS of calls (or FLUSH_AT records) plus the
 * batches being written.
 */
export function createCallRecorder(database: Db, log: FastifyBaseLogger) {
  // api_calls and its rollups carry no change counter (decision 067): on the embedded database,
  // a batch leaves the counters' last read valid, so the calls meanwhile never wait for the
  // database (test/gateway-recording.test.ts checks that no trigger bumps a counter).
  const db = uncountedWriter(database);
  let buffer: CallRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();
  let flushing = false;
  /** Whether the last write was refused (then the next waits for the timer). */
  let failed = false;

  async function write(batch: CallRecord[]): Promise<void> {
    const rows = JSON.stringify(
      batch.map((r) => [
        r.occurredAt.toISOString(),
        r.applicationUuid,
        r.clientId,
        r.environment,
        r.apiAlias,
        r.endpoint,
        r.method,
        r.status,
        r.durationMs,
      ]),
    );
    await insertBatch(rows).execute(db);
  }

  async function flushOnce(): Promise<void> {
    flushing = true;
    failed = false;
    let taken = buffer;
    buffer = [];
    try {
      while (taken.length) {
        const batch = taken.slice(0, WRITE_ROWS);
        try {
          await write(batch);
        } catch (err) {
          // Kept for the next flush (the database may be restarting); bounded.
          buffer = [...taken, ...buffer].slice(-MAX_PENDING);
          log.warn({ err, pending: buffer.length }, 'recording gateway calls failed; will retry');
          failed = true;
          return;
        }
        taken = taken.slice(batch.length);
      }
    } finally {
      flushing = false;
      // What arrived meanwhile: at once when enough wait, else within the interval.
      if (buffer.length >= FLUSH_AT && !failed) void flush();
      else if (buffer.length) schedule();
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
      // A flush in progress schedules what arrives meanwhile when it ends.
      if (flushing) return;
      if (buffer.length >= FLUSH_AT) void flush();
      else schedule();
    },
    /** Writes everything queued when it is called (and what an earlier flush still writes). */
    flush,
    get pending(): number {
      return buffer.length;
    },
    /** Writes everything, what arrives while it writes included (a graceful stop). */
    async close(): Promise<void> {
      do await flush();
      while (buffer.length && !failed);
    },
  };
}

export type CallRecorder = ReturnType<typeof createCallRecorder>;
