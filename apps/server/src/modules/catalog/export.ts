import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isMap, isSeq, parseDocument, YAMLSeq, type Document, type YAMLMap } from 'yaml';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { entriesOf, translationEntry, translationsOf, translationsOfKind } from '../../lib/translations.ts';
import { exportComparisonTranslations } from './comparison-translations.ts';
import { DOCUMENTATION_TRANSLATION } from './documentation-translations.ts';
import { catalogDb } from './tables.ts';
import { PRODUCT_TRANSLATION_FIELDS } from './translatable.ts';

/**
 * Writes the products edited in the console (`edited_at`) back into the entries of
 * content/catalog/*.yaml that describe them (README.md 'Console: API products'), in the import's
 * format: the fields the console edits are replaced in place and everything else of the file
 * (comments, other keys, other products) stays. A product whose changelog the console changed gets
 * its `changelog` written too. A product created in the console that no file describes yet is
 * added to content/catalog/console.yaml (made when missing) with all its fields. A product no file
 * describes that import-api made is reported, not written: its home is the OpenAPI import.
 * A documentation's plan set in the console goes into its entry of `documentations`, and so do its
 * translations written in the console (`translations.<langcode>`: title, description, tags).
 * Comparison tables saved in the console (`edited_at`) replace their entry of `comparisonTables`
 * (else go to console.yaml), and every product entry's `comparisonTable` follows the products such
 * a table is shown on. Every product entry's `translations` block follows the product's
 * translations (decision 063), and every table entry's the table's overlays (decision 064),
 * whoever wrote them.
 */
export interface CatalogExportResult {
  /** Aliases of the products written, by file (relative to content/). */
  written: string[];
  files: string[];
  /** Edited products no catalog file describes. */
  skipped: string[];
  /** Keys of the comparison tables written. */
  tables: string[];
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

/**
 * The documentations' translations written in the console (`updated_by` set), by alias and
 * language, as the content file's `translations` entries (documentation-translations.ts).
 */
async function consoleDocumentationTranslations(
  db: Db,
): Promise<Map<string, [string, { title: string; description?: string; tags?: Record<string, string> }][]>> {
  const docs = await catalogDb(db).selectFrom('api_documentations').select(['uuid', 'alias']).execute();
  const out = new Map<
    string,
    [string, { title: string; description?: string; tags?: Record<string, string> }][]
  >();
  for (const d of docs) {
    for (const row of await translationsOf(db).list(DOCUMENTATION_TRANSLATION, d.uuid)) {
      if (row.updatedBy === null) continue;
      const tags = entriesOf(row.fields, 'tags');
      const entry = {
        title: row.fields.title ?? '',
        ...(row.fields.description ? { description: row.fields.description } : {}),
        ...(Object.keys(tags).length ? { tags } : {}),
      };
      out.set(d.alias, [...(out.get(d.alias) ?? []), [row.langcode, entry]]);
    }
  }
  return out;
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
  const result: CatalogExportResult = { written: [], files: [], skipped: [], tables: [] };
  const tables = await consoleTables(db);
  // Plans set in the console: into their documentation's entry.
  const plans = new Map(
    (
      await c
        .selectFrom('api_documentations')
        .select(['alias', 'plan'])
        .where('plan_edited_at', 'is not', null)
        .execute()
    ).map((d) => [d.alias, d.plan]),
  );
  // The products' translations, by alias: each entry's `translations` block.
  const translations = await translationsOfKind(db, 'api_product');
  const translationsByAlias = new Map<string, Record<string, Record<string, string>>>();
  if (translations.size) {
    const products = await c
      .selectFrom('api_products')
      .select(['uuid', 'alias'])
      .where('uuid', 'in', [...translations.keys()])
      .execute();
    for (const p of products) {
      translationsByAlias.set(
        p.alias,
        Object.fromEntries(
          [...translations.get(p.uuid)!].map(([l, f]) => [
            l,
            translationEntry(PRODUCT_TRANSLATION_FIELDS, f),
          ]),
        ),
      );
    }
  }
  // The documentations' translations written in the console: each documentation entry's block.
  const docTranslations = await consoleDocumentationTranslations(db);
  // The comparison tables' translations (decision 064), by key: each table entry's block.
  const tableTranslations = await exportComparisonTranslations(db);
  if (
    !edited.length &&
    !tables.list.length &&
    !plans.size &&
    !translations.size &&
    !docTranslations.size &&
    !tableTranslations.size
  )
    return result;
  const ids = [...edited.map((e) => e.id), -1];
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
      .select(['product_id', 'version', 'release_date', 'notes', 'notes_markdown'])
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
        // The console's Markdown, so that its editor gets it back after an import; else the HTML.
        ...(e.notes_markdown !== null ? { notesMarkdown: e.notes_markdown } : { notes: e.notes }),
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
  const tablesLeft = new Map(tables.list.map((t) => [t.key, t]));
  const consoleKeys = new Set(tables.list.map((t) => t.key));
  /** A product entry's `comparisonTable` when a console table is (or was) its. */
  const putTable = (item: YAMLMap, alias: string): boolean => {
    const now = tables.byProduct.get(alias);
    const was = item.get('comparisonTable');
    if (now !== undefined) {
      if (was === now) return false;
      item.set('comparisonTable', now);
      return true;
    }
    if (typeof was === 'string' && consoleKeys.has(was)) {
      item.delete('comparisonTable');
      return true;
    }
    return false;
  };
  /** Sets the entry's `translations` block to the product's translations; true when it changed. */
  const putTranslations = (doc: Document, item: YAMLMap, alias: string): boolean => {
    const want = translationsByAlias.get(alias);
    const was = item.get('translations');
    if (isDeepStrictEqual(isMap(was) ? was.toJSON() : was, want)) return false;
    put(item, 'translations', want && doc.createNode(want));
    return true;
  };
  /** Sets a table entry's `translations` block to the table's overlays; true when it changed. */
  const putTableTranslations = (doc: Document, item: YAMLMap, key: string): boolean => {
    const want = tableTranslations.get(key);
    const was = item.get('translations');
    if (isDeepStrictEqual(isMap(was) ? was.toJSON() : was, want)) return false;
    put(item, 'translations', want && doc.createNode(want));
    return true;
  };
  const writeFile = (file: string, doc: Document) => {
    fs.writeFileSync(path.join(catalogDir, file), doc.toString({ lineWidth: 100 }));
    if (!result.files.includes(`catalog/${file}`)) result.files.push(`catalog/${file}`);
  };
  for (const file of files) {
    const doc: Document = parseDocument(fs.readFileSync(path.join(catalogDir, file), 'utf8'));
    let changed = false;
    const docEntries = doc.get('documentations');
    for (const item of isSeq(docEntries) ? docEntries.items : []) {
      if (!isMap(item)) continue;
      const docAlias = String(item.get('alias') ?? '').replace(/^\//, '');
      for (const [langcode, fields] of docTranslations.get(docAlias) ?? []) {
        item.setIn(['translations', langcode], doc.createNode(fields));
        changed = true;
      }
      const plan = plans.get(docAlias);
      if (plan === undefined || item.get('plan') === plan) continue;
      item.set('plan', plan);
      changed = true;
    }
    const tableEntries = doc.get('comparisonTables');
    for (const item of isSeq(tableEntries) ? tableEntries.items : []) {
      if (!isMap(item)) continue;
      if (putTableTranslations(doc, item, String(item.get('key') ?? ''))) changed = true;
      const t = tablesLeft.get(String(item.get('key') ?? ''));
      if (!t) continue;
      tablesLeft.delete(t.key);
      writeTableEntry(doc, item, t);
      result.tables.push(t.key);
      changed = true;
    }
    const products = doc.get('products');
    for (const item of isSeq(products) ? products.items : []) {
      if (!isMap(item)) continue;
      const alias = String(item.get('alias') ?? '').replace(/^\//, '');
      if (putTable(item, alias)) changed = true;
      if (putTranslations(doc, item, alias)) changed = true;
      const p = left.get(alias);
      if (!p) continue;
      left.delete(alias);
      write(doc, item, p);
      result.written.push(alias);
      changed = true;
    }
    if (changed) writeFile(file, doc);
  }
  // Products made in the console that no file describes yet, and console tables no file has:
  // into console.yaml, with all their fields.
  const created = [...left.values()].filter((p) => p.consoleCreated);
  if (created.length || tablesLeft.size) {
    fs.mkdirSync(catalogDir, { recursive: true });
    const full = path.join(catalogDir, CONSOLE_CATALOG_FILE);
    const doc: Document = fs.existsSync(full)
      ? parseDocument(fs.readFileSync(full, 'utf8'))
      : parseDocument(
          '# API products and comparison tables created in the provider console (written by `npm run portal -- export-content`).\n{}\n',
        );
    const listOf = (key: string): YAMLSeq => {
      const found = doc.get(key);
      if (isSeq(found)) return found;
      const seq = new YAMLSeq();
      doc.set(key, seq);
      return seq;
    };
    for (const t of tablesLeft.values()) {
      const item = doc.createNode({ key: t.key }) as YAMLMap;
      writeTableEntry(doc, item, t);
      putTableTranslations(doc, item, t.key);
      listOf('comparisonTables').items.push(item);
      result.tables.push(t.key);
    }
    for (const p of created) {
      const item = doc.createNode({
        alias: p.alias,
        title: p.title,
        ...(p.version ? { version: p.version } : {}),
        ...(p.imageUrl ? { image: { url: p.imageUrl, ...(p.imageAlt ? { alt: p.imageAlt } : {}) } } : {}),
      }) as YAMLMap;
      write(doc, item, { ...p, fields: true, changelog: true });
      putTable(item, p.alias);
      putTranslations(doc, item, p.alias);
      listOf('products').items.push(item);
      left.delete(p.alias);
      result.written.push(p.alias);
    }
    writeFile(CONSOLE_CATALOG_FILE, doc);
  }
  result.skipped = [...left.keys()];
  return result;
}

interface ConsoleTable {
  key: string;
  title: string;
  columns: { product: string | null; title: string | null }[];
  rows: { type: string; title: string; values: string[] }[];
}

/** The comparison tables saved in the console, and which product (by alias) shows which (by key). */
async function consoleTables(db: Db): Promise<{ list: ConsoleTable[]; byProduct: Map<string, string> }> {
  const c = catalogDb(db);
  const tables = await c
    .selectFrom('comparison_tables')
    .select(['id', 'key', 'title'])
    .where('edited_at', 'is not', null)
    .orderBy('id')
    .execute();
  if (!tables.length) return { list: [], byProduct: new Map() };
  const ids = tables.map((t) => t.id);
  const [columns, rows, shownOn] = await Promise.all([
    c
      .selectFrom('comparison_table_products as col')
      .leftJoin('api_products as p', 'p.id', 'col.product_id')
      .select(['col.table_id', 'p.alias', 'col.title'])
      .where('col.table_id', 'in', ids)
      .orderBy('col.weight')
      .orderBy('col.id')
      .execute(),
    c
      .selectFrom('comparison_rows')
      .select(['table_id', 'type', 'title', 'values'])
      .where('table_id', 'in', ids)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('api_products')
      .select(['alias', 'comparison_table_id'])
      .where('comparison_table_id', 'in', ids)
      .execute(),
  ]);
  const keyOf = new Map(tables.map((t) => [t.id, t.key]));
  return {
    list: tables.map((t) => ({
      key: t.key,
      title: t.title,
      columns: columns
        .filter((col) => col.table_id === t.id)
        .map((col) => ({ product: col.alias ?? null, title: col.title })),
      rows: rows
        .filter((r) => r.table_id === t.id)
        .map((r) => ({
          type: r.type,
          title: r.title,
          values: typeof r.values === 'string' ? (JSON.parse(r.values) as string[]) : r.values,
        })),
    })),
    byProduct: new Map(shownOn.map((p) => [p.alias, keyOf.get(p.comparison_table_id!)!])),
  };
}

/** A comparison table's entry in the import's format (a column whose product is gone keeps its title). */
function writeTableEntry(doc: Document, item: YAMLMap, t: ConsoleTable) {
  put(item, 'title', t.title);
  const columns = t.columns
    .map((col) => ({
      ...(col.product ? { product: col.product } : {}),
      ...(col.title ? { title: col.title } : {}),
    }))
    .map((col) => doc.createNode(col, { flow: true }));
  put(item, 'columns', doc.createNode(columns));
  put(
    item,
    'rows',
    doc.createNode(
      t.rows.map((r) =>
        doc.createNode(
          r.type === 'comparison_category'
            ? { type: r.type, title: r.title }
            : { type: r.type, title: r.title, values: r.values },
          { flow: true },
        ),
      ),
    ),
  );
}
