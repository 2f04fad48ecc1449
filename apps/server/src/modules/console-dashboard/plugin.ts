import {
  DASHBOARD_DEFAULT_DAYS,
  DASHBOARD_MAX_DAYS,
  type ConsoleDashboard,
} from '@portico/contracts/console-dashboard';
import { format } from '@portico/contracts/format';
import { consoleDashboardMessages as M } from '@portico/contracts/messages/console-dashboard';
import fp from 'fastify-plugin';
import { sendDocument } from '../../jsonapi/document.ts';
import { badRequest } from '../../lib/errors.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import {
  activeOrganizations,
  applicationsPerEnvironment,
  callsPerApiPerDay,
  goLiveWaiting,
} from '../applications/service.ts';
import { signUpsPerDay } from '../identity/service.ts';
import { openTicketsBySeverity } from '../support/service.ts';

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A 'YYYY-MM-DD' that names a real day, as the UTC midnight that starts it; else a 400. */
function parseDay(value: unknown, parameter: 'from' | 'to'): Date {
  const fail = () => badRequest(format(M.badDate, { parameter }), parameter);
  if (typeof value !== 'string' || !DATE.test(value)) throw fail();
  const day = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) throw fail();
  return day;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The range of `?from&to` (UTC days, both inclusive): by default the last 30 days up to today;
 * one given alone spans 30 days from or up to it. At most 366 days, `from` not after `to`.
 */
export function dashboardRange(query: Record<string, unknown>, now: Date): { from: Date; to: Date } {
  for (const key of Object.keys(query))
    if (key !== 'from' && key !== 'to') throw badRequest(format(M.unknownParameter, { parameter: key }), key);
  const today = new Date(`${isoDay(now)}T00:00:00Z`);
  const span = (DASHBOARD_DEFAULT_DAYS - 1) * DAY_MS;
  const to =
    query.to !== undefined
      ? parseDay(query.to, 'to')
      : query.from !== undefined
        ? new Date(parseDay(query.from, 'from').getTime() + span)
        : today;
  const from = query.from !== undefined ? parseDay(query.from, 'from') : new Date(to.getTime() - span);
  if (from > to) throw badRequest(M.reversedRange, 'from');
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > DASHBOARD_MAX_DAYS)
    throw badRequest(format(M.tooLong, { max: DASHBOARD_MAX_DAYS }), 'to');
  return { from, to };
}

/**
 * `GET /admin-api/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD` (administrators): the figures a
 * provider watches (README.md). Each figure is one aggregate query of its own domain's service,
 * run side by side.
 */
export default fp(
  async (app) => {
    app.get<{ Querystring: Record<string, unknown> }>('/admin-api/dashboard', async (request, reply) => {
      requireProviderRole(request, 'administrator', M.adminsOnly);
      const now = new Date();
      const { from, to } = dashboardRange(request.query, now);
      const range = { start: from, end: new Date(to.getTime() + DAY_MS) };
      const [signUps, active, applications, calls, goLive, openTickets] = await Promise.all([
        signUpsPerDay(app.db, range),
        activeOrganizations(app.db, range),
        applicationsPerEnvironment(app.db),
        callsPerApiPerDay(app.db, range),
        goLiveWaiting(app.db, now),
        openTicketsBySeverity(app.db),
      ]);
      // Every day of the range, 0 where nobody signed up: a chart's axis without gaps.
      const perDay = new Map(signUps.map((d) => [d.day, d.count]));
      const days: ConsoleDashboard['signUps'] = [];
      for (let t = from.getTime(); t <= to.getTime(); t += DAY_MS) {
        const day = isoDay(new Date(t));
        days.push({ day, count: perDay.get(day) ?? 0 });
      }
      const attributes: ConsoleDashboard = {
        from: isoDay(from),
        to: isoDay(to),
        signUps: days,
        activeOrganizations: active,
        applications,
        calls,
        goLive,
        openTickets,
      };
      reply.header('Cache-Control', 'private, no-store');
      return sendDocument(reply, {
        data: {
          type: 'console--dashboard',
          id: `${attributes.from}..${attributes.to}`,
          attributes: { ...attributes },
        },
      });
    });
  },
  { name: 'console-dashboard', dependencies: ['db'] },
);
