import {
  TICKET_ENVIRONMENTS,
  TICKET_SEVERITIES,
  TICKET_STATUSES,
  ticketCreateSchema,
  ticketPatchSchema,
  ticketReplySchema,
} from '@portico/contracts/support';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest, forbidden } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { supportDb } from './tables.ts';
import {
  assertMayUseTickets,
  createTicket,
  findVisibleTicket,
  isSupportStaff,
  myTickets,
  replyToTicket,
  setTicketStatus,
  ticketJson,
  ticketQueue,
} from './tickets.ts';
import { parseBody } from '../../lib/validation.ts';

const M = en.support;
export const QUEUE_PAGE_MAX = 100;

async function requireStaff(app: FastifyInstance, request: FastifyRequest) {
  const user = requireUser(request);
  if (!(await isSupportStaff(app, user))) throw forbidden(M.staffOnly);
  return user;
}

function oneOf<T extends readonly string[]>(values: T, raw: unknown, name: string): T[number] | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !(values as readonly string[]).includes(raw))
    throw badRequest(`${name} must be one of ${values.join(', ')}.`, name);
  return raw;
}

function pageParam(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw) || Number(raw) > max)
    throw badRequest(`${name} must be a whole number up to ${max}.`, name);
  return Number(raw);
}

/** Support tickets (spec B 7) and the provider's queue (README.md). */
export async function ticketRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/support/me', async (request, reply) => {
    const user = requireUser(request);
    reply.header('Cache-Control', 'no-store');
    return { staff: await isSupportStaff(app, user) };
  });

  app.get('/api/support_ticket', async (request, reply) => {
    const user = requireUser(request);
    await assertMayUseTickets(app, user);
    reply.header('Cache-Control', 'no-store');
    return myTickets(app, user);
  });

  app.post('/api/support_ticket/create', async (request, reply) => {
    const user = requireUser(request);
    const input = parseBody(ticketCreateSchema, request.body);
    const nid = await createTicket(app, user, input, request.ip);
    const { row } = await findVisibleTicket(app, user, String(nid));
    return reply.status(201).send({ nid: [{ value: nid }], uuid: [{ value: row.uuid }] });
  });

  app.get<{ Params: { id: string } }>('/api/support_ticket/:id', async (request, reply) => {
    const user = requireUser(request);
    const { row, staff } = await findVisibleTicket(app, user, request.params.id);
    reply.header('Cache-Control', 'no-store');
    return { ...(await ticketJson(app, row)), viewer: { staff } };
  });

  app.patch<{ Params: { id: string } }>('/api/support_ticket/:id', async (request) => {
    const user = requireUser(request);
    // Who may see the ticket is checked before the body, as for a reply: a 404 whatever is sent.
    await findVisibleTicket(app, user, request.params.id);
    const input = parseBody(ticketPatchSchema, request.body);
    const row = await setTicketStatus(app, user, request.params.id, input.field_state);
    return ticketJson(app, row);
  });

  app.post<{ Params: { id: string } }>('/api/support_ticket/:id/reply', async (request, reply) => {
    const user = requireUser(request);
    // Who may see the ticket is checked before the body: a stranger learns nothing from a 400.
    await findVisibleTicket(app, user, request.params.id);
    const input = parseBody(ticketReplySchema, request.body);
    await replyToTicket(app, user, request.params.id, input.message);
    const { row } = await findVisibleTicket(app, user, request.params.id);
    return reply.status(201).send(await ticketJson(app, row));
  });

  // The provider's side: every ticket, filtered, and the contact messages.
  app.get<{ Querystring: Record<string, unknown> }>('/admin-api/support/tickets', async (request, reply) => {
    await requireStaff(app, request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 20, QUEUE_PAGE_MAX) || 20;
    const result = await ticketQueue(app, {
      status: oneOf(TICKET_STATUSES, q.status, 'status'),
      severity: oneOf(TICKET_SEVERITIES, q.severity, 'severity'),
      environment: oneOf(TICKET_ENVIRONMENTS, q.environment, 'environment'),
      limit,
      offset: pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000),
    });
    reply.header('Cache-Control', 'no-store');
    return { data: result.items, meta: { count: result.count } };
  });

  app.get<{ Querystring: Record<string, unknown> }>(
    '/admin-api/support/contact-messages',
    async (request, reply) => {
      await requireStaff(app, request);
      const q = request.query;
      const limit = pageParam(q['page[limit]'], 'page[limit]', 20, QUEUE_PAGE_MAX) || 20;
      const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
      const sdb = supportDb(app.db);
      const [rows, count] = await Promise.all([
        sdb
          .selectFrom('contact_messages')
          .select(['uuid', 'name', 'mail', 'subject', 'message', 'created'])
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        sdb
          .selectFrom('contact_messages')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      reply.header('Cache-Control', 'no-store');
      return {
        data: rows.map((r) => ({ ...r, created: new Date(r.created).toISOString() })),
        meta: { count: Number(count.n) },
      };
    },
  );
}
