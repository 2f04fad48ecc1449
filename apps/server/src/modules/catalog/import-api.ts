import path from 'node:path';
import { defaultApiAlias } from '@portico/contracts/api-import';
import type { Db } from '../../db/client.ts';
import type { SharedText } from '../../lib/text-pieces.ts';
import {
  prepareDocument,
  prepareUploadedDocument,
  processOpenApi,
  type PreparedDocument,
} from '../../openapi/index.ts';
import { checkDocumentationAlias, saveDocumentation, type SavedDocumentation } from './store.ts';
import { syncCatalogSearch } from './search-sync.ts';
import { generatedImageUrl, productDescriptionFromInfo } from './product-info.ts';
import { grantDocumentScopes } from './scopes.ts';
import { catalogDb } from './tables.ts';
import { normalizeAlias } from './versions.ts';

export interface ImportApiOptions {
  /** The product the documentation belongs to (created when missing). */
  product: string;
  /** Defaults to one from the file name (contracts/api-import.ts defaultApiAlias). */
  alias?: string;
  /** Defaults to the document's info.title. */
  title?: string;
  apiId?: string;
  deprecated?: boolean;
  plan?: string;
  /** The product's category by name: an existing one, else created (last in order). */
  category?: string;
  /**
   * What the catalog keeps of a documentation besides its document (a new version published from
   * the console keeps its tour and chat bot); without them an import clears them.
   */
  kept?: { tour: unknown; botEnabled: boolean; botUrl: string | null };
}

export interface ImportApiResult {
  documentation: SavedDocumentation;
  product: {
    id: number;
    uuid: string;
    alias: string;
    title: string;
    created: boolean;
    category: string | null;
  };
}

/** A document checked and processed for the catalog, ready to be stored: no database needed. */
export interface PreparedApiImport {
  /** The source: a SharedText (decoded in the worker, in row pieces) when it was uploaded and long. */
  file: { name: string; text: string | SharedText };
  options: ImportApiOptions;
  publicUrl: string;
  alias: string;
  processed: PreparedDocument;
}

/**
 * The `import-api` command's checks, which need no database: the alias, then the whole OpenAPI
 * pipeline (size limit, syntax, validation, conversion). Throws DocumentationInputError or
 * OpenApiImportError, so a refused document never opens (or creates, or migrates) a database.
 */
export async function prepareApiImport(
  file: { name: string; text: string },
  options: ImportApiOptions,
  publicUrl: string,
  /**
   * Process on this thread (the command line) instead of the worker pool (a server); `utf8`: the
   * text's bytes, which the caller needs no more and the worker decodes (pool.ts prepareDocument).
   */
  how: { inline?: boolean; utf8?: Buffer } = {},
): Promise<PreparedApiImport> {
  const alias = checkDocumentationAlias(options.alias ?? defaultApiAlias(file.name));
  const processOptions = { alias, publicUrl, filename: path.basename(file.name) };
  const processed = how.inline
    ? await processOpenApi(file.text, processOptions)
    : await prepareDocument(file.text, processOptions, how.utf8);
  return { file, options, publicUrl, alias, processed };
}

/**
 * prepareApiImport for an upload (the portal's import endpoint): the bytes are decoded and processed
 * in the worker pool, and the text stays there until stored (decision 061): the event loop never
 * decodes or holds the whole document.
 */
export async function prepareUploadedApiImport(
  file: { name: string; utf8: Buffer },
  options: ImportApiOptions,
  publicUrl: string,
): Promise<PreparedApiImport> {
  const alias = checkDocumentationAlias(options.alias ?? defaultApiAlias(file.name));
  const { prepared, source } = await prepareUploadedDocument(file.utf8, {
    alias,
    publicUrl,
    filename: path.basename(file.name),
  });
  return { file: { name: file.name, text: source }, options, publicUrl, alias, processed: prepared };
}

/** The `import-api` command's work: one prepared document into the catalog, linked to a product. */
export async function importApi(db: Db, prepared: PreparedApiImport): Promise<ImportApiResult> {
  const { file, options, publicUrl, alias, processed } = prepared;
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
      ...(options.kept
        ? { tour: options.kept.tour, botEnabled: options.kept.botEnabled, botUrl: options.kept.botUrl }
        : {}),
      processed,
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
  const categoryId = options.category ? await categoryByName(db, options.category) : undefined;
  if (!product) {
    const info = documentation.processed?.info;
    // A new product takes the document's info (description, contact, license, external docs) and
    // gets a generated image, so its card and page are not empty.
    product = await c
      .insertInto('api_products')
      .values({
        alias: productAlias,
        title: documentation.title,
        version: info?.version ?? null,
        description: productDescriptionFromInfo(processed.about),
        image_url: generatedImageUrl(productAlias),
        image_alt: documentation.title,
        category_id: categoryId ?? null,
      })
      .onConflict((oc) => oc.column('alias').doUpdateSet({ alias: productAlias }))
      .returning(['id', 'uuid', 'alias', 'title'])
      .executeTakeFirstOrThrow();
    created = true;
  } else if (categoryId !== undefined) {
    await c
      .updateTable('api_products')
      .set({ category_id: categoryId, changed: new Date() })
      .where('id', '=', product.id)
      .execute();
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
  // The document's OAuth scopes become the product's, so subscriptions grant them.
  await grantDocumentScopes(db, product.id, documentation.id);
  // The operations the worker found while processing the document: not read back and parsed again.
  const processedOperations = documentation.processed
    ? new Map([[documentation.processed.contentHash, documentation.processed.searchEntries]])
    : undefined;
  await syncCatalogSearch(db, processedOperations);
  return { documentation, product: { ...product, created, category: options.category?.trim() || null } };
}

/** The id of the category of that name (case-insensitive), created last in order when missing. */
async function categoryByName(db: Db, name: string): Promise<number> {
  const c = catalogDb(db);
  const wanted = name.trim();
  const found = await c
    .selectFrom('product_categories')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['name']), '=', wanted.toLowerCase()))
    .orderBy('id')
    .executeTakeFirst();
  if (found) return found.id;
  const last = await c
    .selectFrom('product_categories')
    .select((eb) => eb.fn.max('weight').as('weight'))
    .executeTakeFirst();
  const row = await c
    .insertInto('product_categories')
    .values({ name: wanted, weight: Number(last?.weight ?? -1) + 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ name: wanted }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
