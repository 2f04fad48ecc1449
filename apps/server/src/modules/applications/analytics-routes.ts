import { ANALYTICS_DEFAULT_RANGE_MONTHS, ANALYTICS_MAX_RANGE_DAYS } from '@portico/contracts/constants';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { assertAllowed, findApplication } from './access.ts';
import {
  analyticsEnabled,
  dailyAggregates,
  endpointAggregates,
  setAnalyticsEnabled,
  type Range,
} from './analytics.ts';
import { issuesToErrors, objectBody } from './forms.ts';
import { fill } from './psd2.ts';
import type { Environment } from './tables.ts';
import { UUID } from '../../lib/ids.ts';
import { loadOrgAccess } from '../organizations/service.ts';
import { rejectUnknown, single, type Query } from '../../jsonapi/legacy-query.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';

const M = en.applications;
const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A UTC day 'YYYY-MM-DD' from an ISO date or date-time; a 400 naming the parameter otherwise. */
function dayOf(value: string, parameter: string): string {
  const date = ISO_DATE.test(value)
    ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value)
    : undefined;
  if (!date || Number.isNaN(date.getTime())) throw badRequest(fill(M.invalidDate, { parameter }), parameter);
  return date.toISOString().slice(0, 10);
}

function rangeOf(query: Query): Range {
  const today = new Date();
  const monthAgo = new Date(today);
  monthAgo.setUTCMonth(monthAgo.getUTCMonth() - ANALYTICS_DEFAULT_RANGE_MONTHS);
  const rawFrom = single(query, 'fromDate');
  const rawTo = single(query, 'toDate');
  const from = rawFrom ? dayOf(rawFrom, 'fromDate') : monthAgo.toISOString().slice(0, 10);
  const to = rawTo ? dayOf(rawTo, 'toDate') : today.toISOString().slice(0, 10);
  if (from > to) throw badRequest(M.dateOrder, 'fromDate');
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days > ANALYTICS_MAX_RANGE_DAYS)
    throw badRequest(fill(M.rangeTooLong, { days: String(ANALYTICS_MAX_RANGE_DAYS) }), 'toDate');
  return { from, to };
}

/** Usage analytics of production applications (spec A 2 'Analytics section', 7 'Analytics'). */
export async function analyticsRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  app.get('/phpsdk/app-analytics/enabled', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return reply.type('text/plain; charset=utf-8').send((await analyticsEnabled(db)) ? '1' : '0');
  });

  /** The application named by a client id (the spec sends the production one) or its uuid. */
  async function scope(request: FastifyRequest, query: Query) {
    const user = requireUser(request);
    rejectUnknown(query, (k) => ['fromDate', 'toDate', 'application', 'environment'].includes(k));
    const ref = single(query, 'application');
    if (!ref) throw badRequest(M.applicationRequired, 'application');
    const asked = single(query, 'environment');
    if (asked !== undefined && asked !== 'DEVELOPMENT' && asked !== 'PRODUCTION')
      throw badRequest(M.unknownEnvironment, 'environment');
    const environment: Environment | undefined = asked;
    const range = rangeOf(query);
    const client = await db
      .selectFrom('oauth_clients')
      .select(['application_uuid', 'environment'])
      .where('client_id', '=', ref)
      .executeTakeFirst();
    const appUuid = client?.application_uuid ?? (UUID.test(ref) ? ref : undefined);
    const row = appUuid ? await findApplication(db, appUuid) : undefined;
    if (!row) throw notFound();
    const access = await loadOrgAccess(db, user, row.organization_id);
    assertAllowed(access, 'analytics');
    if (!(await analyticsEnabled(db))) throw forbidden(M.analyticsDisabled);
    if (row.status !== 'PRODUCTION') throw new HttpError(403, M.analyticsProductionOnly);
    // Each environment's calls count under that environment only (docs/decisions/011): the
    // environment asked for, else that of the client id named (the spec sends the production
    // one), else PRODUCTION (the application named by its uuid, e.g. before approval).
    const counted: Environment = environment ?? client?.environment ?? 'PRODUCTION';
    const clients = await db
      .selectFrom('oauth_clients')
      .select('client_id')
      .where('application_uuid', '=', row.uuid)
      .where('environment', '=', counted)
      .execute();
    return {
      clientIds: clients.map((c) => c.client_id),
      range,
      meta: {
        application: ref,
        applicationUuid: row.uuid,
        environment: counted,
        fromDate: range.from,
        toDate: range.to,
      },
    };
  }

  app.get<{ Querystring: Query }>('/phpsdk/app-analytics/aggregates', async (request, reply) => {
    const { clientIds, range, meta } = await scope(request, request.query);
    const data = await endpointAggregates(db, clientIds, range);
    reply.header('Cache-Control', 'private, no-store');
    return reply.send({ data, meta: { ...meta, totalCalls: data.reduce((n, r) => n + r.totalCalls, 0) } });
  });

  app.get<{ Querystring: Query }>('/phpsdk/app-analytics/sumAggregates', async (request, reply) => {
    const { clientIds, range, meta } = await scope(request, request.query);
    const data = await dailyAggregates(db, clientIds, range);
    reply.header('Cache-Control', 'private, no-store');
    return reply.send({ data, meta: { ...meta, totalCalls: data.reduce((n, r) => n + r.totalCalls, 0) } });
  });

  app.put('/admin-api/app-analytics', async (request, reply) => {
    const user = requireUser(request);
    if (!user.isAdmin) throw forbidden();
    const parsed = z
      .object({ enabled: z.boolean() })
      .safeParse(objectBody(request.body), { reportInput: true });
    if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
    await setAnalyticsEnabled(db, parsed.data.enabled);
    request.log.info({ enabled: parsed.data.enabled }, 'analytics switched');
    return reply.send({ enabled: parsed.data.enabled });
  });
}
