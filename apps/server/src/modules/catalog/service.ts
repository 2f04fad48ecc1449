import type { Db } from '../../db/client.ts';
import { catalogDb } from './tables.ts';

/**
 * What other modules use of the catalog: its products (the demo organizations' importer), and what
 * every visitor may read of it (the Markdown module): documentations (all public), products that
 * are not retired, and the reference's details of an operation, worked out from a slice of the
 * stored document (operation-details.ts; the Markdown module's worker task calls them).
 */
export { documentationProducts, findDocumentation, findProduct } from './repo.ts';
export { detailOfSlice, detailTarget, type DetailTarget } from './operation-details.ts';

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
): Promise<{ alias: string; title: string; version: string | null }[]> {
  return catalogDb(db)
    .selectFrom('api_product_documentations as pd')
    .innerJoin('api_documentations as d', 'd.id', 'pd.documentation_id')
    .select(['d.alias', 'd.title', 'd.version'])
    .where('pd.product_id', '=', productId)
    .orderBy('d.title')
    .orderBy('d.id')
    .execute();
}
