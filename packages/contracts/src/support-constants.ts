/**
 * Constants of the support area (spec B 3, 9), without zod: the web app's forms use them on pages
 * that need no schema (support.ts has the schemas the server checks bodies with).
 */

/** Spec B 9: ticket severities and environments; spec B 3: ticket status values. */
export const TICKET_SEVERITIES = ['Critical', 'High', 'Medium', 'Low'] as const;
export const TICKET_ENVIRONMENTS = ['Test', 'Production'] as const;
export const TICKET_STATUSES = ['OPEN', 'CLOSED'] as const;
export type TicketSeverity = (typeof TICKET_SEVERITIES)[number];
export type TicketEnvironment = (typeof TICKET_ENVIRONMENTS)[number];
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** The one contact form of spec B 7 ('contact form id feedback'). */
export const CONTACT_FORM_ID = 'feedback';

/** Documented size limits (modules/support/README.md), in characters. */
export const CONTACT_NAME_MAX = 200;
export const CONTACT_SUBJECT_MAX = 255;
export const CONTACT_MESSAGE_MAX = 10_000;
export const TICKET_TITLE_MAX = 255;
export const TICKET_CONTACT_INFO_MAX = 500;
export const TICKET_TEXT_MAX = 20_000;
export const TICKET_REPLY_MAX = 20_000;
/** The ALTCHA payload: a base64 JSON document of a few hundred bytes. */
export const CAPTCHA_PAYLOAD_MAX = 4_000;
