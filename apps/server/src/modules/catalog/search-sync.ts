import { createHash } from 'node:crypto';
import { inTransaction, type Db } from '../../db/client.ts';
import { plainText } from '../../lib/plain-text.ts';
import { searchIndex, translatedSearch, type SearchDocument } from '../search/service.ts';
import { documentSearchEntries } from '../../openapi/pool.ts';
import type { OperationSearchEntry } from '../../openapi/search-entries.ts';
import { documentTextChunks } from '../../openapi/document-texts.ts';
import { catalogDb } from './tables.ts';

/**
 * Keeps the site search (modules/search) current with the catalog: every API product is an
 * `api_product` result, every operation of every imported document an `api_endpoint` result
 * (spec B 2.6). The catalog's importers (content/catalog on start, the import-api command) call
 * this when they are done; the console's product saves write the products' rows themselves
 * (`indexProducts`). A document's operations are read from
 * its stored (bundled) form in a worker thread (openapi/pool.ts), off the event loop. Products are few and re-written every
 * time; a document's operations are written again only when the document changed (its
 * fingerprint in search_sources), so a start with unchanged content costs two small queries.
 * `known` gives the operations of documents just processed, by content hash (the importer has
 * them from the worker that processed the document): those are not read back from the database.
 */
export async function syncCatalogSearch(
  db: Db,
  known: ReadonlyMap<string, readonly OperationSearchEntry[]> = new Map(),
): Promise<{ products: number; documentations: number }> {
  const c = catalogDb(db);
  const documentations = await c
    .selectFrom('api_documentations')
    .select(['id', 'uuid', 'title', 'deprecated', 'created', 'content_hash'])
    .execute();
  const index = searchIndex(db);
  const indexed = await index.sourceFingerprints('documentation:');
  const fingerprint = (d: (typeof documentations)[number]) =>
    `${d.content_hash ?? ''}|${d.title}|${String(d.deprecated)}`;
  const stale = documentations.filter((d) => indexed.get(`documentation:${d.uuid}`) !== fingerprint(d));
  const present = new Set(documentations.map((d) => `documentation:${d.uuid}`));
  const gone = [...indexed.keys()].filter((source) => !present.has(source));

  const products = await inTransaction(db, async (trx) => {
    const tx = searchIndex(trx);
    const products = await indexProducts(trx);
    for (const source of gone) {
      await tx.removeLinked('api_endpoint', `/documentation/${source.slice('documentation:'.length)}#`);
      await tx.forgetSource(source);
    }
    for (const d of stale) {
      await indexOperations(trx, d, d.content_hash ? known.get(d.content_hash) : undefined);
      await tx.sourceIndexed(`documentation:${d.uuid}`, fingerprint(d));
    }
    return products;
  });
  return { products, documentations: stale.length };
}

/**
 * Writes every product's search row and removes those of products gone or retired (retired
 * products leave the search with the catalog). Products are few: all are written each time. Run it
 * in the transaction that changed them (the console's saves), so the search shows the change with
 * the catalog. Returns how many products are indexed.
 */
export async function indexProducts(trx: Db): Promise<number> {
  const products = await catalogDb(trx)
    .selectFrom('api_products')
    .select(['uuid', 'alias', 'title', 'description', 'image_url', 'deprecated', 'created'])
    .where('retired', '=', false)
    .execute();
  const tx = searchIndex(trx);
  await tx.upsert(
    products.map((p): SearchDocument => ({
      type: 'api_product',
      uuid: p.uuid,
      title: p.title,
      text: plainText(p.description),
      // Spec B 2.6: a product result goes to /apiProduct/{uuid} unless an alias matches.
      link: p.alias ? `/apiProduct/${p.alias.replace(/^\//, '')}` : null,
      image: p.image_url,
      deprecated: p.deprecated,
      created: p.created,
    })),
    PRODUCT_SEARCH,
  );
  await tx.retainOnly(
    'api_product',
    products.map((p) => p.uuid),
  );
  return products.length;
}

/** A product's translations in the site search (decision 065), made as its own row is. */
export const PRODUCT_SEARCH = translatedSearch({
  type: 'api_product',
  entityType: 'api_product',
  doc: (t) => ({ title: t.title ?? '', text: plainText(t.description ?? '') }),
});

/** A stable uuid for one operation of one documentation (results need a uuid; operations have keys). */
export function endpointUuid(documentationUuid: string, key: string): string {
  const h = createHash('sha256').update(`${documentationUuid}\n${key}`).digest('hex');
  // Shaped as a version-8 (custom) RFC 9562 uuid.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Splits 'listAccountTransactions' and '/accounts/{accountId}' into words the index can match. */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Operations turned into search rows per step (see indexOperations). */
const ROWS_PER_SLICE = 200;

async function indexOperations(
  trx: Db,
  d: { id: number; uuid: string; title: string; deprecated: boolean; created: Date },
  known: readonly OperationSearchEntry[] | undefined,
): Promise<void> {
  const link = `/documentation/${d.uuid}#`;
  const tx = searchIndex(trx);
  await tx.removeLinked('api_endpoint', link);
  const operations = known ?? (await storedSearchEntries(trx, d.id));
  // Rows are made a slice at a time, each written before the next is made: the event loop turns
  // while each statement runs (in PostgreSQL or the embedded database's thread: decision 054).
  for (let i = 0; i < operations.length; i += ROWS_PER_SLICE) {
    await tx.upsert(
      operations.slice(i, i + ROWS_PER_SLICE).map((op): SearchDocument => {
        const method = op.method.toUpperCase();
        return {
          type: 'api_endpoint',
          uuid: endpointUuid(d.uuid, op.key),
          title: op.summary?.trim() || `${method} ${op.path}`,
          text: op.text,
          keywords: [
            method,
            op.path,
            words(op.path),
            op.operationId ?? '',
            words(op.operationId ?? ''),
            d.title,
          ].join(' '),
          link: `${link}operation/${op.key}`,
          deprecated: d.deprecated || op.deprecated,
          created: d.created,
        };
      }),
    );
  }
}

/**
 * The operations of a stored document, read from its text in a worker thread (parsing a large
 * one takes seconds). The text's rows go to the worker as they are and are joined there: joining
 * GitHub's 7 MB here took 60-90 ms of this thread in one turn.
 */
async function storedSearchEntries(trx: Db, documentationId: number): Promise<OperationSearchEntry[]> {
  const chunks: string[] = [];
  for await (const chunk of documentTextChunks(trx, documentationId, 'converted')) chunks.push(chunk);
  if (!chunks.length) return [];
  return documentSearchEntries(chunks);
}
