import type { Transporter } from 'nodemailer';
import { sql } from 'kysely';
import type { Locale } from '@portico/contracts/locales';
import type { Db } from '../db/client.ts';
import { mailLocale } from './i18n.ts';

/**
 * Outgoing e-mail. With SMTP_URL messages go out through nodemailer; without it they are kept in
 * the outbox table, readable by the provider administrator at /admin/outbox, so that a fresh
 * install works without a mail server. Either way every message is recorded in the outbox.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export function createMailer(db: Db, options: { smtpUrl: string | undefined; from: string }): Mailer {
  // nodemailer (about 5 MB of the main thread's heap) is loaded with the first message sent through
  // SMTP_URL, not at every start: without SMTP_URL it is never needed.
  const smtpUrl = options.smtpUrl;
  let opened: Transporter | undefined;
  let opening: Promise<Transporter> | undefined;
  const smtp = (url: string) =>
    (opening ??= import('nodemailer').then(
      ({ default: nodemailer }) => (opened = nodemailer.createTransport(url)),
    ));
  return {
    async send(message) {
      let status = 'stored';
      let error: string | null = null;
      if (smtpUrl) {
        try {
          await (await smtp(smtpUrl)).sendMail({ from: options.from, ...message });
          status = 'sent';
        } catch (err) {
          status = 'failed';
          error = err instanceof Error ? err.message : String(err);
        }
      }
      await db
        .insertInto('outbox')
        .values({
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          status,
          error,
        })
        .execute();
      if (status === 'failed') throw new Error(`Could not send e-mail to ${message.to}: ${error}`);
    },
    close() {
      opened?.close();
    },
  };
}

/**
 * The language to write to an address in (issue 30): the `preferred_langcode` of the account with
 * that address, else English (no account, or none chosen).
 */
export async function recipientLocale(db: Db, email: string): Promise<Locale> {
  const row = await db
    .selectFrom('users')
    .select('preferred_langcode')
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return mailLocale(row?.preferred_langcode);
}
