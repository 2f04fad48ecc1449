import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../../content/content-importer.ts';
import type { Db } from '../../db/client.ts';
import type { Database } from '../../db/schema.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import type { Locale } from '@portico/contracts/locales';
import { fileTranslations, writeFileTranslations, type TranslatedFields } from '../../lib/translations.ts';
import { formatProblem, OpenApiImportError } from '../../openapi/index.ts';
import { changelogHtml } from './changelog-html.ts';
import { importDocumentationTranslations } from './documentation-translations.ts';
import { linkDocumentation, repointDocuments, saveDocumentation } from './store.ts';
import { PRODUCT_SEARCH, syncCatalogSearch } from './search-sync.ts';
import { catalogDb, type ComparisonRowType } from './tables.ts';
import { importComparisonTranslations, storedComparisonView } from './comparison-translations.ts';
import { PRODUCT_TRANSLATION_FIELDS } from './translatable.ts';
import { normalizeAlias } from './versions.ts';

/**
 * content/catalog/*.yaml and content/openapi/* (README.md 'Content'). The provider's own catalog:
 * a start with changed files updates what the files describe, matched by natural keys so that
 * uuids stay stable; nothing absent from the files is removed (CLI imports stay). Unchanged files
 * (same hash, same PUBLIC_URL) cost one settings lookup.
 */

const SETTINGS_KEY = 'content-hash:catalog';

const text = z.string().trim().min(1);
const scopes = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[\s,]+/)).filter(Boolean).join(' '));
const image = z.object({ url: text, alt: z.string().optional() });
const date = z
  .union([z.string(), z.date()])
  .transform((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v));

const ROW_TYPES = ['comparison_category', 'comparison_text_row', 'comparison_boolean_row'] as const;

export const catalogFile = z
  .object({
    categories: z.array(z.object({ name: text, weight: z.number().int().default(0) })).default([]),
    documentations: z
      .array(
        z.object({
          alias: text,
          title: text.optional(),
          spec: text,
          apiId: z.string().optional(),
          version: z.string().optional(),
          deprecated: z.boolean().default(false),
          plan: z.string().optional(),
          tour: z.unknown().optional(),
          // The web app embeds the bot (and the CSP allows its origin) only at an http(s) address.
          bot: z
            .object({
              enabled: z.boolean().default(false),
              url: z
                .url({ protocol: /^https?$/ })
                .nullable()
                .optional(),
            })
            .optional(),
          /**
           * Per language but the default: the title, `info.description` and tags' descriptions
           * (Markdown) shown instead of the document's (decision 063; checked on import).
           */
          translations: z
            .record(
              z.string(),
              z
                .object({
                  title: text,
                  description: z.string().optional(),
                  tags: z.record(z.string(), z.string()).optional(),
                })
                .strict(),
            )
            .optional(),
        }),
      )
      .default([]),
    comparisonTables: z
      .array(
        z.object({
          key: text,
          title: text,
          columns: z.array(z.object({ product: z.string().optional(), title: z.string().optional() })),
          rows: z.array(
            z.object({
              type: z.enum(ROW_TYPES),
              title: text,
              values: z.array(z.union([z.string(), z.number(), z.boolean()]).transform(String)).default([]),
            }),
          ),
          /** The table's translations (decision 064): language to JSON pointer of its view to text. */
          translations: z.record(z.string(), z.record(z.string(), z.string().max(255))).optional(),
        }),
      )
      .default([]),
    products: z
      .array(
        z.object({
          alias: text,
          title: text,
          version: z.union([z.string(), z.number()]).transform(String).optional(),
          label: z.string().optional(),
          category: z.string().optional(),
          description: z.string().default(''),
          deprecated: z.boolean().default(false),
          /** The alias 'GO TO NEW VERSION' leads to (the console's successor). */
          successor: text.optional(),
          retired: z.boolean().default(false),
          commercial: z.boolean().default(false),
          disableDocumentation: z.boolean().default(false),
          weight: z.number().int().default(0),
          image: image.optional(),
          headerImage: image.optional(),
          overviewDisplay: z.string().optional(),
          scope: scopes.default(''),
          scopeProduction: scopes.default(''),
          psd2CertificateRequired: z.boolean().default(false),
          /** PSD2 roles an application's certificate must hold (issue 28). */
          psd2Roles: z.array(z.enum(['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'])).default([]),
          documentations: z.array(text).default([]),
          features: z
            .array(
              z.object({ title: text, description: z.string().default(''), icon: z.string().optional() }),
            )
            .default([]),
          advantagesHeader: z
            .object({ title: z.string().optional(), body: z.string().optional() })
            .optional(),
          advantages: z.array(z.object({ title: text, description: z.string().default('') })).default([]),
          related: z.array(text).default([]),
          comparisonTable: z.string().optional(),
          changelog: z
            .array(
              z.object({
                version: z.union([z.string(), z.number()]).transform(String),
                releaseDate: date.optional(),
                notes: z.string().default(''),
                /** Notes in Markdown (the console's, written by export-content): rendered instead of `notes`. */
                notesMarkdown: z.string().optional(),
              }),
            )
            .default([]),
          /** `{ de: { title, description } }` (decision 063): checked by the translatable fields. */
          translations: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .default([]),
  })
  .strict();

type CatalogFile = z.infer<typeof catalogFile>;

function listFiles(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort();
}

interface Loaded {
  catalog: CatalogFile;
  /** Spec files by path relative to content/. */
  specs: Map<string, string>;
  hash: string;
  /** The products' translations (their `translations` blocks), by alias. */
  productTranslations: Map<string, Map<Locale, TranslatedFields>>;
}

/** Reads and validates every file; a broken file stops the start with a precise message. */
export function loadCatalogContent(contentDir: string, publicUrl: string): Loaded | undefined {
  const catalogDir = path.join(contentDir, 'catalog');
  const openapiDir = path.join(contentDir, 'openapi');
  const files = listFiles(catalogDir, /\.ya?ml$/i);
  const specFiles = listFiles(openapiDir, /\.(ya?ml|json)$/i).map((f) => `openapi/${f}`);
  if (!files.length && !specFiles.length) return undefined;
  const hash = createHash('sha256').update(publicUrl);
  const merged: CatalogFile = { categories: [], documentations: [], comparisonTables: [], products: [] };
  const productTranslations = new Map<string, Map<Locale, TranslatedFields>>();
  for (const file of files) {
    const raw = fs.readFileSync(path.join(catalogDir, file), 'utf8');
    hash.update(`\0catalog/${file}\0${raw}`);
    let data: unknown;
    try {
      data = parse(raw) ?? {};
    } catch (err) {
      throw new Error(`content/catalog/${file} is not valid YAML: ${(err as Error).message}`, { cause: err });
    }
    const parsed = catalogFile.safeParse(data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
      throw new Error(`content/catalog/${file} is invalid:\n${issues}`);
    }
    for (const [i, p] of parsed.data.products.entries()) {
      productTranslations.set(
        normalizeAlias(p.alias),
        fileTranslations(
          `catalog/${file}`,
          PRODUCT_TRANSLATION_FIELDS,
          p.translations,
          `products.${i}.translations`,
        ),
      );
    }
    for (const key of Object.keys(merged) as (keyof CatalogFile)[]) {
      (merged[key] as unknown[]).push(...parsed.data[key]);
    }
  }
  const specs = new Map<string, string>();
  for (const rel of new Set([...specFiles, ...merged.documentations.map((d) => d.spec)])) {
    const full = path.resolve(contentDir, rel);
    if (!full.startsWith(path.resolve(contentDir) + path.sep) || !fs.existsSync(full)) {
      throw new Error(`content: the OpenAPI document ${rel} does not exist under content/`);
    }
    const body = fs.readFileSync(full, 'utf8');
    hash.update(`\0${rel}\0${body}`);
    specs.set(rel, body);
  }
  return { catalog: merged, specs, hash: hash.digest('hex'), productTranslations };
}

async function importDocumentations(db: Db, loaded: Loaded, publicUrl: string) {
  const byAlias = new Map<string, number>();
  const described = new Set(loaded.catalog.documentations.map((d) => d.spec));
  const entries = [
    ...loaded.catalog.documentations,
    // A spec file no documentation entry names: its file name is the alias.
    ...[...loaded.specs.keys()]
      .filter((rel) => !described.has(rel))
      .map((rel) => ({
        alias: path.basename(rel).replace(/\.(ya?ml|json)$/i, ''),
        spec: rel,
        title: undefined,
        apiId: undefined,
        version: undefined,
        deprecated: false,
        plan: undefined,
        tour: undefined,
        bot: undefined,
        translations: undefined,
      })),
  ];
  for (const d of entries) {
    try {
      const saved = await saveDocumentation(
        db,
        {
          alias: d.alias,
          source: loaded.specs.get(d.spec)!,
          filename: path.basename(d.spec),
          title: d.title,
          apiId: d.apiId ?? null,
          version: d.version,
          deprecated: d.deprecated,
          plan: d.plan,
          tour: d.tour,
          botEnabled: d.bot?.enabled,
          botUrl: d.bot?.url ?? null,
        },
        publicUrl,
      );
      byAlias.set(saved.alias, saved.id);
    } catch (err) {
      if (err instanceof OpenApiImportError) {
        throw new Error(
          `content/${d.spec}: ${err.message.split('\n')[0]}\n${err.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`,
          { cause: err },
        );
      }
      throw err;
    }
  }
  return byAlias;
}

/** Updates rows matched by key, inserts new ones, deletes the rest (children of one parent). */
async function reconcile<T extends { id: number }, I>(
  existing: T[],
  wanted: I[],
  keyOf: { row: (r: T, index: number) => string; item: (i: I, index: number) => string },
  ops: {
    update: (row: T, item: I, index: number) => Promise<void>;
    insert: (item: I, index: number) => Promise<void>;
    remove: (ids: number[]) => Promise<void>;
  },
) {
  const byKey = new Map(existing.map((r, i) => [keyOf.row(r, i), r]));
  const kept = new Set<number>();
  for (const [index, item] of wanted.entries()) {
    const row = byKey.get(keyOf.item(item, index));
    if (row && !kept.has(row.id)) {
      kept.add(row.id);
      await ops.update(row, item, index);
    } else await ops.insert(item, index);
  }
  const gone = existing.filter((r) => !kept.has(r.id)).map((r) => r.id);
  if (gone.length) await ops.remove(gone);
}

async function importCatalog(
  trx: Transaction<Database>,
  catalog: CatalogFile,
  docIds: Map<string, number>,
  productTranslations: Loaded['productTranslations'],
) {
  const c = catalogDb(trx as unknown as Db);
  const categoryIds = new Map<string, number>();
  for (const cat of catalog.categories) {
    const row = await c
      .insertInto('product_categories')
      .values({ name: cat.name, weight: cat.weight })
      .onConflict((oc) => oc.column('name').doUpdateSet({ weight: cat.weight }))
      .returning('id')
      .executeTakeFirstOrThrow();
    categoryIds.set(cat.name, row.id);
  }

  // Products first without their links to other products and tables.
  const productIds = new Map<string, number>();
  const editedIds = new Set<number>();
  const translated: { id: string; translations: Map<Locale, TranslatedFields> }[] = [];
  for (const p of catalog.products) {
    const alias = normalizeAlias(p.alias);
    let categoryId: number | null = null;
    if (p.category) {
      categoryId =
        categoryIds.get(p.category) ??
        (
          await c
            .insertInto('product_categories')
            .values({ name: p.category })
            .onConflict((oc) => oc.column('name').doUpdateSet({ name: p.category! }))
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      categoryIds.set(p.category, categoryId);
    }
    const values = {
      title: p.title,
      description: cleanHtml(p.description),
      version: p.version ?? null,
      label: p.label ?? null,
      deprecated: p.deprecated,
      retired: p.retired,
      commercial: p.commercial,
      disable_documentation: p.disableDocumentation,
      weight: p.weight,
      image_url: p.image?.url ?? null,
      image_alt: p.image?.alt ?? null,
      header_image_url: p.headerImage?.url ?? null,
      overview_display: p.overviewDisplay ?? null,
      scope: p.scope,
      scope_production: p.scopeProduction,
      psd2_certificate_required: p.psd2CertificateRequired,
      psd2_roles: p.psd2Roles,
      category_id: categoryId,
      advantages_header_title: p.advantagesHeader?.title ?? null,
      advantages_header_body: p.advantagesHeader?.body ? cleanHtml(p.advantagesHeader.body) : null,
    };
    // A product edited in the console keeps its fields (README 'Console: API products').
    const row =
      (await c
        .insertInto('api_products')
        .values({ alias, ...values })
        .onConflict((oc) =>
          oc
            .column('alias')
            .doUpdateSet({ ...values, changed: new Date() })
            .where('api_products.edited_at', 'is', null),
        )
        .returning(['id', 'uuid', 'edited_at'])
        .executeTakeFirst()) ??
      (await c
        .selectFrom('api_products')
        .select(['id', 'uuid', 'edited_at'])
        .where('alias', '=', alias)
        .executeTakeFirstOrThrow());
    productIds.set(alias, row.id);
    if (row.edited_at) editedIds.add(row.id);
    translated.push({ id: row.uuid, translations: productTranslations.get(alias) ?? new Map() });
  }
  // Their translations (decision 063): one edited in the console since is kept, as its product is.
  await writeFileTranslations(trx as unknown as Db, 'api_product', translated, PRODUCT_SEARCH);
  const productId = (alias: string, where: string) => {
    const id = productIds.get(normalizeAlias(alias));
    if (id === undefined) throw new Error(`content/catalog: ${where} names the unknown product '${alias}'`);
    return id;
  };

  const tableIds = new Map<string, number>();
  // Tables saved in the console: their title, columns, rows and the products that show them are
  // the console's (README 'Console: API products').
  const consoleTables = new Set(
    (await c.selectFrom('comparison_tables').select('id').where('edited_at', 'is not', null).execute()).map(
      (r) => r.id,
    ),
  );
  for (const t of catalog.comparisonTables) {
    const table =
      (await c
        .insertInto('comparison_tables')
        .values({ key: t.key, title: t.title })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({ title: t.title, changed: new Date() })
            .where('comparison_tables.edited_at', 'is', null),
        )
        .returning(['id', 'uuid'])
        .executeTakeFirst()) ??
      (await c
        .selectFrom('comparison_tables')
        .select(['id', 'uuid'])
        .where('key', '=', t.key)
        .executeTakeFirstOrThrow());
    tableIds.set(t.key, table.id);
    // The translations follow the table as it is (the console's, when it was saved there).
    const importTranslations = async () =>
      importComparisonTranslations(
        trx as unknown as Db,
        table.uuid,
        await storedComparisonView(trx as unknown as Db, table.id),
        t.translations,
      );
    if (consoleTables.has(table.id)) {
      await importTranslations();
      continue;
    }
    const columns = await c
      .selectFrom('comparison_table_products')
      .selectAll()
      .where('table_id', '=', table.id)
      .orderBy('weight')
      .orderBy('id')
      .execute();
    await reconcile(
      columns,
      t.columns,
      { row: (_r, i) => String(i), item: (_c, i) => String(i) },
      {
        update: async (row, col, i) => {
          await c
            .updateTable('comparison_table_products')
            .set({
              product_id: col.product ? productId(col.product, `comparison table '${t.key}'`) : null,
              title: col.title ?? null,
              weight: i,
            })
            .where('id', '=', row.id)
            .execute();
        },
        insert: async (col, i) => {
          await c
            .insertInto('comparison_table_products')
            .values({
              table_id: table.id,
              product_id: col.product ? productId(col.product, `comparison table '${t.key}'`) : null,
              title: col.title ?? null,
              weight: i,
            })
            .execute();
        },
        remove: async (ids) => {
          await c.deleteFrom('comparison_table_products').where('id', 'in', ids).execute();
        },
      },
    );
    const rows = await c
      .selectFrom('comparison_rows')
      .selectAll()
      .where('table_id', '=', table.id)
      .orderBy('weight')
      .orderBy('id')
      .execute();
    await reconcile(
      rows,
      t.rows,
      { row: (r) => `${r.type}\0${r.title}`, item: (r) => `${r.type}\0${r.title}` },
      {
        update: async (row, r, i) => {
          await c
            .updateTable('comparison_rows')
            .set({ values: JSON.stringify(r.values), weight: i })
            .where('id', '=', row.id)
            .execute();
        },
        insert: async (r, i) => {
          await c
            .insertInto('comparison_rows')
            .values({
              table_id: table.id,
              type: r.type as ComparisonRowType,
              title: r.title,
              values: JSON.stringify(r.values),
              weight: i,
            })
            .execute();
        },
        remove: async (ids) => {
          await c.deleteFrom('comparison_rows').where('id', 'in', ids).execute();
        },
      },
    );
    await importTranslations();
  }

  const contentDocIds = [...docIds.values()];
  for (const p of catalog.products) {
    const id = productId(p.alias, 'a product');
    let tableId: number | null = null;
    if (p.comparisonTable) {
      tableId = tableIds.get(p.comparisonTable) ?? null;
      if (tableId === null) {
        throw new Error(
          `content/catalog: product '${p.alias}' names the unknown comparison table '${p.comparisonTable}'`,
        );
      }
    }
    const shown = await c
      .selectFrom('api_products')
      .select('comparison_table_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const consoleOwned =
      (shown.comparison_table_id !== null && consoleTables.has(shown.comparison_table_id)) ||
      (tableId !== null && consoleTables.has(tableId));
    if (!consoleOwned)
      await c
        .updateTable('api_products')
        .set({ comparison_table_id: tableId })
        .where('id', '=', id)
        .execute();

    // Documentation links: content decides about content documentations only.
    const wantedDocs = p.documentations.map((alias) => {
      const docId = docIds.get(normalizeAlias(alias));
      if (docId === undefined) {
        throw new Error(`content/catalog: product '${p.alias}' names the unknown documentation '${alias}'`);
      }
      return docId;
    });
    if (contentDocIds.length) {
      await c
        .deleteFrom('api_product_documentations')
        .where('product_id', '=', id)
        .where('documentation_id', 'in', contentDocIds)
        .where('documentation_id', 'not in', [...wantedDocs, -1])
        .execute();
    }
    for (const [i, docId] of wantedDocs.entries())
      await linkDocumentation(trx as unknown as Db, id, docId, i);

    // Successor, related products, features and advantages are the console's too once it edited
    // the product.
    const fromFile = !editedIds.has(id);
    if (fromFile) {
      const successorId = p.successor ? productId(p.successor, `product '${p.alias}'`) : null;
      if (successorId === id) throw new Error(`content/catalog: product '${p.alias}' is its own successor`);
      await c.updateTable('api_products').set({ successor_id: successorId }).where('id', '=', id).execute();
    }
    if (fromFile) await c.deleteFrom('related_products').where('product_id', '=', id).execute();
    for (const [i, alias] of fromFile ? p.related.entries() : []) {
      await c
        .insertInto('related_products')
        .values({ product_id: id, related_product_id: productId(alias, `product '${p.alias}'`), weight: i })
        .onConflict((oc) => oc.columns(['product_id', 'related_product_id']).doNothing())
        .execute();
    }

    for (const table of fromFile ? (['product_features', 'product_advantages'] as const) : []) {
      const items = table === 'product_features' ? p.features : p.advantages;
      const existing = await c
        .selectFrom(table)
        .select(['id', 'title'])
        .where('product_id', '=', id)
        .execute();
      await reconcile(
        existing,
        items as { title: string; description: string; icon?: string }[],
        { row: (r) => r.title, item: (f) => f.title },
        {
          update: async (row, f, i) => {
            await c
              .updateTable(table)
              .set({
                description: cleanHtml(f.description),
                weight: i,
                ...(table === 'product_features' ? { icon_url: f.icon ?? null } : {}),
              })
              .where('id', '=', row.id)
              .execute();
          },
          insert: async (f, i) => {
            await c
              .insertInto(table)
              .values({
                product_id: id,
                title: f.title,
                description: cleanHtml(f.description),
                weight: i,
                ...(table === 'product_features' ? { icon_url: f.icon ?? null } : {}),
              })
              .execute();
          },
          remove: async (ids) => {
            await c.deleteFrom(table).where('id', 'in', ids).execute();
          },
        },
      );
    }

    // The changelog is the console's once it added, edited or deleted an entry (or published a
    // new version): the file's entries no longer replace it.
    const owner = await c
      .selectFrom('api_products')
      .select('changelog_edited_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (owner.changelog_edited_at) continue;
    const entries = await c
      .selectFrom('change_log_entries')
      .select(['id', 'version'])
      .where('product_id', '=', id)
      .execute();
    await reconcile(
      entries,
      p.changelog,
      { row: (r) => r.version, item: (e) => e.version },
      {
        update: async (row, e) => {
          await c
            .updateTable('change_log_entries')
            .set({ release_date: e.releaseDate ?? null, ...notesOf(e) })
            .where('id', '=', row.id)
            .execute();
        },
        insert: async (e) => {
          await c
            .insertInto('change_log_entries')
            .values({
              product_id: id,
              version: e.version,
              release_date: e.releaseDate ?? null,
              ...notesOf(e),
            })
            .execute();
        },
        remove: async (ids) => {
          await c.deleteFrom('change_log_entries').where('id', 'in', ids).execute();
        },
      },
    );
  }
}

/** A file's changelog notes as stored: Markdown rendered (and kept for the console), else the HTML cleaned. */
function notesOf(e: { notes: string; notesMarkdown?: string | undefined }) {
  return e.notesMarkdown !== undefined
    ? { notes: changelogHtml(e.notesMarkdown), notes_markdown: e.notesMarkdown }
    : { notes: cleanHtml(e.notes), notes_markdown: null };
}

/** Runs the catalog import for a content folder (also used by tests). */
export async function importCatalogContent(
  db: Db,
  contentDir: string,
  publicUrl: string,
): Promise<'imported' | 'unchanged' | 'none'> {
  const loaded = loadCatalogContent(contentDir, publicUrl);
  if (!loaded) {
    await repointDocuments(db, publicUrl);
    return 'none';
  }
  const previous = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', SETTINGS_KEY)
    .executeTakeFirst();
  if ((previous?.value as { hash?: string } | undefined)?.hash === loaded.hash) {
    await repointDocuments(db, publicUrl);
    return 'unchanged';
  }
  // Documents are processed outside the transaction (the slow part); rows are written in one.
  const docIds = await importDocumentations(db, loaded, publicUrl);
  await db.transaction().execute(async (trx) => {
    // Several instances starting together: one imports, the others wait and find it done.
    await sql`select pg_advisory_xact_lock(hashtext('portico:catalog-content'))`.execute(trx);
    await importCatalog(trx, loaded.catalog, docIds, loaded.productTranslations);
    // The documentations' translations, unless the console wrote them since.
    for (const d of loaded.catalog.documentations) {
      const id = docIds.get(normalizeAlias(d.alias));
      if (id !== undefined) await importDocumentationTranslations(trx, id, d.translations ?? {});
    }
    await trx
      .insertInto('settings')
      .values({ key: SETTINGS_KEY, value: JSON.stringify({ hash: loaded.hash }) })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ value: JSON.stringify({ hash: loaded.hash }), updated_at: new Date() }),
      )
      .execute();
  });
  await repointDocuments(db, publicUrl);
  return 'imported';
}

export const catalogImporter: ContentImporter = {
  name: 'catalog',
  async run({ db, contentDir, log, publicUrl }) {
    const url = publicUrl ?? process.env.PUBLIC_URL ?? 'http://localhost:3000';
    const result = await importCatalogContent(db, contentDir, url.replace(/\/$/, ''));
    log.debug({ result }, 'catalog content');
    log.debug({ search: await syncCatalogSearch(db) }, 'catalog search index');
  },
};
