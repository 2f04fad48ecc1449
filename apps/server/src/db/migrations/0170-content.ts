import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Public content of spec B 2.3-2.5, 3 and 7: news categories, article authors, articles (the
 * blog), FAQ categories and FAQs. Imported from content/ (modules/content/importer.ts), which
 * owns every row it wrote (source_file); column types for Kysely in modules/content/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await idColumns(db.schema.createTable('news_categories'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await idColumns(db.schema.createTable('article_authors'))
    // The key content files name the author by, e.g. 'marta-lopez'.
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('image_url', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await idColumns(db.schema.createTable('articles'))
    .addColumn('title', 'text', (c) => c.notNull())
    // Lower-case path alias such as '/blog/instant-payments'; articles without one stay out of lists.
    .addColumn('path', 'text', (c) => c.unique().check(sql`path like '/%' and path = lower(path)`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // HTML, sanitized before it is stored.
    .addColumn('body_html', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image_url', 'text')
    .addColumn('image_alt', 'text')
    .addColumn('category_id', 'integer', (c) => c.references('news_categories.id').onDelete('set null'))
    .addColumn('author_id', 'integer', (c) => c.references('article_authors.id').onDelete('set null'))
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(true))
    // The internal blog (spec B 2.4, 6): shown only to the internal developers group.
    .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('scrollspy_visible', 'boolean', (c) => c.notNull().defaultTo(false))
    // The content file the article came from (e.g. 'blog/articles/instant-payments.md') and its hash.
    .addColumn('source_file', 'text', (c) => c.unique())
    .addColumn('source_hash', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('articles_listing').on('articles').columns(['published', 'created']).execute();
  await db.schema.createIndex('articles_category').on('articles').column('category_id').execute();

  await idColumns(db.schema.createTable('faq_categories'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await idColumns(db.schema.createTable('faqs'))
    .addColumn('question', 'text', (c) => c.notNull().unique())
    // HTML, sanitized before it is stored.
    .addColumn('answer_html', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.references('faq_categories.id').onDelete('set null'))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('faqs_category').on('faqs').column('category_id').execute();
}

/** The serial id and the public uuid every content table has. */
function idColumns(table: CreateTableBuilder<string>) {
  return table
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('uuid', 'uuid', (col) =>
      col
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    );
}
