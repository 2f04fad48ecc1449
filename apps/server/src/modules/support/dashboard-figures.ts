import { TICKET_SEVERITIES, type TicketSeverity } from '@portico/contracts/support-constants';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { supportDb } from './tables.ts';

/** The open tickets now, per severity (every severity, 0 included); one query. */
export async function openTicketsBySeverity(db: Db): Promise<Record<TicketSeverity, number>> {
  const rows = await supportDb(db)
    .selectFrom('support_tickets')
    .select(['severity', sql<number>`count(*)`.as('count')])
    .where('status', '=', 'OPEN')
    .groupBy('severity')
    .execute();
  const counts = Object.fromEntries(TICKET_SEVERITIES.map((s) => [s, 0])) as Record<TicketSeverity, number>;
  for (const r of rows) if (r.severity in counts) counts[r.severity as TicketSeverity] = Number(r.count);
  return counts;
}
