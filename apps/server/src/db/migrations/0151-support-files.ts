import { sql, type Kysely } from 'kysely';

/**
 * Ticket attachments (issue 14): uploaded before the ticket is created (ticket_id null until the
 * create call names them), with the same rules as organization documents. The bytes live in the
 * file storage under storage_key. Column types: modules/support/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_ticket_files')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique())
    .addColumn('ticket_id', 'integer', (c) => c.references('support_tickets.id').onDelete('cascade'))
    .addColumn('uploader_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('support_ticket_files_ticket')
    .on('support_ticket_files')
    .column('ticket_id')
    .execute();
  await db.schema
    .createIndex('support_ticket_files_uploader')
    .on('support_ticket_files')
    .column('uploader_id')
    .execute();
}
