import fs from 'node:fs';
import path from 'node:path';
import { isMap, isSeq, parseDocument, YAMLSeq, type Document, type YAMLMap } from 'yaml';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { catalogDb } from './tables.ts';

/**
 * Writes the products edited in the console (`edited_at`) back into the entries of
 * content/catalog/*.yaml that describe them (README.md 'Console: API products'), in the import's
 * format: the fields the console edits are replaced in place and everything else of the file
 * (comments, other keys, other products) stays. A product whose changelog the console changed gets
 * its `changelog` written too. A product created in the console that no file describes yet is
 * added to content/catalog/console.yaml (made when missing) with all its fields. A product no file
 * describes that import-api made is reported, not written: its home is the OpenAPI import.
 */
export interface CatalogExportResult {
  /** Aliases of the products written, by file (relative to content/). */
  written: string[];
  files: string[];
  /** Edited products no catalog file describes. */
  skipped: string[];
}

/** The file console-created products are written to when no file describes them. */
export const CONSOLE_CATALOG_FILE = 'console.yaml';

interface Edited {
  id: number;
  alias: string;
  version: string | null;
  imageUrl: string | null;
  imageAlt: string | null;
  consoleCreated: boolean;
  /** The console edited the fields (else only the changelog). */
  fields: boolean;
  changelog: boolean;
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
      'p.version',
      'p.image_url as imageUrl',
      'p.image_alt as imageAlt',
      'p.console_created as consoleCreated',
      sql<boolean>`p.edited_at is not null`.as('fields'),
      sql<boolean>`p.changelog_edited_at is not null`.as('changelog'),
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
    .where((eb) => eb.or([eb('p.edited_at', 'is not', null), eb('p.changelog_edited_at', 'is not', null)]))
    .orderBy('p.id')
    .execute();
  const result: CatalogExportResult = { written: [], files: [], skipped: [] };
  if (!edited.length) return result;
  const ids = edited.map((e) => e.id);
  const [features, advantages, related, changelog] = await Promise.all([
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
    c
      .selectFrom('change_log_entries')
      .select(['product_id', 'version', 'release_date', 'notes'])
      .where('product_id', 'in', ids)
      .orderBy('release_date', (ob) => ob.desc().nullsFirst())
      .orderBy('created', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const own = <T extends { product_id: number }>(rows: T[], p: Edited) =>
    rows.filter((r) => r.product_id === p.id);
  const day = (d: Date | string | null) =>
    d === null ? undefined : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

  /** Writes the console's fields (and changelog) of `p` into its entry. */
  const write = (doc: Document, item: YAMLMap, p: Edited) => {
    if (p.fields) {
      put(item, 'title', p.title);
      put(item, 'label', p.label ?? undefined);
      put(item, 'category', p.category ?? undefined);
      put(item, 'weight', p.weight);
      put(item, 'description', p.description);
      put(item, 'deprecated', p.deprecated || undefined);
      put(item, 'successor', p.successor ?? undefined);
      put(item, 'retired', p.retired || undefined);
      put(item, 'commercial', p.commercial || undefined);
      const featureList = own(features, p).map((f) => ({
        title: f.title,
        description: f.description,
        ...(f.icon_url ? { icon: f.icon_url } : {}),
      }));
      const advantageList = own(advantages, p).map((a) => ({ title: a.title, description: a.description }));
      const relatedList = own(related, p).map((r) => r.alias);
      put(item, 'features', featureList.length ? doc.createNode(featureList) : undefined);
      put(item, 'advantages', advantageList.length ? doc.createNode(advantageList) : undefined);
      put(item, 'related', relatedList.length ? doc.createNode(relatedList, { flow: true }) : undefined);
    }
    if (p.changelog) {
      const entries = own(changelog, p).map((e) => ({
        version: e.version,
        ...(day(e.release_date) ? { releaseDate: day(e.release_date) } : {}),
        notes: e.notes,
      }));
      put(item, 'changelog', entries.length ? doc.createNode(entries) : undefined);
    }
  };

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
      write(doc, item, p);
      result.written.push(alias);
      changed = true;
    }
    if (changed) {
      fs.writeFileSync(full, doc.toString({ lineWidth: 100 }));
      result.files.push(`catalog/${file}`);
    }
  }
  // Products made in the console that no file describes yet: into console.yaml, all their fields.
  const created = [...left.values()].filter((p) => p.consoleCreated);
  if (created.length) {
    fs.mkdirSync(catalogDir, { recursive: true });
    const full = path.join(catalogDir, CONSOLE_CATALOG_FILE);
    const doc: Document = fs.existsSync(full)
      ? parseDocument(fs.readFileSync(full, 'utf8'))
      : parseDocument(
          '# API products created in the provider console (written by `npm run portal -- export-content`).\n{}\n',
        );
    let products = doc.get('products');
    if (!isSeq(products)) {
      products = new YAMLSeq();
      doc.set('products', products);
    }
    for (const p of created) {
      const item = doc.createNode({
        alias: p.alias,
        title: p.title,
        ...(p.version ? { version: p.version } : {}),
        ...(p.imageUrl ? { image: { url: p.imageUrl, ...(p.imageAlt ? { alt: p.imageAlt } : {}) } } : {}),
      }) as YAMLMap;
      write(doc, item, { ...p, fields: true, changelog: true });
      (products as YAMLSeq).items.push(item);
      left.delete(p.alias);
      result.written.push(p.alias);
    }
    fs.writeFileSync(full, doc.toString({ lineWidth: 100 }));
    if (!result.files.includes(`catalog/${CONSOLE_CATALOG_FILE}`))
      result.files.push(`catalog/${CONSOLE_CATALOG_FILE}`);
  }
  result.skipped = [...left.keys()];
  return result;
}
