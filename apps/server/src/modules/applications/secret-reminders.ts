import { DEFAULT_LOCALE } from '@portico/contracts/locales';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { isoSeconds } from '../../authz-server/secret-rotation.ts';
import { runInBackground } from '../../lib/background-task.ts';
import { formatDateTime, texts } from '../../lib/i18n.ts';
import { recipientLocale } from '../../lib/mailer.ts';
import { ownerEmails } from './golive.ts';

/**
 * Expiry reminders of rotated client secrets (issue 28): the owners of the application's
 * organization get one e-mail a week before a secret expires and one a day before. Each is
 * claimed in the database first (`week_reminder_at` / `day_reminder_at` set by an UPDATE that
 * only the first instance wins), then sent: at most once each, however many instances run.
 * A secret that already expires within a day gets only the day's reminder.
 */
export const SECRET_REMINDER_INTERVAL_MS = 10 * 60_000;
const DAY_MS = 24 * 3600_000;
const WEEK_MS = 7 * DAY_MS;

interface Due {
  id: number;
  client_id: string;
  environment: 'DEVELOPMENT' | 'PRODUCTION';
  expires_at: Date;
  week_reminder_at: Date | null;
  day_reminder_at: Date | null;
  organization_id: number;
  application_uuid: string;
  title: string;
}

/** Sends the reminders due at `now`; returns how many secrets were reminded of. */
export async function sendSecretExpiryReminders(app: FastifyInstance, now = new Date()): Promise<number> {
  const db = app.db;
  const dayAhead = new Date(now.getTime() + DAY_MS);
  const weekAhead = new Date(now.getTime() + WEEK_MS);
  const due = await sql<Due>`select s.id, s.client_id, c.environment, s.expires_at, s.week_reminder_at,
      s.day_reminder_at, a.organization_id, a.uuid as application_uuid, a.title
    from oauth_client_secrets s
    join oauth_clients c on c.client_id = s.client_id
    join applications a on a.uuid = c.application_uuid
    where s.revoked_at is null and s.expires_at > ${now} and s.expires_at <= ${weekAhead}
      and ((s.expires_at <= ${dayAhead} and s.day_reminder_at is null)
        or (s.expires_at > ${dayAhead} and s.week_reminder_at is null))
    order by s.expires_at, s.id`.execute(db);
  let reminded = 0;
  for (const row of due.rows) {
    const expiresAt = new Date(row.expires_at);
    const kind = expiresAt.getTime() <= dayAhead.getTime() ? 'day' : 'week';
    // The claim: only one instance (and one run) gets the row back.
    const claimed =
      kind === 'day'
        ? await sql`update oauth_client_secrets
            set day_reminder_at = ${now}, week_reminder_at = coalesce(week_reminder_at, ${now})
            where id = ${row.id} and day_reminder_at is null returning id`.execute(db)
        : await sql`update oauth_client_secrets set week_reminder_at = ${now}
            where id = ${row.id} and week_reminder_at is null returning id`.execute(db);
    if (claimed.rows.length === 0) continue;
    reminded++;
    const values = {
      application: row.title,
      environment: row.environment,
      clientId: row.client_id,
      link: `${app.config.publicUrl}/application/${row.application_uuid}`,
    };
    for (const to of await ownerEmails(db, row.organization_id)) {
      // Each owner in their own language; the expiry as that language writes a date (UTC), the
      // English one as before (ISO 8601).
      const locale = await recipientLocale(db, to);
      const T = texts(locale, 'emails', 'clientSecrets.reminder');
      const localized = {
        ...values,
        expiresAt:
          locale === DEFAULT_LOCALE ? isoSeconds(expiresAt) : `${formatDateTime(locale, expiresAt)} UTC`,
      };
      const subject = T(kind === 'day' ? 'daySubject' : 'weekSubject', localized);
      try {
        await app.mailer.send({ to, subject, text: T('text', localized) });
      } catch (err) {
        // Claimed: not sent again. The outbox keeps the message as failed.
        app.log.warn({ err, secret: row.id }, 'client secret reminder e-mail failed');
      }
    }
  }
  return reminded;
}

/** Runs the reminders every SECRET_REMINDER_INTERVAL_MS in the background. */
export function scheduleSecretExpiryReminders(app: FastifyInstance): void {
  runInBackground(app, SECRET_REMINDER_INTERVAL_MS, 'sending client secret expiry reminders', async () => {
    await sendSecretExpiryReminders(app);
  });
}
