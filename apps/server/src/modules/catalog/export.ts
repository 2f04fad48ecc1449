import fs from 'node:fs';
import path from 'node:path';
import { isMap, isSeq, parseDocument, type Document, type YAMLMap } from 'yaml';
import type { Db } from '../../db/client.ts';
import { catalogDb } from './tables.ts';

/**
 * Writes the products edited in the console (`edited_at`) back into the entries of
 * content/catalog/*.yaml that describe them (README.md 'Console: API products'), in the import's
 * format: the fields the console edits are replaced in place and everything else of the file
 * (comments, other keys, other products) stays. A product no file describes (made by import-api)
 * is reported, not written: its home is the OpenAPI import.
 */
export interface CatalogExportResult {
  /** Aliases of the products written, by file (relative to content/). */
  written: string[];
  files: string[];
  /** Edited products no catalog file describes. */
  skipped: string[];
}

interface Edited {
  id: number;
  alias: string;
  title: string;
  label: string | null;
  description: string;
  weight: number;
  category: string | null;
  commercial: boolean;
  deprecated: boolean;
  retired: boolean;
  successor: string | null;
}

/** Sets `key` to `value`, or removes it when `value` is undefined. */
function put(entry: YAMLMap, key: string, value: unknown) {
  if (value === undefined) entry.delete(key);
  else entry.set(key, value);
}

export async function exportCatalogProducts(db: Db, contentDir: string): Promise<CatalogExportResult> {
  const c = catalogDb(db);
  const edited: Edited[] = await c
    .selectFrom('api_products as p')
    .leftJoin('product_categories as cat', 'cat.id', 'p.category_id')
    .leftJoin('api_products as s', 's.id', 'p.successor_id')
    .select([
      'p.id',
      'p.alias',
      'p.title',
      'p.label',
      'p.description',
      'p.weight',
      'cat.name as category',
      'p.commercial',
      'p.deprecated',
      'p.retired',
      's.alias as successor',
    ])
    .where('p.edited_at', 'is not', null)
    .orderBy('p.id')
    .execute();
  const result: CatalogExportResult = { written: [], files: [], skipped: [] };
  if (!edited.length) return result;
  const ids = edited.map((e) => e.id);
  const [features, advantages, related] = await Promise.all([
    c
      .selectFrom('product_features')
      .select(['product_id', 'title', 'description', 'icon_url'])
      .where('product_id', 'in', ids)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('product_advantages')
      .select(['product_id', 'title', 'description'])
      .where('product_id', 'in', ids)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('related_products as r')
      .innerJoin('api_products as o', 'o.id', 'r.related_product_id')
      .select(['r.product_id', 'o.alias'])
      .where('r.product_id', 'in', ids)
      .orderBy('r.weight')
      .orderBy('o.title')
      .execute(),
  ]);

  const catalogDir = path.join(contentDir, 'catalog');
  const files = fs.existsSync(catalogDir)
    ? fs
        .readdirSync(catalogDir)
        .filter((f) => /\.ya?ml$/i.test(f))
        .sort()
    : [];
  const left = new Map(edited.map((e) => [e.alias, e]));
  for (const file of files) {
    const full = path.join(catalogDir, file);
    const doc: Document = parseDocument(fs.readFileSync(full, 'utf8'));
    const products = doc.get('products');
    if (!isSeq(products)) continue;
    let changed = false;
    for (const item of products.items) {
      if (!isMap(item)) continue;
      const alias = String(item.get('alias') ?? '').replace(/^\//, '');
      const p = left.get(alias);
      if (!p) continue;
      left.delete(alias);
      put(item, 'title', p.title);
      put(item, 'label', p.label ?? undefined);
      put(item, 'category', p.category ?? undefined);
      put(item, 'weight', p.weight);
      put(item, 'description', p.description);
      put(item, 'deprecated', p.deprecated || undefined);
      put(item, 'successor', p.successor ?? undefined);
      put(item, 'retired', p.retired || undefined);
      put(item, 'commercial', p.commercial || undefined);
      const own = <T extends { product_id: number }>(rows: T[]) => rows.filter((r) => r.product_id === p.id);
      const featureList = own(features).map((f) => ({
        title: f.title,
        description: f.description,
        ...(f.icon_url ? { icon: f.icon_url } : {}),
      }));
      const advantageList = own(advantages).map((a) => ({ title: a.title, description: a.description }));
      const relatedList = own(related).map((r) => r.alias);
      put(item, 'features', featureList.length ? doc.createNode(featureList) : undefined);
      put(item, 'advantages', advantageList.length ? doc.createNode(advantageList) : undefined);
      put(item, 'related', relatedList.length ? doc.createNode(relatedList, { flow: true }) : undefined);
      result.written.push(alias);
      changed = true;
    }
    if (changed) {
      fs.writeFileSync(full, doc.toString({ lineWidth: 100 }));
      result.files.push(`catalog/${file}`);
    }
  }
  result.skipped = [...left.keys()];
  return result;
}
