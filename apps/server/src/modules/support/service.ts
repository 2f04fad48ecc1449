import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { ContactMessageInput } from '@portico/contracts/support';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../lib/errors.ts';
import type { MailMessage } from '../../lib/mailer.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/session.ts';
import { spendCaptcha, type CaptchaSecrets } from './captcha.ts';
import { supportDb } from './tables.ts';
// The console dashboard's figures of this domain (issue 27).
export { openTicketsBySeverity } from './dashboard-figures.ts';

const M = en.support;

/**
 * Rate limits of the support area (database counters, shared by every instance; README.md).
 * Per hour.
 */
export const LIMITS = {
  contactPerAddress: 5,
  contactPerIp: 20,
  contactPerUser: 10,
  ticketsPerUser: 10,
  ticketsPerIp: 30,
  repliesPerUser: 60,
  uploadsPerUser: 30,
};

export function captchaSecrets(app: FastifyInstance): CaptchaSecrets {
  return { signature: app.secretBox.derive('altcha-signature'), key: app.secretBox.derive('altcha-key') };
}

/** Whether a caller must solve the captcha: anonymous callers and accounts with unproven addresses. */
export function captchaRequired(user: SessionUser | null): boolean {
  return !user?.emailVerified;
}

/** One action of `key` counted against its hourly `max` (lib/rate-limit.ts: 429 with Retry-After past it). */
export async function limit(app: FastifyInstance, key: string, max: number, message: string): Promise<void> {
  await enforceRateLimit(app.db, key, max, message);
}

/**
 * The contact form (spec B 7 POST /contact_message): the message is stored and e-mailed to
 * SUPPORT_EMAIL. Checks, in order: rate limits (per IP, per address, per user), then the captcha.
 */
export async function sendContactMessage(
  app: FastifyInstance,
  input: ContactMessageInput,
  caller: { user: SessionUser | null; ip: string },
): Promise<{ uuid: string }> {
  await limit(app, `contact:ip:${caller.ip}`, LIMITS.contactPerIp, M.tooManyMessages);
  await limit(app, `contact:mail:${input.mail.toLowerCase()}`, LIMITS.contactPerAddress, M.tooManyMessages);
  if (caller.user)
    await limit(app, `contact:user:${caller.user.id}`, LIMITS.contactPerUser, M.tooManyMessages);
  if (captchaRequired(caller.user)) {
    if (!input.altcha)
      throw new HttpError(400, M.captchaRequired, { code: 'captcha_required', pointer: '/altcha' });
    const outcome = await spendCaptcha(app.db, captchaSecrets(app), input.altcha);
    if (outcome === 'invalid')
      throw new HttpError(400, M.captchaInvalid, { code: 'captcha_invalid', pointer: '/altcha' });
    if (outcome === 'used')
      throw new HttpError(400, M.captchaUsed, { code: 'captcha_used', pointer: '/altcha' });
  }
  const row = await supportDb(app.db)
    .insertInto('contact_messages')
    .values({
      contact_form: input.contact_form,
      name: input.name,
      mail: input.mail,
      subject: input.subject,
      message: input.message,
      user_id: caller.user?.id ?? null,
      ip: caller.ip,
    })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  await notify(app, {
    to: app.config.supportEmail,
    subject: format(M.mailContactSubject, { subject: oneLine(input.subject) }),
    text: format(M.mailContactText, {
      name: input.name,
      mail: input.mail,
      subject: input.subject,
      message: input.message,
    }),
  });
  return row;
}

/**
 * Sends a notification; a mail server that fails does not undo what was saved (the outbox keeps
 * the failed message with its error, readable at /admin/outbox).
 */
export async function notify(app: FastifyInstance, message: MailMessage): Promise<void> {
  try {
    await app.mailer.send(message);
  } catch (err) {
    app.log.warn({ err }, 'support notification could not be sent');
  }
}

/** Header-safe text for a subject line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** A ticket as the console's user page lists it (issue 27). */
export interface UserTicket {
  id: number;
  uuid: string;
  title: string;
  status: string;
  created: string;
}

/** The support tickets a user reported, newest first (support_tickets_reporter index). */
export async function ticketsOfUser(db: Db, userId: number): Promise<UserTicket[]> {
  const rows = await supportDb(db)
    .selectFrom('support_tickets')
    .select(['id', 'uuid', 'title', 'status', 'created'])
    .where('reporter_id', '=', userId)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, created: new Date(r.created).toISOString() }));
}
