import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { hasProviderRole } from '@portico/contracts/provider-roles';
import type { TicketCreateInput, TicketStatus } from '@portico/contracts/support';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { HttpError, notFound } from '../../lib/errors.ts';
import { texts } from '../../lib/i18n.ts';
import { recipientLocale } from '../../lib/mailer.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { plainText } from '../../lib/plain-text.ts';
import { ticketHtml } from './rich-text.ts';
import { LIMITS, limit, notify, oneLine } from './service.ts';
import { supportDb } from './tables.ts';

const M = en.support;

/** Support staff: administrators and support agents (provider roles, issue 27). */
export function isSupportStaff(_app: FastifyInstance, user: SessionUser): Promise<boolean> {
  return Promise.resolve(hasProviderRole(user.providerRoles, 'support_agent'));
}

/**
 * The role group of the ticket pages (SUPPORT_TICKETS_FOR): every signed-in user ('users', the
 * default) or only those with a verified address ('verified'). Staff always pass.
 */
export async function assertMayUseTickets(app: FastifyInstance, user: SessionUser): Promise<boolean> {
  const staff = await isSupportStaff(app, user);
  if (!staff && app.config.supportTicketsFor === 'verified' && !user.emailVerified)
    throw new HttpError(403, M.ticketsNotAllowed);
  return staff;
}

export interface TicketJson {
  nid: number;
  uuid: string;
  title: string;
  status: string;
  severity: string;
  environment: string;
  description: string;
  contact_info: string;
  details: string;
  created: string;
  changed: string;
  reported_by: { uid: number; uuid: string; name: string };
  messages: MessageJson[];
  message_history: MessageJson[];
  attachments: { uuid: string; file_name: string; size: number; mime: string; url: string }[];
}

export interface MessageJson {
  uuid: string;
  uid: number | null;
  created: string;
  body: string;
  author: { uid: number | null; uuid: string | null; name: string; staff: boolean };
}

export interface TicketListItem {
  nid: number;
  uuid: string;
  title: string;
  status: string;
  severity: string;
  environment: string;
  created: string;
  changed: string;
  reported_by: { uid: number; uuid: string; name: string; mail?: string };
}

const iso = (d: Date | string) => new Date(d).toISOString();

function ticketQuery(app: FastifyInstance) {
  return supportDb(app.db)
    .selectFrom('support_tickets as t')
    .innerJoin('users as u', 'u.id', 't.reporter_id')
    .select([
      't.id',
      't.uuid',
      't.title',
      't.status',
      't.severity',
      't.environment',
      't.description',
      't.contact_info',
      't.details',
      't.created',
      't.changed',
      't.reporter_id',
      'u.uuid as reporter_uuid',
      'u.name as reporter_name',
      'u.email as reporter_email',
    ]);
}

type TicketRow = NonNullable<Awaited<ReturnType<ReturnType<typeof ticketQuery>['executeTakeFirst']>>>;

function listItem(row: TicketRow, withMail: boolean): TicketListItem {
  return {
    nid: row.id,
    uuid: row.uuid,
    title: row.title,
    status: row.status,
    severity: row.severity,
    environment: row.environment,
    created: iso(row.created),
    changed: iso(row.changed),
    reported_by: {
      uid: row.reporter_id,
      uuid: row.reporter_uuid,
      name: row.reporter_name,
      ...(withMail ? { mail: row.reporter_email } : {}),
    },
  };
}

/** The caller's own tickets, newest activity first. */
export async function myTickets(app: FastifyInstance, user: SessionUser): Promise<TicketListItem[]> {
  const rows = await ticketQuery(app)
    .where('t.reporter_id', '=', user.id)
    .orderBy('t.changed', 'desc')
    .orderBy('t.id', 'desc')
    .execute();
  return rows.map((r) => listItem(r, false));
}

export interface QueueFilter {
  status?: string | undefined;
  severity?: string | undefined;
  environment?: string | undefined;
  limit: number;
  offset: number;
}

/** Every ticket, for staff, filtered; severity order Critical first, then the latest activity. */
export async function ticketQueue(
  app: FastifyInstance,
  filter: QueueFilter,
): Promise<{ items: TicketListItem[]; count: number }> {
  let q = ticketQuery(app);
  if (filter.status) q = q.where('t.status', '=', filter.status);
  if (filter.severity) q = q.where('t.severity', '=', filter.severity);
  if (filter.environment) q = q.where('t.environment', '=', filter.environment);
  const countRow = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy(sql`case t.severity when 'Critical' then 0 when 'High' then 1 when 'Medium' then 2 else 3 end`)
    .orderBy('t.changed', 'desc')
    .orderBy('t.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return { items: rows.map((r) => listItem(r, true)), count: Number(countRow.n) };
}

/**
 * One ticket as its reporter or staff sees it; anyone else (and a malformed id) gets the same 404,
 * so a ticket's existence is not revealed.
 */
export async function findVisibleTicket(
  app: FastifyInstance,
  user: SessionUser,
  rawId: string,
): Promise<{ row: TicketRow; staff: boolean }> {
  const staff = await assertMayUseTickets(app, user);
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : undefined;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(rawId)
    ? rawId
    : undefined;
  if (id === undefined && uuid === undefined) throw notFound(M.ticketNotFound);
  const row = await ticketQuery(app)
    .where(id !== undefined ? 't.id' : 't.uuid', '=', id ?? uuid!)
    .executeTakeFirst();
  if (!row || (!staff && row.reporter_id !== user.id)) throw notFound(M.ticketNotFound);
  return { row, staff };
}

export async function ticketJson(app: FastifyInstance, row: TicketRow): Promise<TicketJson> {
  const sdb = supportDb(app.db);
  const messages = await sdb
    .selectFrom('support_ticket_messages as m')
    .leftJoin('users as u', 'u.id', 'm.author_id')
    .leftJoin('provider_roles as s', (join) =>
      join.onRef('s.user_id', '=', 'm.author_id').on('s.role', '=', 'support_agent'),
    )
    .select([
      'm.uuid',
      'm.author_id',
      'm.created',
      'm.body',
      'u.uuid as author_uuid',
      'u.name as author_name',
      'u.is_admin',
      's.user_id as staff_id',
    ])
    .where('m.ticket_id', '=', row.id)
    .orderBy('m.id')
    .execute();
  const list: MessageJson[] = messages.map((m) => ({
    uuid: m.uuid,
    uid: m.author_id,
    created: iso(m.created),
    body: m.body,
    author: {
      uid: m.author_id,
      uuid: m.author_uuid,
      name: m.author_name ?? '',
      staff: Boolean(m.is_admin) || m.staff_id !== null,
    },
  }));
  const files = await sdb
    .selectFrom('support_ticket_files')
    .select(['uuid', 'file_name', 'size', 'mime'])
    .where('ticket_id', '=', row.id)
    .orderBy('id')
    .execute();
  return {
    ...listItem(row, false),
    attachments: files.map((f) => ({ ...f, url: `/api/support_ticket/${row.id}/files/${f.uuid}` })),
    description: row.description,
    contact_info: row.contact_info,
    details: row.details,
    messages: list,
    message_history: list,
  };
}

function ticketUrl(app: FastifyInstance, nid: number): string {
  return `${app.config.publicUrl}/support/ticket/${nid}`;
}

/** POST /api/support_ticket/create: one ticket, then the staff mail. */
export async function createTicket(
  app: FastifyInstance,
  user: SessionUser,
  input: TicketCreateInput,
  ip: string,
): Promise<number> {
  await assertMayUseTickets(app, user);
  await limit(app, `ticket:user:${user.id}`, LIMITS.ticketsPerUser, M.tooManyTickets);
  await limit(app, `ticket:ip:${ip}`, LIMITS.ticketsPerIp, M.tooManyTickets);
  const attachments = [...new Set((input.attachments ?? []).map((u) => u.toLowerCase()))];
  // The ticket and its attachments are written together: a bad attachment leaves nothing behind.
  const row = await app.db.transaction().execute(async (trx) => {
    const sdb = supportDb(trx);
    const inserted = await sdb
      .insertInto('support_tickets')
      .values({
        title: input.title,
        contact_info: input.contact_info,
        description: ticketHtml(input.description),
        details: ticketHtml(input.details),
        environment: input.environment,
        severity: input.severity,
        reporter_id: user.id,
      })
      .returning(['id', 'description', 'details'])
      .executeTakeFirstOrThrow();
    if (attachments.length) {
      const attached = await sdb
        .updateTable('support_ticket_files')
        .set({ ticket_id: inserted.id })
        .where('uuid', 'in', attachments)
        .where('uploader_id', '=', user.id)
        .where('ticket_id', 'is', null)
        .returning('id')
        .execute();
      if (attached.length !== attachments.length)
        throw new HttpError(400, M.attachmentNotFound, {
          code: 'attachment_not_found',
          pointer: '/attachments',
        });
    }
    return inserted;
  });
  await notify(app, {
    to: app.config.supportEmail,
    subject: format(M.mailNewTicketSubject, { nid: row.id, title: oneLine(input.title) }),
    text: format(M.mailNewTicketText, {
      name: user.name,
      title: input.title,
      severity: input.severity,
      environment: input.environment,
      contact: input.contact_info,
      description: plainText(row.description, { lines: true }),
      details: plainText(row.details, { lines: true }),
      url: ticketUrl(app, row.id),
    }),
  });
  return row.id;
}

/** A reply to the thread; staff replies mail the reporter, the reporter's mail staff. */
export async function replyToTicket(
  app: FastifyInstance,
  user: SessionUser,
  rawId: string,
  message: string,
): Promise<void> {
  const { row, staff } = await findVisibleTicket(app, user, rawId);
  if (row.status === 'CLOSED') throw new HttpError(409, M.ticketClosed, { code: 'ticket_closed' });
  await limit(app, `ticket-reply:user:${user.id}`, LIMITS.repliesPerUser, M.tooManyReplies);
  const body = ticketHtml(message);
  await app.db.transaction().execute(async (trx) => {
    const sdb = supportDb(trx);
    await sdb
      .insertInto('support_ticket_messages')
      .values({ ticket_id: row.id, author_id: user.id, body })
      .execute();
    await sdb.updateTable('support_tickets').set({ changed: new Date() }).where('id', '=', row.id).execute();
  });
  const byReporter = row.reporter_id === user.id;
  if (byReporter) {
    await notify(app, {
      to: app.config.supportEmail,
      subject: format(M.mailDeveloperReplySubject, { nid: row.id, title: oneLine(row.title) }),
      text: format(M.mailDeveloperReplyText, {
        name: user.name,
        title: row.title,
        message: plainText(body, { lines: true }),
        url: ticketUrl(app, row.id),
      }),
    });
  } else if (staff) {
    // The reporter reads it in their account's language (decision 058); the staff's mails stay English.
    const T = texts(await recipientLocale(app.db, row.reporter_email), 'emails', 'support');
    await notify(app, {
      to: row.reporter_email,
      subject: T('mailStaffReplySubject', { nid: row.id, title: oneLine(row.title) }),
      text: T('mailStaffReplyText', {
        title: row.title,
        message: plainText(body, { lines: true }),
        url: ticketUrl(app, row.id),
      }),
    });
  }
}

/** PATCH field_state: OPEN or CLOSED; the reporter is mailed when someone else changed it. */
export async function setTicketStatus(
  app: FastifyInstance,
  user: SessionUser,
  rawId: string,
  status: TicketStatus,
): Promise<TicketRow> {
  const { row } = await findVisibleTicket(app, user, rawId);
  if (row.status === status) return row;
  await supportDb(app.db)
    .updateTable('support_tickets')
    .set({ status, changed: new Date() })
    .where('id', '=', row.id)
    .execute();
  if (row.reporter_id !== user.id) {
    const T = texts(await recipientLocale(app.db, row.reporter_email), 'emails', 'support');
    await notify(app, {
      to: row.reporter_email,
      subject: T('mailStatusSubject', { nid: row.id, status, title: oneLine(row.title) }),
      text: T('mailStatusText', { title: row.title, status, url: ticketUrl(app, row.id) }),
    });
  }
  return { ...row, status };
}
