/** The console's API products (issue 27, apps/server/src/modules/catalog/README.md 'Console: API products'). */

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

export interface ProductFieldChange {
  field: keyof ProductFields;
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
