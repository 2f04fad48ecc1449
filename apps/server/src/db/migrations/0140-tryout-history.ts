import { sql, type Kysely } from 'kysely';

/**
 * The try-out console's history of a signed-in user (spec B 3 'Try-out saved item / history
 * item'), so that it follows them to another browser. One row per item, the item itself as JSON
 * (validated by the module before it is stored). Column types: modules/tryout/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tryout_history')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('uuid', 'uuid', (c) => c.notNull())
    .addColumn('documentation_id', 'text', (c) => c.notNull())
    .addColumn('favorite', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('item', 'jsonb', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('tryout_history_pk', ['user_id', 'uuid'])
    .execute();
  await db.schema
    .createIndex('tryout_history_user_doc')
    .on('tryout_history')
    .columns(['user_id', 'documentation_id', 'created'])
    .execute();
}
