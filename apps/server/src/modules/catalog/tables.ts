import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { ApiDocumentTextsTable } from '../../openapi/document-texts.ts';

/**
 * Kysely types of the catalog tables (migration 0040-catalog). Other modules read the catalog
 * through `catalogDb(app.db)` (or `trx.withTables<CatalogTables>()`), e.g. the applications module
 * reads `api_products` (uuid, title, version, deprecated, commercial, weight, scope,
 * scope_production, psd2_certificate_required).
 */

type Created = ColumnType<Date, Date | string | undefined, never>;
type Changed = ColumnType<Date, Date | string | undefined, Date | string>;

export interface ProductCategoriesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  weight: Generated<number>;
}

export interface ApiProductsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  title: string;
  /** Path alias without a leading slash, e.g. 'accounts-api-v1'. */
  alias: string;
  /** HTML (sanitized on import). */
  description: Generated<string>;
  version: string | null;
  label: string | null;
  deprecated: Generated<boolean>;
  commercial: Generated<boolean>;
  disable_documentation: Generated<boolean>;
  weight: Generated<number>;
  image_url: string | null;
  image_alt: string | null;
  header_image_url: string | null;
  overview_display: string | null;
  /** Space-separated OAuth scopes granted for DEVELOPMENT (sandbox) clients of subscribed apps. */
  scope: Generated<string>;
  /** Space-separated OAuth scopes granted for PRODUCTION clients. */
  scope_production: Generated<string>;
  psd2_certificate_required: Generated<boolean>;
  /** PSD2 roles an application's certificate must hold to subscribe (migration 0305). */
  psd2_roles: Generated<string[]>;
  category_id: number | null;
  advantages_header_title: string | null;
  advantages_header_body: string | null;
  comparison_table_id: number | null;
  /** Raised by every console save (migration 0278; `version` is the product's own version label). */
  edit_version: Generated<number>;
  /** Raised by every console save of the product's plans (migration 0294). */
  plans_version: Generated<number>;
  /** Where a deprecated product's 'GO TO NEW VERSION' leads; null: the newest of its family. */
  successor_id: number | null;
  /** Out of the catalog, its search and new subscriptions; existing subscriptions stay. */
  retired: Generated<boolean>;
  /** The last console save: the content import leaves the product's fields alone from then on. */
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Created in the console (migration 0282): export-content writes it to catalog/console.yaml. */
  console_created: Generated<boolean>;
  /** The last console change to its changelog: the content import leaves the changelog alone. */
  changelog_edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created: Created;
  changed: Changed;
}

export interface ApiDocumentationsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  /** Also the sandbox path segment: /sandbox/<alias>. */
  alias: string;
  title: string;
  api_id: string | null;
  version: string | null;
  deprecated: Generated<boolean>;
  /** The document as imported; null when it is kept in `api_document_texts` (openapi/document-texts.ts). */
  source: string | null;
  source_format: 'json' | 'yaml';
  source_filename: string | null;
  /** e.g. 'swagger 2.0', 'openapi 3.0.3'. */
  source_spec_version: string | null;
  /**
   * OpenAPI 3.1, bundled: `$ref`s kept (decision 017; a `json` column: key order kept). When the
   * text is kept in `api_document_texts` (decision 031), only its digest: what SQL reads of it.
   */
  converted: JSONColumnType<Record<string, unknown>, Record<string, unknown> | string | null> | null;
  /**
   * The operations' index (OperationIndex as JSON); null when it is kept in `api_document_texts`
   * as part 'operation_index' (decision 042).
   */
  operation_index: JSONColumnType<object, object | string | null> | null;
  /** The index's operationCount, which lists show without reading the index (migration 0250). */
  operation_count: number | null;
  content_hash: string | null;
  tour: JSONColumnType<object, object | string | null> | null;
  bot_enabled: Generated<boolean>;
  bot_url: string | null;
  plan: Generated<string>;
  /** The plan was set in the console (migration 0282): the imports keep it from then on. */
  plan_edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created: Created;
  changed: Changed;
}

/** Big texts of a documentation, in rows of at most 256 K characters (openapi/document-texts.ts). */
export type { ApiDocumentTextsTable };

export interface ApiProductDocumentationsTable {
  product_id: number;
  documentation_id: number;
  weight: Generated<number>;
}

export interface ProductFeaturesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  product_id: number;
  title: string;
  description: Generated<string>;
  icon_url: string | null;
  weight: Generated<number>;
}

export interface ProductAdvantagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  product_id: number;
  title: string;
  description: Generated<string>;
  weight: Generated<number>;
}

export interface RelatedProductsTable {
  product_id: number;
  related_product_id: number;
  weight: Generated<number>;
}

export interface ComparisonTablesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  /** Stable key used by content imports. */
  key: string;
  title: string;
  /** Raised by every console save (migration 0282). */
  edit_version: Generated<number>;
  /** The last console save: the content import leaves the table alone from then on. */
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created: Created;
  changed: Changed;
}

export type ComparisonRowType = 'comparison_category' | 'comparison_text_row' | 'comparison_boolean_row';

export interface ComparisonRowsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  table_id: number;
  type: ComparisonRowType;
  title: string;
  /** One value per product column ('1' means yes in boolean rows). */
  values: JSONColumnType<string[], string[] | string, string[] | string>;
  weight: Generated<number>;
}

export interface ComparisonTableProductsTable {
  id: Generated<number>;
  table_id: number;
  product_id: number | null;
  title: string | null;
  weight: Generated<number>;
}

export interface ChangeLogEntriesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  product_id: number;
  version: string;
  /** `date` column; read back as a Date (midnight UTC) or 'YYYY-MM-DD' depending on the driver. */
  release_date: ColumnType<Date | string | null, string | null | undefined, string | null>;
  notes: Generated<string>;
  /** The Markdown the console wrote it in (migration 0282); null: `notes` (HTML) is the source. */
  notes_markdown: string | null;
  /** Raised by every console save. */
  edit_version: Generated<number>;
  created: Created;
  changed: Changed;
}

/** A new version of an API uploaded from the console, until and after it is published (migration 0275). */
export interface ApiDraftsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  documentation_alias: string;
  product_alias: string;
  title: string;
  from_version: string | null;
  to_version: string | null;
  source: string;
  source_filename: string | null;
  source_spec_version: string;
  /** The review: ApiChangeSummary, operations, scopes and changelog text (api-drafts.ts DraftReview). */
  review: JSONColumnType<object, string, string>;
  created_by: number | null;
  created: Created;
  published_at: Date | string | null;
  published_by: number | null;
  change_log_entry_id: number | null;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type CatalogTables = {
  product_categories: ProductCategoriesTable;
  api_products: ApiProductsTable;
  api_documentations: ApiDocumentationsTable;
  api_document_texts: ApiDocumentTextsTable;
  api_product_documentations: ApiProductDocumentationsTable;
  product_features: ProductFeaturesTable;
  product_advantages: ProductAdvantagesTable;
  related_products: RelatedProductsTable;
  comparison_tables: ComparisonTablesTable;
  comparison_rows: ComparisonRowsTable;
  comparison_table_products: ComparisonTableProductsTable;
  change_log_entries: ChangeLogEntriesTable;
  api_drafts: ApiDraftsTable;
};

/** The database with the catalog tables known to Kysely. */
export function catalogDb(db: Db) {
  return db.withTables<CatalogTables>();
}

export type CatalogDb = ReturnType<typeof catalogDb>;
