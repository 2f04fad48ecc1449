import { sql, type Kysely } from 'kysely';

/**
 * A documentation's operation index like its other big texts (decision 042): longer than a stored
 * row, it lives in `api_document_texts` as part 'operation_index' and its column holds null; the
 * operation count, which every documentation list shows, is a column of its own instead of being
 * read out of the index's JSON (the whole index was detoasted and parsed for each row of a list).
 * Column types for Kysely: modules/catalog/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_document_texts drop constraint api_document_texts_part_check`.execute(db);
  await sql`alter table api_document_texts add constraint api_document_texts_part_check
    check (part in ('source', 'converted', 'operation_index'))`.execute(db);
  await db.schema.alterTable('api_documentations').addColumn('operation_count', 'integer').execute();
  await sql`update api_documentations set operation_count = (operation_index->>'operationCount')::int
    where operation_index is not null`.execute(db);
}
