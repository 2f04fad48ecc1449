import { type Kysely } from 'kysely';

/**
 * Each operation's details (parameters, bodies, responses, security, code samples) computed at
 * import: the reference opens an operation with one small indexed read instead of loading and
 * parsing the whole converted document (56 MB for GitHub's API).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_operations')
    .addColumn('documentation_id', 'integer', (c) =>
      c.notNull().references('api_documentations.id').onDelete('cascade'),
    )
    .addColumn('key', 'text', (c) => c.notNull())
    // OperationDetail of @portico/contracts/catalog.
    .addColumn('detail', 'json', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_operations_pk', ['documentation_id', 'key'])
    .execute();
}
