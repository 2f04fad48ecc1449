import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../db/client.ts';

/**
 * Kysely types of migrations 0060-pages, 0277-page-editing and 0281-content-revisions; `users` (the author) comes from
 * db/schema.ts.
 */

type Created = ColumnType<Date, Date | string | undefined, never>;
type Changed = ColumnType<Date, Date | string | undefined, Date | string>;

export interface PagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  /** The canonical path alias, lower case with a leading slash, e.g. '/privacy'. */
  alias: string;
  title: string;
  /** HTML, sanitized before it is stored. */
  body_html: Generated<string>;
  image_url: string | null;
  image_alt: string | null;
  author_id: number | null;
  google_drive_id: string | null;
  scrollspy_visible: Generated<boolean>;
  /** sha256 of the imported content file; null for pages created otherwise. */
  source_hash: string | null;
  created: Created;
  changed: Changed;
  /** The Markdown the body is written in; null for a row imported before migration 0277. */
  body_markdown: string | null;
  /** Raised by every console save (optimistic concurrency). */
  version: Generated<number>;
  /** A draft answers no visitor and is not in the search. */
  published: Generated<boolean>;
  /** The last console save: the import leaves such a page alone. */
  edited_at: Date | string | null;
  /** content/pages/<name>.md it was imported from or exported to. */
  source_file: string | null;
  /** Migration 0281: a scheduled publication (with `published` false until then). */
  publish_at: Date | string | null;
}

/** Every alias of a page, its canonical alias included: what requests are looked up in. */
export interface PageAliasesTable {
  alias: string;
  page_id: number;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type PagesTables = {
  pages: PagesTable;
  page_aliases: PageAliasesTable;
};

/** The database with the pages tables known to Kysely. */
export function pagesDb(db: Db) {
  return db.withTables<PagesTables>();
}

export type PagesDb = ReturnType<typeof pagesDb>;
