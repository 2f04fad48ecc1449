import { sql, type Kysely } from 'kysely';

/**
 * Big document texts in rows of at most 256 K characters (decision 031, issue 11): a documentation's
 * `source` and `converted` longer than that live in `api_document_texts`, read and written one row
 * per statement, so that neither PGlite (on the main thread) nor a download ever handles a
 * multi-megabyte value in one piece. `source` is then null, and `converted` holds only what SQL
 * reads of the document (servers, security requirements and schemes: `digest` in
 * openapi/process.ts). Rows stored before stay whole in their columns and are read as before.
 * Column types for Kysely: modules/catalog/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_document_texts')
    .addColumn('documentation_id', 'integer', (c) =>
      c.notNull().references('api_documentations.id').onDelete('cascade'),
    )
    .addColumn('part', 'text', (c) => c.notNull().check(sql`part in ('source', 'converted')`))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_document_texts_pkey', ['documentation_id', 'part', 'seq'])
    .execute();
  await db.schema
    .alterTable('api_documentations')
    .alterColumn('source', (c) => c.dropNotNull())
    .execute();
}
