import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';

/** A range of instants: `start` inclusive, `end` exclusive. */
export interface InstantRange {
  start: Date;
  end: Date;
}

/** Accounts created per UTC day in the range (days without one are absent); one query. */
export async function signUpsPerDay(db: Db, range: InstantRange): Promise<{ day: string; count: number }[]> {
  const rows = await db
    .selectFrom('users')
    .select([
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      sql<number>`count(*)`.as('count'),
    ])
    .where('created_at', '>=', range.start)
    .where('created_at', '<', range.end)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}
