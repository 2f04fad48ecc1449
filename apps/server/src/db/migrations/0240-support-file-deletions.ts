import { sql, type Kysely } from 'kysely';

/**
 * Stored files of deleted ticket attachments (modules/support/file-removal.ts): whatever deletes
 * `support_ticket_files` rows (a ticket deleted with its attachments by the cascade, a user deleted
 * with their tickets, the clean-up of abandoned uploads, an administrator's SQL) queues their
 * storage keys here through a trigger, in the same transaction. The keys become visible when it
 * commits and vanish when it rolls back, so a stored file is removed only once its row is gone for
 * good. Column types: modules/support/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_file_deletions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create function portico_queue_support_file_deletions() returns trigger language plpgsql as $$
    begin
      insert into support_file_deletions (storage_key) select storage_key from deleted_files;
      return null;
    end $$`.execute(db);
  // A statement trigger with the deleted rows as a table: one insert for a cascade of any size.
  await sql`create trigger support_ticket_files_deleted after delete on support_ticket_files
    referencing old table as deleted_files
    for each statement execute function portico_queue_support_file_deletions()`.execute(db);
}
