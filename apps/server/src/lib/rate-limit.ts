import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import { HttpError } from './errors.ts';

export const HOUR_MS = 3600_000;

/** A 429 that also tells when to try again: the app's error handler sends `Retry-After` from it. */
export class TooManyRequests extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Counts one action of `key` (say `ticket-file:user:7`) in a fixed window of `windowMs` (an hour
 * unless told) and refuses it past `max` with TooManyRequests(`message`): the per-user and per-IP
 * limits of the support area and of the console's uploads.
 */
export async function enforceRateLimit(
  db: Db,
  key: string,
  max: number,
  message: string,
  windowMs = HOUR_MS,
): Promise<void> {
  const hit = await hitRateLimit(db, key, max, windowMs);
  if (!hit.allowed) throw new TooManyRequests(message, hit.retryAfterSeconds);
}

/**
 * Fixed-window counters kept in the database, so that every instance behind a load balancer
 * counts the same attempts. `hit` adds one and says whether the caller is still within `max`.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  max: number,
  windowMs: number,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const now = new Date();
  const windowStartFloor = new Date(now.getTime() - windowMs);
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // A window older than windowMs starts again at one.
        count: sql<number>`case when rate_limits.window_start < ${windowStartFloor} then 1 else rate_limits.count + 1 end`,
        window_start: sql<Date>`case when rate_limits.window_start < ${windowStartFloor} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  const started = new Date(row.window_start).getTime();
  return {
    allowed: row.count <= max,
    retryAfterSeconds: Math.max(1, Math.ceil((started + windowMs - now.getTime()) / 1000)),
  };
}

/**
 * Gives back one attempt: for counters that should count failures only but must be hit before the
 * outcome is known (so that parallel attempts cannot run past the limit).
 */
export async function refundRateLimit(db: Db, key: string): Promise<void> {
  await db
    .updateTable('rate_limits')
    // A throttle's attempt that turned out well lets the next one through at once.
    .set({ count: sql<number>`greatest(count - 1, 0)`, next_allowed_at: null })
    .where('key', '=', key)
    .execute();
}

export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

export interface ThrottlePolicy {
  /** Attempts let through without any wait. */
  free: number;
  /** The first wait, once `free` attempts were made; each further attempt doubles it... */
  baseDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
  /** The counter starts again after this long without an attempt. */
  idleResetMs: number;
}

/** Sign-in forms (portal and sandbox): `free` failures, then 30 s doubling to 15 min; an idle hour resets. */
export function signInThrottle(free: number): ThrottlePolicy {
  return { free, baseDelayMs: 30_000, maxDelayMs: 15 * 60_000, idleResetMs: 3600_000 };
}

/**
 * Growing delays instead of a lock: after `free` attempts each further one must wait for the
 * previous one's delay (base, 2×base, 4×base … up to max). The attempt is counted, and its delay
 * set, in one statement before its outcome is known, so that parallel attempts cannot slip past;
 * an attempt that comes too early is refused and not counted. Give a successful attempt back with
 * `refundRateLimit` or `resetRateLimit`.
 */
export async function hitThrottle(
  db: Db,
  key: string,
  policy: ThrottlePolicy,
): Promise<{ allowed: boolean; retryAfterSeconds: number; count?: number }> {
  const now = new Date();
  const idleFloor = new Date(now.getTime() - policy.idleResetMs);
  const delayMs = (n: number) =>
    n < policy.free ? 0 : Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - policy.free));
  const newCount = sql<number>`case when rate_limits.window_start < ${idleFloor} then 1 else rate_limits.count + 1 end`;
  // The delay of the attempt being counted (see delayMs), in SQL, capped before it can overflow.
  const delay = sql`case when ${newCount} < ${policy.free} then 0
    else least(${policy.maxDelayMs}::float8, ${policy.baseDelayMs}::float8 * power(2::float8, least(${newCount} - ${policy.free}, 60))) end`;
  const row = await db
    .insertInto('rate_limits')
    .values({
      key,
      window_start: now,
      count: 1,
      next_allowed_at: new Date(now.getTime() + delayMs(1)),
    })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          count: newCount,
          // For throttles window_start is the last attempt: the idle reset counts from there.
          window_start: now,
          next_allowed_at: sql<Date>`${now}::timestamptz + (${delay}) * interval '1 millisecond'`,
        })
        .where((eb) =>
          eb.or([
            eb('rate_limits.window_start', '<', idleFloor),
            eb('rate_limits.next_allowed_at', 'is', null),
            eb('rate_limits.next_allowed_at', '<=', now),
          ]),
        ),
    )
    .returning(['count'])
    .executeTakeFirst();
  if (row) return { allowed: true, retryAfterSeconds: 0, count: Number(row.count) };
  const current = await db
    .selectFrom('rate_limits')
    .select('next_allowed_at')
    .where('key', '=', key)
    .executeTakeFirst();
  const until = current?.next_allowed_at ? new Date(current.next_allowed_at).getTime() : now.getTime();
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
}

/**
 * One of the counters a sign-in attempt hits: `free` failures under signInThrottle, then growing
 * waits; a success resets it (the counter of one account or customer) or gives the attempt back
 * (the counter of an address over every name).
 */
export interface SignInCounter {
  key: string;
  free: number;
  onSuccess: 'reset' | 'refund';
}

/**
 * Counts one sign-in attempt on every counter (the portal's accounts and the sandbox's customers
 * share this). Refused when any counter says wait, and then nothing of this attempt stays counted;
 * else `succeeded` settles each counter by its `onSuccess`.
 */
export async function hitSignInCounters(
  db: Db,
  counters: readonly SignInCounter[],
): Promise<{
  retryAfterSeconds: number;
  /** The counters this attempt brought to their `free` count: a failure now starts the waits. */
  atThreshold: SignInCounter[];
  succeeded(): Promise<void>;
}> {
  const hit: SignInCounter[] = [];
  const atThreshold: SignInCounter[] = [];
  let retryAfterSeconds = 0;
  for (const counter of counters) {
    const result = await hitThrottle(db, counter.key, signInThrottle(counter.free));
    if (result.allowed) hit.push(counter);
    else retryAfterSeconds = Math.max(retryAfterSeconds, result.retryAfterSeconds);
    if (result.count === counter.free) atThreshold.push(counter);
  }
  if (retryAfterSeconds) {
    // Refused: what was counted for this attempt is given back.
    for (const counter of hit) await refundRateLimit(db, counter.key);
    return { retryAfterSeconds, atThreshold: [], succeeded: async () => {} };
  }
  return {
    retryAfterSeconds: 0,
    atThreshold,
    async succeeded() {
      for (const counter of counters) {
        if (counter.onSuccess === 'reset') await resetRateLimit(db, counter.key);
        else await refundRateLimit(db, counter.key);
      }
    },
  };
}
