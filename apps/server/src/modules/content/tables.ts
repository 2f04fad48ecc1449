import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/client.ts';

/** Kysely types of migration 0170-content. */

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface NewsCategoriesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  weight: Generated<number>;
  /** Migration 0296: raised by every console save and move; the last change. */
  version: Generated<number>;
  changed: Stamp;
}

export interface ArticleAuthorsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  key: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  image_url: string | null;
  created: Stamp;
  changed: Stamp;
}

export interface ArticlesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  title: string;
  path: string | null;
  description: Generated<string>;
  body_html: Generated<string>;
  image_url: string | null;
  image_alt: string | null;
  category_id: number | null;
  author_id: number | null;
  published: Generated<boolean>;
  internal: Generated<boolean>;
  scrollspy_visible: Generated<boolean>;
  source_file: string | null;
  source_hash: string | null;
  created: Stamp;
  changed: Stamp;
  /** Migration 0274: the Markdown source, the save counter, a scheduled publication, the last console save. */
  body_markdown: string | null;
  version: Generated<number>;
  publish_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface FaqCategoriesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  weight: Generated<number>;
  /** Migration 0296: raised by every console save and move; the last change. */
  version: Generated<number>;
  changed: Stamp;
}

export interface FaqsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  question: string;
  answer_html: string;
  category_id: number | null;
  weight: Generated<number>;
  created: Stamp;
  changed: Stamp;
  /** Migration 0276: the Markdown source, the save counter, drafts, the last console save. */
  answer_markdown: string | null;
  version: Generated<number>;
  published: Generated<boolean>;
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Migration 0281: a scheduled publication (with `published` false until then). */
  publish_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type ContentTables = {
  news_categories: NewsCategoriesTable;
  article_authors: ArticleAuthorsTable;
  articles: ArticlesTable;
  faq_categories: FaqCategoriesTable;
  faqs: FaqsTable;
};

export function contentDb(db: Db) {
  return db.withTables<ContentTables>();
}
export type ContentDb = ReturnType<typeof contentDb>;
