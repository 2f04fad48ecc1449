import type { Db } from '../../db/client.ts';
import { catalogDb } from './tables.ts';

/**
 * What other modules use of the catalog: its products (the demo organizations' importer), and what
 * every visitor may read of it (the Markdown module): documentations (all public), products that
 * are not retired, and the reference's details of an operation, worked out from a slice of the
 * stored document (operation-details.ts; the Markdown module's worker task calls them), and the
 * titles of products and documentations in the reader's language (the applications' views).
 */
import { findProduct } from './repo.ts';
import type { Locale } from '@portico/contracts/locales';
import { translationsOf } from '../../lib/translations.ts';
import { DOCUMENTATION_TRANSLATION } from './documentation-translations.ts';

/** The content_translations kind of products (console-products.ts, product-routes.ts). */
const PRODUCT_TRANSLATION = 'api_product';

export { documentationProducts, findDocumentation, findProduct } from './repo.ts';
export {
  documentationTitles,
  documentationTranslation,
  translatedIndex,
} from './documentation-translations.ts';
export { detailOfSlice, detailTarget, type DetailTarget } from './operation-details.ts';
export { productTranslation } from './translatable.ts';

/**
 * The titles of products and documentations in one language, by uuid, in one query (decision
 * 063): what another module shows of the catalog's items in the reader's language. None in the
 * default language, and none for an item without a translated title (its own title shows).
 */
export async function catalogTitles(
  db: Db,
  items: { products: readonly string[]; documentations: readonly string[] },
  langcode: Locale,
): Promise<{ products: Map<string, string>; documentations: Map<string, string> }> {
  const found = await translationsOf(db).forKinds(
    { [PRODUCT_TRANSLATION]: items.products, [DOCUMENTATION_TRANSLATION]: items.documentations },
    langcode,
  );
  const titles = (kind: string) =>
    new Map([...(found.get(kind) ?? [])].flatMap(([uuid, f]) => (f.title ? [[uuid, f.title] as const] : [])));
  return { products: titles(PRODUCT_TRANSLATION), documentations: titles(DOCUMENTATION_TRANSLATION) };
}

/** Every documentation's address and title, by title (all documentations are public). */
export async function publicDocumentations(
  db: Db,
): Promise<{ uuid: string; alias: string; title: string; version: string | null }[]> {
  return catalogDb(db)
    .selectFrom('api_documentations')
    .select(['uuid', 'alias', 'title', 'version'])
    .orderBy('title')
    .orderBy('id')
    .execute();
}

/** Products of the catalog (not retired) in its order. */
export async function publicProducts(
  db: Db,
): Promise<{ uuid: string; alias: string; title: string; version: string | null; deprecated: boolean }[]> {
  return catalogDb(db)
    .selectFrom('api_products')
    .select(['uuid', 'alias', 'title', 'version', 'deprecated'])
    .where('retired', '=', false)
    .orderBy('weight')
    .orderBy('title')
    .orderBy('id')
    .execute();
}

/** The documentations of a product, in the order of their titles. */
export async function productDocumentations(
  db: Db,
  productId: number,
): Promise<{ uuid: string; alias: string; title: string; version: string | null }[]> {
  return catalogDb(db)
    .selectFrom('api_product_documentations as pd')
    .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
    .select(['d.uuid', 'd.alias', 'd.title', 'd.version'])
    .where('pd.product_id', '=', productId)
    .orderBy('d.title')
    .orderBy('d.id')
    .execute();
}

/** One entry of a product's changelog as every visitor reads it (the MCP module). */
export interface PublicChangelogEntry {
  product: { alias: string; title: string };
  version: string;
  /** YYYY-MM-DD, or null when the entry has no date. */
  releaseDate: string | null;
  notesHtml: string;
}

/**
 * The changelog of the products that are not retired (of one, by uuid or alias, when given):
 * newest release first, as the product pages show it.
 */
export async function publicChangelog(db: Db, productRef?: string): Promise<PublicChangelogEntry[]> {
  let qb = catalogDb(db)
    .selectFrom('change_log_entries as c')
    .innerJoin('api_products as p', 'p.id', 'c.product_id')
    .select(['p.alias', 'p.title', 'c.version', 'c.release_date', 'c.notes'])
    .where('p.retired', '=', false);
  if (productRef !== undefined) {
    const product = await findProduct(db, productRef);
    if (!product || product.retired) return [];
    qb = qb.where('p.id', '=', product.id);
  }
  const rows = await qb
    .orderBy('c.release_date', (ob) => ob.desc().nullsLast())
    .orderBy('c.id', 'desc')
    .execute();
  return rows.map((r) => ({
    product: { alias: r.alias, title: r.title },
    version: r.version,
    releaseDate:
      r.release_date === null
        ? null
        : r.release_date instanceof Date
          ? r.release_date.toISOString().slice(0, 10)
          : String(r.release_date).slice(0, 10),
    notesHtml: r.notes,
  }));
}

// What the applications module needs of the catalog: the API-draft notices (notice-routes.ts), the
// products' scopes (PSD2 roles, subscriptions) and the catalog tables' types (applications/tables.ts).
export { requireApiManager } from './api-draft-routes.ts';
export { findDraft, reviewOf, type DraftRow } from './api-drafts.ts';
export { productScopes, splitScopes } from './scopes.ts';
export { checkDocumentationAlias, DocumentationInputError } from './store.ts';
export type { CatalogTables } from './tables.ts';
