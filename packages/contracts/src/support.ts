import { z } from 'zod';
import { EMAIL_PATTERN, NEWSLETTER_EMAIL_MAX } from './email.ts';
import { supportMessages as M } from './messages/support.ts';

/**
 * The support area of spec B (2.9, 3, 4, 5, 7, 9): the contact form, support tickets and their
 * replies. The server validates every body with these schemas; the web app uses the constants.
 */

import {
  CAPTCHA_PAYLOAD_MAX,
  CONTACT_FORM_ID,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  CONTACT_SUBJECT_MAX,
  TICKET_CONTACT_INFO_MAX,
  TICKET_ENVIRONMENTS,
  TICKET_REPLY_MAX,
  TICKET_SEVERITIES,
  TICKET_STATUSES,
  TICKET_TEXT_MAX,
  TICKET_TITLE_MAX,
} from './support-constants.ts';

export * from './support-constants.ts';

const required = (max: number) =>
  z
    .string({ error: M.required })
    .trim()
    .min(1, { error: M.required })
    .max(max, { error: M.tooLong.replace('{{max}}', String(max)) });

/** An e-mail address, by the rule the newsletter uses (email.ts). */
const requiredEmail = () =>
  z
    .string({ error: M.required })
    .trim()
    .min(1, { error: M.required })
    .pipe(z.email({ error: M.invalidEmail, pattern: EMAIL_PATTERN }).max(NEWSLETTER_EMAIL_MAX));

export const contactMessageSchema = z.object({
  contact_form: z.literal(CONTACT_FORM_ID, { error: M.unknownForm }),
  name: required(CONTACT_NAME_MAX),
  mail: requiredEmail(),
  subject: required(CONTACT_SUBJECT_MAX),
  message: required(CONTACT_MESSAGE_MAX),
  altcha: z.string().max(CAPTCHA_PAYLOAD_MAX).optional(),
});
export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

export const ticketCreateSchema = z.object({
  title: required(TICKET_TITLE_MAX),
  contact_info: required(TICKET_CONTACT_INFO_MAX),
  description: required(TICKET_TEXT_MAX),
  environment: z.enum(TICKET_ENVIRONMENTS, { error: M.invalidEnvironment }),
  severity: z.enum(TICKET_SEVERITIES, { error: M.invalidSeverity }),
  details: required(TICKET_TEXT_MAX),
  /** Spec B 5: the form sends message = details; kept for the call's shape, details win. */
  message: z.string().max(TICKET_TEXT_MAX).optional(),
  /** Uuids of files uploaded before (POST /api/support_ticket/file). */
  attachments: z.array(z.uuid()).max(10).optional(),
});
export type TicketCreateInput = z.infer<typeof ticketCreateSchema>;

export const ticketPatchSchema = z.object({
  field_state: z.enum(TICKET_STATUSES, { error: M.invalidStatus }),
});

export const ticketReplySchema = z.object({
  message: required(TICKET_REPLY_MAX),
});

/** POST /admin-api/support/staff: the account to add, by its e-mail address. */
export const supportStaffAddSchema = z.object({
  email: requiredEmail(),
});

/** An account listed in support_staff, as GET /admin-api/support/staff answers it. */
export interface SupportStaffMember {
  uuid: string;
  name: string;
  email: string;
  /** When it was added (ISO). */
  added: string;
}
