import { sql, type Kysely } from 'kysely';

/**
 * The catalog (spec B 3: API product, comparison table, changelog, API documentation, product
 * category). Column types for Kysely are in modules/catalog/tables.ts. `api_documentations` is
 * also read by the sandbox gateway (alias, converted, content_hash).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('product_categories')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('comparison_tables')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    // A stable key for content imports (the YAML names tables by key).
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_products')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    // The path alias without a leading slash, e.g. 'accounts-api-v1'.
    .addColumn('alias', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'text')
    .addColumn('label', 'text')
    .addColumn('deprecated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('commercial', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('disable_documentation', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('image_url', 'text')
    .addColumn('image_alt', 'text')
    .addColumn('header_image_url', 'text')
    .addColumn('overview_display', 'text')
    // Space-separated OAuth scopes an application subscribed to this product gets, per environment.
    .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scope_production', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('psd2_certificate_required', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('category_id', 'integer', (c) => c.references('product_categories.id').onDelete('set null'))
    .addColumn('advantages_header_title', 'text')
    .addColumn('advantages_header_body', 'text')
    .addColumn('comparison_table_id', 'integer', (c) =>
      c.references('comparison_tables.id').onDelete('set null'),
    )
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Lists filter out deprecated products and order by weight, then title.
  await db.schema
    .createIndex('api_products_list')
    .on('api_products')
    .columns(['deprecated', 'weight', 'title'])
    .execute();
  await db.schema.createIndex('api_products_category').on('api_products').column('category_id').execute();

  await db.schema
    .createTable('api_documentations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    // Also the sandbox path: /sandbox/<alias>.
    .addColumn('alias', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', (c) => c.notNull())
    // The id the web app passes as `api` to /api/swagger (spec B 7).
    .addColumn('api_id', 'text')
    .addColumn('version', 'text')
    .addColumn('deprecated', 'boolean', (c) => c.notNull().defaultTo(false))
    // The document as imported (for download) and its format.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_format', 'text', (c) => c.notNull())
    .addColumn('source_filename', 'text')
    // 'swagger 2.0', 'openapi 3.0.3', 'openapi 3.1.0': what the source was before conversion.
    .addColumn('source_spec_version', 'text')
    // OpenAPI 3.1, dereferenced; circular references stay as local $ref.
    .addColumn('converted', 'jsonb')
    // Tag groups → operations, compact (see modules/catalog/openapi/operation-index.ts).
    .addColumn('operation_index', 'jsonb')
    .addColumn('content_hash', 'text')
    .addColumn('tour', 'jsonb')
    .addColumn('bot_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('bot_url', 'text')
    .addColumn('plan', 'text', (c) => c.notNull().defaultTo('100 per hour'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('api_documentations_api_id')
    .on('api_documentations')
    .column('api_id')
    .execute();

  await db.schema
    .createTable('api_product_documentations')
    .addColumn('product_id', 'integer', (c) => c.notNull().references('api_products.id').onDelete('cascade'))
    .addColumn('documentation_id', 'integer', (c) =>
      c.notNull().references('api_documentations.id').onDelete('cascade'),
    )
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('api_product_documentations_pk', ['product_id', 'documentation_id'])
    .execute();
  await db.schema
    .createIndex('api_product_documentations_doc')
    .on('api_product_documentations')
    .column('documentation_id')
    .execute();

  for (const table of ['product_features', 'product_advantages'] as const) {
    let builder = db.schema
      .createTable(table)
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('uuid', 'uuid', (c) =>
        c
          .notNull()
          .unique()
          .defaultTo(sql`gen_random_uuid()`),
      )
      .addColumn('product_id', 'integer', (c) =>
        c.notNull().references('api_products.id').onDelete('cascade'),
      )
      .addColumn('title', 'text', (c) => c.notNull())
      // HTML, sanitized on import.
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0));
    if (table === 'product_features') builder = builder.addColumn('icon_url', 'text');
    await builder.execute();
    await db.schema.createIndex(`${table}_product`).on(table).column('product_id').execute();
  }

  await db.schema
    .createTable('related_products')
    .addColumn('product_id', 'integer', (c) => c.notNull().references('api_products.id').onDelete('cascade'))
    .addColumn('related_product_id', 'integer', (c) =>
      c.notNull().references('api_products.id').onDelete('cascade'),
    )
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('related_products_pk', ['product_id', 'related_product_id'])
    .execute();

  await db.schema
    .createTable('comparison_rows')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('table_id', 'integer', (c) =>
      c.notNull().references('comparison_tables.id').onDelete('cascade'),
    )
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .check(sql`type in ('comparison_category', 'comparison_text_row', 'comparison_boolean_row')`),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    // One value per product column, in column order ('1' = yes for boolean rows).
    .addColumn('values', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('comparison_rows_table').on('comparison_rows').column('table_id').execute();

  await db.schema
    .createTable('comparison_table_products')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('table_id', 'integer', (c) =>
      c.notNull().references('comparison_tables.id').onDelete('cascade'),
    )
    // Null when the product was removed: the column is then named 'Deprecated API' or `title`.
    .addColumn('product_id', 'integer', (c) => c.references('api_products.id').onDelete('set null'))
    // A custom column name; it wins over the product's title.
    .addColumn('title', 'text')
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('comparison_table_products_table')
    .on('comparison_table_products')
    .column('table_id')
    .execute();

  await db.schema
    .createTable('change_log_entries')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('product_id', 'integer', (c) => c.notNull().references('api_products.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('release_date', 'date')
    // HTML, sanitized on import.
    .addColumn('notes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('change_log_entries_product')
    .on('change_log_entries')
    .columns(['product_id', 'release_date'])
    .execute();
}
