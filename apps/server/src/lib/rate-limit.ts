import { sql } from 'kysely';
import type { Db } from '../db/client.ts';

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
    .set({ count: sql<number>`greatest(count - 1, 0)` })
    .where('key', '=', key)
    .execute();
}

export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}
