import type { FastifyInstance } from 'fastify';
import { COMPARISON_TITLE_MAX, COMPARISON_VALUE_MAX } from '@portico/contracts/console-products';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import { overlayTranslations, type Overlay } from '../../lib/translation-overlay.ts';
import type { TranslationMarker } from '../../lib/translations.ts';
import { catalogDb } from './tables.ts';

/**
 * The comparison tables' translations (issue 30, decision 064): one overlay per table and language
 * in `content_translations` (`entity_type` 'comparison_table', `entity_id` the table's uuid) over
 * the table's **view** `{ title, columns: [{ title }], rows: [{ title, values }] }`, built from its
 * relational rows: the title, the own title of a column that names no product (a product's column
 * shows the product's title, translated with the product), every row's title and a text row's
 * values (a yes/no row's '1' and '0' are not text, and are not in the view).
 */

export const COMPARISON_TRANSLATION_TYPE = 'comparison_table';

/** The translatable part of a comparison table: what its overlay's pointers name. */
export interface ComparisonView {
  title: string;
  columns: { title?: string }[];
  rows: { title: string; values?: string[] }[];
}

/** A column as the view needs it: whether it names a product, and its own title. */
export interface ViewColumn {
  own: boolean;
  title: string | null;
}

/** A row as the view needs it (the values as stored: an array, or its JSON). */
export interface ViewRow {
  type: string;
  title: string;
  values: readonly string[] | string;
}

const tableOverlays = overlayTranslations<ComparisonView>({
  type: COMPARISON_TRANSLATION_TYPE,
  kind: { texts: ['title', 'values'], max: Math.max(COMPARISON_TITLE_MAX, COMPARISON_VALUE_MAX) },
});

const valuesOf = (values: readonly string[] | string): string[] =>
  typeof values === 'string' ? (JSON.parse(values) as string[]) : [...values];

/** A table's view (the positions of its columns and rows are theirs in the table). */
export function comparisonView(
  title: string,
  columns: readonly ViewColumn[],
  rows: readonly ViewRow[],
): ComparisonView {
  return {
    title,
    columns: columns.map((c) => (c.own && c.title ? { title: c.title } : {})),
    rows: rows.map((r) =>
      r.type === 'comparison_text_row' ? { title: r.title, values: valuesOf(r.values) } : { title: r.title },
    ),
  };
}

/** A table's view in a language, and the marker its public resource carries (none in the default). */
export interface ShownComparison {
  view: ComparisonView;
  translation: TranslationMarker | undefined;
}

/**
 * The tables in the reader's language, by uuid (one query): each view with the overlay of
 * `langcode` applied where its English is now (lib/overlay-relocation.ts).
 */
export async function comparisonTablesIn(
  db: Db,
  tables: readonly { uuid: string; view: ComparisonView }[],
  langcode: Locale,
): Promise<Map<string, ShownComparison>> {
  const shown = await tableOverlays.shownIn(
    db,
    tables.map((t) => [t.uuid, t.view] as const),
    langcode,
  );
  return new Map(
    tables.map((t, i) => [
      t.uuid,
      { view: shown[i]!.doc, translation: langcode === DEFAULT_LOCALE ? undefined : shown[i]!.translation },
    ]),
  );
}

/** The live view of the table `tableId` (its columns and rows as stored). */
export async function storedComparisonView(db: Db, tableId: number): Promise<ComparisonView> {
  const c = catalogDb(db);
  const [table, columns, rows] = await Promise.all([
    c.selectFrom('comparison_tables').select('title').where('id', '=', tableId).executeTakeFirstOrThrow(),
    c
      .selectFrom('comparison_table_products')
      .select(['product_id', 'title'])
      .where('table_id', '=', tableId)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
    c
      .selectFrom('comparison_rows')
      .select(['type', 'title', 'values'])
      .where('table_id', '=', tableId)
      .orderBy('weight')
      .orderBy('id')
      .execute(),
  ]);
  return comparisonView(
    table.title,
    columns.map((col) => ({ own: col.product_id === null, title: col.title })),
    rows,
  );
}

/** A table's `translations` block of the content file (lib/translation-overlay.ts), over its live view. */
export const importComparisonTranslations = tableOverlays.importFor;

/** Every table's overlays by key and language, for the export's `translations` blocks. */
export async function exportComparisonTranslations(db: Db): Promise<Map<string, Record<string, Overlay>>> {
  const out = new Map<string, Record<string, Overlay>>();
  const tables = await catalogDb(db)
    .selectFrom('comparison_tables')
    .select(['id', 'uuid', 'key'])
    .orderBy('id')
    .execute();
  for (const t of tables) {
    const overlays = await tableOverlays.exportFor(db, t.uuid, await storedComparisonView(db, t.id));
    if (overlays) out.set(t.key, overlays);
  }
  return out;
}

/**
 * The console's routes: `GET /admin-api/catalog/comparison-tables/{id}/translations`, `PUT` and
 * `DELETE …/{langcode}`, for those who edit the tables (API managers), over the table's view as saved.
 */
export function comparisonTranslationRoutes(
  app: FastifyInstance,
  base: string,
  find: (db: Db, id: string) => Promise<{ uuid: string; title: string; view: ComparisonView } | undefined>,
): void {
  tableOverlays.routes(app, {
    base,
    role: 'api_manager',
    messages: {
      forbidden: en.console.products.managersOnly,
      notFound: en.console.products.errors.comparisonNotFound,
    },
    async find(db, id) {
      const table = await find(db, id);
      return table && { id: table.uuid, label: table.title, doc: table.view };
    },
  });
}
