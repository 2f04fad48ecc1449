import type { ColumnType, Kysely } from 'kysely';

/** Kysely types of migration 0100-search. */
export interface SearchDocumentsTable {
  type: string;
  uuid: string;
  /** Migration 0315: the row's language (default 'en'), part of the key with type and uuid. */
  langcode: ColumnType<string, string | undefined, string>;
  title: string;
  body: ColumnType<string, string | undefined, string>;
  keywords: ColumnType<string, string | undefined, string>;
  link: string | null;
  image: string | null;
  deprecated: ColumnType<boolean, boolean | undefined, boolean>;
  created: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Generated: never written. */
  document: ColumnType<string, never, never>;
  /** Generated (migration 0210: title A, keywords B): never written. */
  heading: ColumnType<string, never, never>;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type SearchTables = {
  search_documents: SearchDocumentsTable;
  search_sources: SearchSourcesTable;
};

/** Migration 0101: the fingerprint of what a bulk source (an OpenAPI document) last indexed. */
export interface SearchSourcesTable {
  source: string;
  fingerprint: string;
}

/**
 * Any Kysely instance or transaction, seen with the search table only. Modules call the index
 * inside their own transactions, whose database types differ from one module to the next; the
 * index touches its own table only, so the cast is sound.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely is invariant in its database type, and every module's transaction has its own; any is the only type they all share.
export type AnyKysely = Kysely<any>;

export function searchDb(db: AnyKysely): Kysely<SearchTables> {
  return db as unknown as Kysely<SearchTables>;
}
