import { sql, type Kysely } from 'kysely';

/**
 * One queue for the stored files of every deleted row that holds one (lib/file-removal.ts): the
 * ticket attachments' queue of migration 0240 becomes `stored_file_deletions`, and the
 * organizations' `files` (an organization's image and documents; an organization deleted by any
 * path takes them by the cascade) queue their keys the same way. Whatever deletes such rows (a
 * route, a cascade, an administrator's SQL) queues their storage keys through a statement trigger
 * in its own transaction: visible when it commits, gone when it rolls back, so a stored file is
 * removed only once its row is gone for good. Column types: db/schema.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table support_file_deletions rename to stored_file_deletions`.execute(db);
  await sql`alter sequence support_file_deletions_id_seq rename to stored_file_deletions_id_seq`.execute(db);
  await sql`alter index support_file_deletions_pkey rename to stored_file_deletions_pkey`.execute(db);
  await sql`create function portico_queue_file_deletions() returns trigger language plpgsql as $$
    begin
      insert into stored_file_deletions (storage_key) select storage_key from deleted_files;
      return null;
    end $$`.execute(db);
  await sql`drop trigger support_ticket_files_deleted on support_ticket_files`.execute(db);
  await sql`drop function portico_queue_support_file_deletions()`.execute(db);
  // Statement triggers with the deleted rows as a table: one insert for a cascade of any size.
  for (const table of ['support_ticket_files', 'files']) {
    await sql`create trigger ${sql.id(`${table}_deleted`)} after delete on ${sql.table(table)}
      referencing old table as deleted_files
      for each statement execute function portico_queue_file_deletions()`.execute(db);
  }
}
