import type { FastifyInstance } from 'fastify';
import { COMPARISON_TITLE_MAX, COMPARISON_VALUE_MAX } from '@portico/contracts/console-products';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { en } from '@portico/contracts/messages';
import type { Db } from '../../db/client.ts';
import {
  applyOverlay,
  exportOverlays,
  importOverlays,
  overlayFields,
  type Overlay,
  type OverlayKind,
} from '../../lib/translation-overlay.ts';
import {
  markerOf,
  translationRoutes,
  translationsOf,
  type TranslationMarker,
} from '../../lib/translations.ts';
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

export const COMPARISON_OVERLAY: OverlayKind = {
  texts: ['title', 'values'],
  max: Math.max(COMPARISON_TITLE_MAX, COMPARISON_VALUE_MAX),
};

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
  const found = await translationsOf(db).overlaysOf(
    COMPARISON_TRANSLATION_TYPE,
    tables.map((t) => t.uuid),
    langcode,
  );
  return new Map(
    tables.map((t) => {
      const overlay = found.get(t.uuid);
      return [
        t.uuid,
        {
          view: overlay ? applyOverlay(t.view, overlay.fields, COMPARISON_OVERLAY, overlay.sources) : t.view,
          translation: langcode === DEFAULT_LOCALE ? undefined : markerOf(langcode, !!overlay),
        },
      ];
    }),
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
export async function importComparisonTranslations(
  db: Db,
  uuid: string,
  view: ComparisonView,
  block: Record<string, Overlay> | undefined,
): Promise<void> {
  await importOverlays(db, COMPARISON_TRANSLATION_TYPE, uuid, view, COMPARISON_OVERLAY, block);
}

/** Every table's overlays by key and language, for the export's `translations` blocks. */
export async function exportComparisonTranslations(db: Db): Promise<Map<string, Record<string, Overlay>>> {
  const out = new Map<string, Record<string, Overlay>>();
  const tables = await catalogDb(db)
    .selectFrom('comparison_tables')
    .select(['id', 'uuid', 'key'])
    .orderBy('id')
    .execute();
  for (const t of tables) {
    const view = await storedComparisonView(db, t.id);
    const overlays = await exportOverlays(db, COMPARISON_TRANSLATION_TYPE, t.uuid, view, COMPARISON_OVERLAY);
    if (overlays) out.set(t.key, overlays);
  }
  return out;
}

/**
 * The console's routes (lib/translations.ts): `GET /admin-api/catalog/comparison-tables/{id}/translations`,
 * `PUT` and `DELETE …/{langcode}`, for those who edit the tables (API managers). The fields are the
 * table's view's leaves as saved, each with its English.
 */
export function comparisonTranslationRoutes(
  app: FastifyInstance,
  base: string,
  find: (db: Db, id: string) => Promise<{ uuid: string; title: string; view: ComparisonView } | undefined>,
): void {
  translationRoutes(app, {
    entityType: COMPARISON_TRANSLATION_TYPE,
    base,
    role: 'api_manager',
    messages: {
      forbidden: en.console.products.managersOnly,
      notFound: en.console.products.errors.comparisonNotFound,
    },
    sparse: true,
    async find(db, id) {
      const table = await find(db, id);
      return (
        table && {
          ref: table.uuid,
          label: table.title,
          fields: overlayFields(table.view, COMPARISON_OVERLAY),
        }
      );
    },
  });
}
