import path from 'node:path';
import type { Db } from '../../db/client.ts';
import { saveDocumentation, type SavedDocumentation } from './store.ts';
import { catalogDb } from './tables.ts';
import { normalizeAlias } from './versions.ts';

export interface ImportApiOptions {
  /** The product the documentation belongs to (created when missing). */
  product: string;
  /** Defaults to the file name without extension. */
  alias?: string;
  /** Defaults to the document's info.title. */
  title?: string;
  apiId?: string;
  deprecated?: boolean;
  plan?: string;
}

export interface ImportApiResult {
  documentation: SavedDocumentation;
  product: { id: number; uuid: string; alias: string; title: string; created: boolean };
}

/** The `import-api` command's work: one OpenAPI document into the catalog, linked to a product. */
export async function importApi(
  db: Db,
  file: { name: string; text: string },
  options: ImportApiOptions,
  publicUrl: string,
): Promise<ImportApiResult> {
  const alias = (options.alias ?? path.basename(file.name).replace(/\.(ya?ml|json)$/i, '')).toLowerCase();
  const documentation = await saveDocumentation(
    db,
    {
      alias,
      source: file.text,
      filename: path.basename(file.name),
      title: options.title,
      apiId: options.apiId ?? null,
      deprecated: options.deprecated,
      plan: options.plan,
    },
    publicUrl,
  );
  const c = catalogDb(db);
  const productAlias = normalizeAlias(options.product);
  let product = await c
    .selectFrom('api_products')
    .select(['id', 'uuid', 'alias', 'title'])
    .where('alias', '=', productAlias)
    .executeTakeFirst();
  let created = false;
  if (!product) {
    const info = documentation.processed?.info;
    product = await c
      .insertInto('api_products')
      .values({
        alias: productAlias,
        title: documentation.title,
        version: info?.version ?? null,
        description: '',
      })
      .onConflict((oc) => oc.column('alias').doUpdateSet({ alias: productAlias }))
      .returning(['id', 'uuid', 'alias', 'title'])
      .executeTakeFirstOrThrow();
    created = true;
  }
  const weight = await c
    .selectFrom('api_product_documentations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('product_id', '=', product.id)
    .executeTakeFirstOrThrow();
  // A re-import keeps the documentation's place among the product's documentations.
  await c
    .insertInto('api_product_documentations')
    .values({ product_id: product.id, documentation_id: documentation.id, weight: Number(weight.n) })
    .onConflict((oc) => oc.columns(['product_id', 'documentation_id']).doNothing())
    .execute();
  return { documentation, product: { ...product, created } };
}
