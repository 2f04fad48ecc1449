import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Kysely types of migrations 0150-support, 0151-support-files and 0240-support-file-deletions; `users` comes from db/schema.ts. */

type Created = ColumnType<Date, Date | string | undefined, never>;
type Changed = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CaptchaUsedTable {
  nonce: string;
  expires_at: Date;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  contact_form: string;
  name: string;
  mail: string;
  subject: string;
  message: string;
  user_id: number | null;
  ip: string | null;
  created: Created;
}

export interface SupportTicketsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  title: string;
  contact_info: string;
  description: string;
  details: string;
  environment: string;
  severity: string;
  status: Generated<string>;
  reporter_id: number;
  created: Created;
  changed: Changed;
}

export interface SupportTicketMessagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  ticket_id: number;
  author_id: number | null;
  /** Sanitized HTML. */
  body: string;
  created: Created;
}

export interface SupportTicketFilesTable {
  id: Generated<number>;
  uuid: string;
  /** Null until the create call attaches the upload to its ticket. */
  ticket_id: number | null;
  uploader_id: number;
  file_name: string;
  mime: string;
  size: number;
  storage_key: string;
  created: Created;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type SupportTables = {
  captcha_used: CaptchaUsedTable;
  contact_messages: ContactMessagesTable;
  support_tickets: SupportTicketsTable;
  support_ticket_messages: SupportTicketMessagesTable;
  support_ticket_files: SupportTicketFilesTable;
};

/** The database with the support tables known to Kysely. */
export function supportDb(db: Db) {
  return db.withTables<SupportTables>();
}

export type SupportDb = ReturnType<typeof supportDb>;
