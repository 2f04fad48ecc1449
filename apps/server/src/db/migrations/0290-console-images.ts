import { sql, type Kysely } from 'kysely';

/**
 * Images uploaded in the provider console (issue 27) for articles, pages and FAQ answers: one row
 * per image, its bytes in the file storage under storage_key, served publicly at
 * /images/console/<uuid>.<ext>. The type (png, jpeg, gif, webp) comes from the bytes; width and
 * height from the image's header when it says them. An image outlives its uploader's account
 * (content still shows it). Deleting a row queues its stored file like every other file row
 * (migration 0262's trigger function). Column types: modules/console-images/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('console_images')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('png', 'jpeg', 'gif', 'webp')`))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('console_images_created')
    .on('console_images')
    .columns(['created', 'id'])
    .execute();
  await sql`create trigger console_images_deleted after delete on console_images
    referencing old table as deleted_files
    for each statement execute function portico_queue_file_deletions()`.execute(db);
}
