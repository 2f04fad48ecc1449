/** The console's API products (issue 27, apps/server/src/modules/catalog/README.md 'Console: API products'). */

import type { FieldChange } from './console-content.ts';

export const PRODUCT_TITLE_MAX = 255;
export const PRODUCT_LABEL_MAX = 32;
export const PRODUCT_DESCRIPTION_MAX = 100_000;
export const PRODUCT_ITEMS_MAX = 20;
export const PRODUCT_ITEM_TITLE_MAX = 255;
export const PRODUCT_ITEM_DESCRIPTION_MAX = 20_000;

/** A feature or an advantage: a title and its description (HTML, sanitized on save). */
export interface ProductItem {
  title: string;
  description: string;
}

/** A feature also has an icon (a URL or a path from content/catalog/images), kept as it is. */
export interface ProductFeature extends ProductItem {
  icon: string | null;
}

/** The fields the console edits: what a save replaces and a conflict compares. */
export interface ProductFields {
  title: string;
  /** A short badge on the card ('NEW'), or null. */
  label: string | null;
  /** HTML, sanitized on save like the content files'. */
  description: string;
  /** The order of the catalog: lower first, then the title. */
  weight: number;
  /** The uuid of a product category, or null. */
  category: string | null;
  commercial: boolean;
  deprecated: boolean;
  /**
   * The uuid of the product 'GO TO NEW VERSION' leads to (another product, not retired), only for
   * a deprecated product; null leaves it to the newest version of the same family.
   */
  successor: string | null;
  /** Out of the catalog, its search and new subscriptions; existing subscriptions stay. */
  retired: boolean;
  features: ProductFeature[];
  advantages: ProductItem[];
  /** uuids of related products, in their order. */
  related: string[];
}

/** One product of the console's list, in the catalog's order. */
export interface ConsoleProductListItem {
  id: string;
  alias: string;
  title: string;
  productVersion: string | null;
  label: string | null;
  weight: number;
  category: string | null;
  commercial: boolean;
  deprecated: boolean;
  retired: boolean;
  successor: { id: string; title: string; alias: string } | null;
  /** The edit version: raised by every save (also the ETag). */
  version: number;
  editedAt: string | null;
}

/** One product with its editable fields. */
export interface ConsoleProduct extends ProductFields {
  id: string;
  alias: string;
  productVersion: string | null;
  imageUrl: string | null;
  imageAlt: string | null;
  version: number;
  changed: string;
  editedAt: string | null;
}

/** A field a 409 or a revision says differs: its text before and after, and their word diff. */
export interface ProductFieldChange extends FieldChange<keyof ProductFields & string> {
  before: string;
  after: string;
}

/** A product's alias: lower-case words of letters and digits joined by '-' (its page is /apiProduct/<alias>). */
export const PRODUCT_ALIAS_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const PRODUCT_ALIAS_MAX = 120;
export const PRODUCT_VERSION_MAX = 32;

/** What creating a product sends: its alias and version label, then the fields a save sends. */
export interface ProductCreate extends ProductFields {
  alias: string;
  /** The product's own version label ('1.0'), or null. */
  productVersion: string | null;
}

export const CHANGELOG_VERSION_MAX = 64;
export const CHANGELOG_NOTES_MAX = 50_000;

/** The fields of a changelog entry the console edits. */
export interface ChangelogEntryFields {
  /** The API version the entry is about ('1.1'). */
  releaseVersion: string;
  /** 'YYYY-MM-DD', or null. */
  releaseDate: string | null;
  /** Markdown (raw HTML allowed, sanitized on save). */
  notes: string;
}

/** One changelog entry of a product, newest first in lists. */
export interface ConsoleChangelogEntry extends ChangelogEntryFields {
  id: string;
  /** The notes as the product page shows them (sanitized HTML). */
  html: string;
  /** The edit version: raised by every save (also the ETag). */
  version: number;
  created: string;
  changed: string;
}

export const COMPARISON_TITLE_MAX = 255;
export const COMPARISON_KEY_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COMPARISON_KEY_MAX = 120;
export const COMPARISON_COLUMNS_MAX = 8;
export const COMPARISON_ROWS_MAX = 100;
export const COMPARISON_VALUE_MAX = 255;

/** A category row is a heading across the table; a text row has texts; a boolean row yes ('1') or no ('0'). */
export const COMPARISON_ROW_TYPES = [
  'comparison_category',
  'comparison_text_row',
  'comparison_boolean_row',
] as const;
export type ComparisonRowKind = (typeof COMPARISON_ROW_TYPES)[number];

/** A column: a product (its title heads the column while it is live), and/or a title of its own. */
export interface ComparisonColumnFields {
  /** A product uuid, or null for a column of something outside the catalog. */
  product: string | null;
  /** The column's own title: shown when there is no product or it is deprecated or gone. */
  title: string | null;
}

export interface ComparisonRowFields {
  type: ComparisonRowKind;
  title: string;
  /** One value per column (none for a category row); '1' or '0' in a boolean row. */
  values: string[];
}

/** The fields of a comparison table the console edits (spec B 3 'comparison table'). */
export interface ComparisonTableFields {
  title: string;
  columns: ComparisonColumnFields[];
  rows: ComparisonRowFields[];
  /** uuids of the products whose pages show the table (a product shows one table at most). */
  products: string[];
}

export interface ConsoleComparisonTable extends ComparisonTableFields {
  id: string;
  /** The stable key of the content files (comparisonTables[].key, a product's comparisonTable). */
  key: string;
  /** The edit version: raised by every save (also the ETag). */
  version: number;
  editedAt: string | null;
  changed: string;
}

export interface ConsoleComparisonTableListItem {
  id: string;
  key: string;
  title: string;
  columns: number;
  rows: number;
  products: { id: string; title: string }[];
  version: number;
}

export interface ComparisonFieldChange extends FieldChange<keyof ComparisonTableFields & string> {
  before: string;
  after: string;
}

export const PLAN_MAX = 100;

/** One API documentation of a product with the plan its plan table shows (spec B 2.12). */
export interface ProductPlan {
  /** The documentation's uuid. */
  documentation: string;
  alias: string;
  title: string;
  apiVersion: string | null;
  /** e.g. '100 per hour' (the default when none was given). */
  plan: string;
  /** Set in the console: the imports keep it. */
  edited: boolean;
}
