import { sql, type Kysely } from 'kysely';
import { trackDataChanges } from '../data-versions.ts';

/**
 * Change counters for cached public answers (decision 018, db/data-versions.ts): `data_versions`
 * holds one counter per content domain; a statement trigger on each table of the domain bumps it
 * in the writing transaction, whoever writes (any instance, the CLI, a migration, plain SQL).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_versions')
    .addColumn('domain', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    create function portico_bump_data_version() returns trigger language plpgsql as $$
    begin
      insert into data_versions (domain, version) values (tg_argv[0], 1)
        on conflict (domain) do update set version = data_versions.version + 1;
      return null;
    end
    $$`.execute(db);
  await trackDataChanges(db, 'catalog', [
    'product_categories',
    'comparison_tables',
    'api_products',
    'api_documentations',
    'api_product_documentations',
    'product_features',
    'product_advantages',
    'related_products',
    'comparison_rows',
    'comparison_table_products',
    'change_log_entries',
  ]);
  await trackDataChanges(db, 'pages', ['pages', 'page_aliases']);
  await trackDataChanges(db, 'site', ['site_content']);
}
