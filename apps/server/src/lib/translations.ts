import { format } from '@portico/contracts/format';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '@portico/contracts/locales';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ColumnType } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { actorOf, recordAudit } from '../modules/audit/service.ts';
import type { TranslatedSearch } from '../modules/search/service.ts';
import { requireProviderRole } from '../plugins/session.ts';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import { badRequest, HttpError, notFound } from './errors.ts';
import { relocateOverlay } from './overlay-relocation.ts';
import { parseBody } from './validation.ts';

/**
 * Content translations (issue 30, decision 063). The default language's text stays in each item's
 * own table; every other language's translatable fields are one `content_translations` row
 * (migration 0310) per item and language, written by the owning module through this component:
 *
 * - reads: `translationsOf(db).forItems(type, ids, langcode)` gives a page's translations in one
 *   query; `translated(...)` merges them into the rows and tells each row's marker;
 * - writes: `translationRoutes(app, adapter)` gives a console kind `GET :id/translations`,
 *   `PUT :id/translations/:langcode` and `DELETE :id/translations/:langcode`, with the kind's own
 *   role, validation, sanitizing and audit entry.
 *
 * The public reads take the reader's language from the `langcode` query parameter (the web app
 * sends its page's language), so that cached answers, keyed by their URL, never mix languages.
 */

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;

interface ContentTranslationsTable {
  entity_type: string;
  entity_id: string;
  langcode: string;
  fields: ColumnType<Record<string, string>, string, string>;
  /** A structured document's overlay: each pointer's default-language text when it was translated (migration 0316). */
  sources: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  updated: Stamp;
  updated_by: number | null;
}

type TranslationTables = { content_translations: ContentTranslationsTable };

const tables = (db: Db) => db.withTables<TranslationTables>();

/** The fields of one translation: field name to text (Markdown fields also as sanitized HTML). */
export type TranslatedFields = Record<string, string>;

/**
 * What a public read says about the language of an item's text: asked for `langcode`, shown in
 * `shown`; `fallback` when no translation exists and the default language's text is shown.
 */
export interface TranslationMarker {
  langcode: Locale;
  shown: Locale;
  fallback: boolean;
}

/** The languages a translation can be written in: every language but the default. */
export const TRANSLATION_LOCALES = LOCALES.filter((l) => l !== DEFAULT_LOCALE);

/** The 400's message for an unknown `langcode` (errors.json `server.langcode`, decision 058). */
export const READER_LANGCODE_MESSAGE = 'langcode must be one of {{languages}}.';

/**
 * The reader's language of a public read: the `langcode` query parameter, else the default. An
 * unknown language is a 400 naming the parameter.
 */
export function readerLocale(value: unknown): Locale {
  if (value === undefined || value === '') return DEFAULT_LOCALE;
  if (!isLocale(value))
    throw badRequest(format(READER_LANGCODE_MESSAGE, { languages: LOCALES.join(', ') }), 'langcode');
  return value;
}

export function markerOf(langcode: Locale, translated: boolean): TranslationMarker {
  if (langcode === DEFAULT_LOCALE) return { langcode, shown: langcode, fallback: false };
  return translated
    ? { langcode, shown: langcode, fallback: false }
    : { langcode, shown: DEFAULT_LOCALE, fallback: true };
}

export interface TranslationRow {
  langcode: string;
  fields: TranslatedFields;
  /** An overlay's sources (lib/translation-overlay.ts): each pointer's English when it was translated. */
  sources?: TranslatedFields;
  updated: string;
  updatedBy: number | null;
}

const parseFields = (value: unknown): TranslatedFields =>
  (typeof value === 'string' ? JSON.parse(value) : value) as TranslatedFields;

const rowOf = (r: {
  langcode: string;
  fields: unknown;
  sources?: unknown;
  updated: Date | string;
  updated_by: number | null;
}): TranslationRow => ({
  langcode: r.langcode,
  fields: parseFields(r.fields),
  ...(r.sources ? { sources: parseFields(r.sources) } : {}),
  updated: new Date(r.updated).toISOString(),
  updatedBy: r.updated_by,
});

export function translationsOf(db: Db) {
  const itemRows = (entityType: string, id: string | number) =>
    tables(db)
      .selectFrom('content_translations')
      .select(['langcode', 'fields', 'sources', 'updated', 'updated_by'])
      .where('entity_type', '=', entityType)
      .where('entity_id', '=', String(id));
  return {
    /** The translations of `ids` (of one kind) into `langcode`, by id; none for the default. */
    async forItems(
      entityType: string,
      ids: readonly (string | number)[],
      langcode: Locale,
    ): Promise<Map<string, TranslatedFields>> {
      if (langcode === DEFAULT_LOCALE || !ids.length) return new Map();
      const rows = await tables(db)
        .selectFrom('content_translations')
        .select(['entity_id', 'fields'])
        .where('entity_type', '=', entityType)
        .where('langcode', '=', langcode)
        .where('entity_id', 'in', [...new Set(ids.map(String))])
        .execute();
      return new Map(rows.map((r) => [r.entity_id, parseFields(r.fields)]));
    },

    /**
     * The overlays of structured documents `ids` (of one kind) into `langcode`, by id, each with
     * its sources when it has them (lib/translation-overlay.ts); none for the default language.
     */
    async overlaysOf(
      entityType: string,
      ids: readonly (string | number)[],
      langcode: Locale,
    ): Promise<Map<string, { fields: TranslatedFields; sources: TranslatedFields | undefined }>> {
      if (langcode === DEFAULT_LOCALE || !ids.length) return new Map();
      const rows = await tables(db)
        .selectFrom('content_translations')
        .select(['entity_id', 'fields', 'sources'])
        .where('entity_type', '=', entityType)
        .where('langcode', '=', langcode)
        .where('entity_id', 'in', [...new Set(ids.map(String))])
        .execute();
      return new Map(
        rows.map((r) => [
          r.entity_id,
          { fields: parseFields(r.fields), sources: r.sources ? parseFields(r.sources) : undefined },
        ]),
      );
    },

    /**
     * The translations into `langcode` of items of several kinds, in one query: by kind, then id
     * (none for the default language).
     */
    async forKinds(
      items: Readonly<Record<string, readonly (string | number)[]>>,
      langcode: Locale,
    ): Promise<Map<string, Map<string, TranslatedFields>>> {
      const kinds = Object.entries(items).filter(([, ids]) => ids.length);
      const out = new Map(kinds.map(([kind]) => [kind, new Map<string, TranslatedFields>()]));
      if (langcode === DEFAULT_LOCALE || !kinds.length) return out;
      const rows = await tables(db)
        .selectFrom('content_translations')
        .select(['entity_type', 'entity_id', 'fields'])
        .where('langcode', '=', langcode)
        .where((eb) =>
          eb.or(
            kinds.map(([kind, ids]) =>
              eb.and([eb('entity_type', '=', kind), eb('entity_id', 'in', [...new Set(ids.map(String))])]),
            ),
          ),
        )
        .execute();
      for (const r of rows) out.get(r.entity_type)?.set(r.entity_id, parseFields(r.fields));
      return out;
    },

    /** Every translation (in every language) of the items `ids` of one kind. */
    async ofItems(
      entityType: string,
      ids: readonly (string | number)[],
    ): Promise<{ id: string; langcode: string; fields: TranslatedFields }[]> {
      if (!ids.length) return [];
      const rows = await tables(db)
        .selectFrom('content_translations')
        .select(['entity_id', 'langcode', 'fields'])
        .where('entity_type', '=', entityType)
        .where('entity_id', 'in', [...new Set(ids.map(String))])
        .execute();
      return rows.map((r) => ({ id: r.entity_id, langcode: r.langcode, fields: parseFields(r.fields) }));
    },

    /** Every translation of one item, by language. */
    async list(entityType: string, id: string | number): Promise<TranslationRow[]> {
      const rows = await itemRows(entityType, id).orderBy('langcode').execute();
      return rows.map(rowOf);
    },

    /**
     * Writes (inserts or replaces) one translation, the row locked while it changes; returns the
     * one before, if any, and the one written.
     */
    async put(
      entityType: string,
      id: string | number,
      langcode: Locale,
      fields: TranslatedFields,
      userId: number | null,
      /** An overlay's sources (lib/translation-overlay.ts); none for the other kinds. */
      sources?: TranslatedFields,
    ): Promise<{ before: TranslatedFields | undefined; row: TranslationRow }> {
      const before = await itemRows(entityType, id)
        .where('langcode', '=', langcode)
        .forUpdate()
        .executeTakeFirst();
      const json = JSON.stringify(fields);
      const sourcesJson = sources ? JSON.stringify(sources) : null;
      const updated = new Date();
      await tables(db)
        .insertInto('content_translations')
        .values({
          entity_type: entityType,
          entity_id: String(id),
          langcode,
          fields: json,
          sources: sourcesJson,
          updated,
          updated_by: userId,
        })
        .onConflict((oc) =>
          oc
            .columns(['entity_type', 'entity_id', 'langcode'])
            .doUpdateSet({ fields: json, sources: sourcesJson, updated, updated_by: userId }),
        )
        .execute();
      return {
        before: before && parseFields(before.fields),
        row: rowOf({ langcode, fields, sources, updated, updated_by: userId }),
      };
    },

    /** Removes one translation; returns it, or undefined when there was none. */
    async remove(
      entityType: string,
      id: string | number,
      langcode: Locale,
    ): Promise<TranslationRow | undefined> {
      const row = await tables(db)
        .deleteFrom('content_translations')
        .where('entity_type', '=', entityType)
        .where('entity_id', '=', String(id))
        .where('langcode', '=', langcode)
        .returning(['langcode', 'fields', 'updated', 'updated_by'])
        .executeTakeFirst();
      return row && rowOf(row);
    },

    /** Removes every translation of the items `ids` (their module deletes them). */
    async removeItems(entityType: string, ids: readonly (string | number)[]): Promise<void> {
      if (!ids.length) return;
      await tables(db)
        .deleteFrom('content_translations')
        .where('entity_type', '=', entityType)
        .where('entity_id', 'in', ids.map(String))
        .execute();
    },
  };
}

/**
 * A page of rows in the reader's language: each row with its translation merged in by `apply`
 * (when one exists) and its marker. One query for the whole page.
 */
export async function translated<R, T>(
  db: Db,
  entityType: string,
  rows: readonly R[],
  idOf: (row: R) => string | number,
  langcode: Locale,
  apply: (row: R, fields: TranslatedFields) => R,
  out: (row: R, marker: TranslationMarker) => T,
): Promise<T[]> {
  const found = await translationsOf(db).forItems(entityType, rows.map(idOf), langcode);
  return rows.map((row) => {
    const fields = found.get(String(idOf(row)));
    return out(fields ? apply(row, fields) : row, markerOf(langcode, !!fields));
  });
}

/** One translatable field of a kind: its longest text, and whether it may be empty. */
export interface TranslatableField {
  max: number;
  required?: boolean;
  /** An HTML field: sanitized as the item's own field is (the same function). */
  clean?: (html: string) => string;
  /**
   * A Markdown field: stored as written and, under `${name}Html`, rendered and sanitized like the
   * item's own field (the same function the item's save uses).
   */
  html?: (markdown: string) => string;
  /** The default language's text (a structured document's leaf, decision 064): shown beside the field. */
  source?: string;
  /**
   * A map field: an object of names to texts (each at most `max`, Markdown rendered by `html`),
   * only of the names this gives for the item (another is a 422 naming it). Stored flat, as
   * `<field>.<name>` (and `<field>Html.<name>`), read with `entriesOf`.
   */
  names?: (db: Db, ref: string | number) => Promise<readonly string[]>;
}

/** A map field's entries in stored fields (`<field>.<name>`), by name. */
export function entriesOf(fields: TranslatedFields, field: string): Record<string, string> {
  const prefix = `${field}.`;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );
}

/** A translation as the console's routes answer it: a map field as its object. */
export type AnsweredFields = Record<string, string | Record<string, string>>;

/** What a console kind tells `translationRoutes`. */
export interface TranslationAdapter {
  /** The kind (`content_translations.entity_type`, and the audit's target type). */
  entityType: string;
  /** The console routes' base, e.g. `/admin-api/content/articles`. */
  base: string;
  /** Who may edit the item edits its translations. */
  role: ProviderRole | readonly ProviderRole[];
  /** `unknownName`: a map field's name the item has not (`{{field}}`, `{{name}}`). */
  messages: { forbidden: string; notFound: string; unknownName?: string };
  /**
   * The item the routes name (the same id as the item's own console routes), or none. A
   * structured document (decision 064) gives its own `fields`: its translatable leaves' pointers.
   */
  find(
    db: Db,
    id: string,
  ): Promise<{ ref: string | number; label: string; fields?: Record<string, TranslatableField> } | undefined>;
  /** The kind's translatable fields (a structured document's come from `find`). */
  fields?: Record<string, TranslatableField>;
  /**
   * An overlay (decision 064): every field optional, and one left empty is not stored (that text
   * falls back to the default language's).
   */
  sparse?: boolean;
  /**
   * A kind the site search finds: how its translations become search rows (decision 065). Each
   * write or delete of a translation writes or removes the item's row in that language, and the
   * start-up indexes the saved translations that have no row yet.
   */
  search?: TranslatedSearch;
}

/** A translation's `langcode` is not a language to translate into (errors.json `server.translationLangcode`). */
export const TRANSLATION_LANGCODE_MESSAGE =
  "A translation's language must be one of {{languages}} (the default language's text is the item's own).";
const LANGCODE_MESSAGE = format(TRANSLATION_LANGCODE_MESSAGE, { languages: TRANSLATION_LOCALES.join(', ') });

/** A `PUT` with no text (errors.json `server.translationEmpty`). */
export const TRANSLATION_EMPTY_MESSAGE = 'A translation needs at least one translated text.';
const EMPTY_MESSAGE = TRANSLATION_EMPTY_MESSAGE;

function translationSchema(fields: Record<string, TranslatableField>, optional = false) {
  const shape: Record<string, z.ZodType<string | Record<string, string>>> = {};
  for (const [name, f] of Object.entries(fields)) {
    shape[name] = f.names
      ? z.record(z.string().min(1).max(200), z.string().max(f.max)).default({})
      : f.required && !optional
        ? z.string().trim().min(1).max(f.max)
        : z.string().max(f.max).default('');
  }
  return z.object({ fields: z.object(shape).strict() }).strict();
}

/** Stores and answers the translatable fields, Markdown ones with their sanitized HTML. */
function rendered(
  fields: Record<string, TranslatableField>,
  input: AnsweredFields,
  sparse = false,
): TranslatedFields {
  const out: TranslatedFields = {};
  const one = (key: string, htmlKey: string, f: TranslatableField, value: string) => {
    out[key] = f.clean ? f.clean(value) : value;
    if (f.html) out[htmlKey] = f.html(value);
  };
  for (const [name, f] of Object.entries(fields)) {
    const value = input[name];
    if (f.names) {
      // Empty entries are left out: the item's own text shows for them.
      const entries = typeof value === 'object' ? Object.entries(value) : [];
      for (const [entry, text] of entries)
        if (text.trim()) one(`${name}.${entry}`, `${name}Html.${entry}`, f, text);
    } else {
      const text = typeof value === 'string' ? value : '';
      if (sparse && !text.trim()) continue;
      one(name, `${name}Html`, f, text);
    }
  }
  return out;
}

/**
 * A stored translation as the routes answer it: each map field as one object (and its HTML); a
 * structured document's overlay where its English is now (lib/translation-overlay.ts), its
 * sources kept to the server.
 */
function answered(fields: Record<string, TranslatableField>, stored: TranslationRow) {
  const { sources, ...row } = stored;
  if (sources) {
    const current = new Map(
      Object.entries(fields).flatMap(([k, f]) => (f.source === undefined ? [] : [[k, f.source] as const])),
    );
    row.fields = relocateOverlay(row.fields, sources, current);
  }
  const out: AnsweredFields = { ...row.fields };
  for (const [name, f] of Object.entries(fields)) {
    if (!f.names) continue;
    for (const key of Object.keys(out))
      if (key.startsWith(`${name}.`) || key.startsWith(`${name}Html.`)) delete out[key];
    out[name] = entriesOf(row.fields, name);
    if (f.html) out[`${name}Html`] = entriesOf(row.fields, `${name}Html`);
  }
  return { ...row, fields: out };
}

/** A 422 for the first name of a map field that the item has not. */
async function checkNames(
  db: Db,
  fields: Record<string, TranslatableField>,
  messages: TranslationAdapter['messages'],
  ref: string | number,
  input: AnsweredFields,
): Promise<void> {
  for (const [name, f] of Object.entries(fields)) {
    const value = input[name];
    if (!f.names || typeof value !== 'object') continue;
    const known = new Set(await f.names(db, ref));
    const unknown = Object.keys(value).find((entry) => !known.has(entry));
    if (unknown !== undefined) {
      throw new HttpError(
        422,
        format(messages.unknownName ?? '{{field}}: {{name}}', { field: name, name: unknown }),
        { pointer: `/fields/${name}/${unknown.replace(/~/g, '~0').replace(/\//g, '~1')}` },
      );
    }
  }
}

/**
 * A translation's fields as the routes store them: validated as a `PUT`'s (a map field's names
 * too), Markdown rendered, HTML sanitized. For a module's content importer.
 */
export async function checkedTranslation(
  db: Db,
  adapter: TranslationAdapter,
  ref: string | number,
  fields: unknown,
): Promise<TranslatedFields> {
  const own = adapter.fields ?? {};
  const input = parseBody(translationSchema(own), { fields });
  await checkNames(db, own, adapter.messages, ref, input.fields);
  return rendered(own, input.fields);
}

/** `fields` as the audit keeps them: long texts as their length (as the items' own entries). */
function auditValue(fields: TranslatedFields | undefined): unknown {
  if (!fields) return undefined;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([k]) => !k.endsWith('Html') && !k.includes('Html.'))
      .map(([k, v]) => [k, v.length > 200 ? { length: v.length } : v]),
  );
}

/**
 * A console kind's translation routes (decision 063): `GET base/:id/translations` (every
 * language's fields), `PUT base/:id/translations/:langcode` (`{ fields }`: writes one) and
 * `DELETE base/:id/translations/:langcode`. The kind's role, its 404, an audit entry
 * (`<kind>.translated`, `<kind>.translation_deleted`) in the write's transaction.
 */
export function translationRoutes(app: FastifyInstance, adapter: TranslationAdapter): void {
  type Params = { id: string; langcode: string };
  const guard = (request: FastifyRequest) =>
    requireProviderRole(request, adapter.role, adapter.messages.forbidden);
  const fixed = adapter.fields && translationSchema(adapter.fields);
  const found = async (db: Db, id: string) => {
    const item = await adapter.find(db, id);
    if (!item) throw notFound(adapter.messages.notFound);
    return { ...item, fields: item.fields ?? adapter.fields ?? {} };
  };
  const langcodeOf = (value: string): Locale => {
    if (!isLocale(value) || value === DEFAULT_LOCALE) {
      throw new HttpError(400, LANGCODE_MESSAGE, { code: 'invalid_input', parameter: 'langcode' });
    }
    return value;
  };

  // The translations saved before the site search had languages (migration 0315) get their rows:
  // one query when none is missing.
  const search = adapter.search;
  if (search) app.addHook('onReady', async () => void (await search.indexMissing(app.db)));

  app.get<{ Params: { id: string } }>(`${adapter.base}/:id/translations`, async (request, reply) => {
    guard(request);
    const item = await found(app.db, request.params.id);
    reply.header('Cache-Control', 'no-store');
    const sources = Object.entries(item.fields).filter(([, f]) => f.source !== undefined);
    // A map field's names, for the console's form (one text per name).
    const names: Record<string, readonly string[]> = {};
    for (const [name, f] of Object.entries(item.fields))
      if (f.names) names[name] = await f.names(app.db, item.ref);
    return {
      data: (await translationsOf(app.db).list(adapter.entityType, item.ref)).map((r) =>
        answered(item.fields, r),
      ),
      meta: {
        languages: TRANSLATION_LOCALES,
        fields: Object.keys(item.fields),
        names,
        // A structured document's leaves: each pointer's default-language text.
        ...(sources.length ? { sources: Object.fromEntries(sources.map(([k, f]) => [k, f.source])) } : {}),
      },
    };
  });

  app.put<{ Params: Params }>(`${adapter.base}/:id/translations/:langcode`, async (request, reply) => {
    const user = guard(request);
    const langcode = langcodeOf(request.params.langcode);
    // A kind's fixed fields are checked before the transaction; a document's, once it is found.
    if (fixed) parseBody(fixed, request.body);
    const { row, fields: itemFields } = await app.db.transaction().execute(async (trx) => {
      const item = await found(trx, request.params.id);
      const input = parseBody(fixed ?? translationSchema(item.fields, true), request.body);
      await checkNames(trx, item.fields, adapter.messages, item.ref, input.fields);
      const fields = rendered(item.fields, input.fields, !!adapter.sparse);
      if (adapter.sparse && !Object.keys(fields).length) {
        throw new HttpError(400, EMPTY_MESSAGE, { code: 'invalid_input', pointer: '/fields' });
      }
      // A structured document's leaves: the English each text is translated from (decision 064).
      const sources = Object.fromEntries(
        Object.keys(fields).flatMap((k) => {
          const source = item.fields[k]?.source;
          return source === undefined ? [] : [[k, source] as const];
        }),
      );
      const { before, row } = await translationsOf(trx).put(
        adapter.entityType,
        item.ref,
        langcode,
        fields,
        user.id,
        Object.keys(sources).length ? sources : undefined,
      );
      await adapter.search?.write(trx, String(item.ref), langcode, fields);
      await recordAudit(trx, actorOf(request), {
        action: `${adapter.entityType}.translated`,
        targetType: adapter.entityType,
        targetId: request.params.id,
        targetLabel: `${item.label} (${langcode})`,
        before: auditValue(before),
        after: auditValue(fields),
      });
      return { row, fields: item.fields };
    });
    reply.header('Cache-Control', 'no-store');
    return { data: answered(itemFields, row) };
  });

  app.delete<{ Params: Params }>(`${adapter.base}/:id/translations/:langcode`, async (request, reply) => {
    guard(request);
    const langcode = langcodeOf(request.params.langcode);
    await app.db.transaction().execute(async (trx) => {
      const item = await found(trx, request.params.id);
      const before = await translationsOf(trx).remove(adapter.entityType, item.ref, langcode);
      if (!before) throw notFound(adapter.messages.notFound);
      await adapter.search?.write(trx, String(item.ref), langcode, undefined);
      await recordAudit(trx, actorOf(request), {
        action: `${adapter.entityType}.translation_deleted`,
        targetType: adapter.entityType,
        targetId: request.params.id,
        targetLabel: `${item.label} (${langcode})`,
        before: auditValue(before.fields),
      });
    });
    return reply.code(204).send();
  });
}

/*
 * Translations in content files (decision 063): an optional `translations: { de: { ... } }` block
 * on an item of a YAML file, or a sibling `<name>.de.md` of a Markdown file with its own front
 * matter and body. They are validated and rendered by the kind's fields exactly as the console's
 * PUT does, and written with no user (`updated_by` null): a translation edited in the console
 * since (`updated_by` set) is never overwritten, an unchanged one writes nothing.
 */

/** A content file's problem, named like the importers' own (`content/<file> is invalid: ...`). */
function fileIssues(file: string, at: string, error: z.ZodError): Error {
  const lines = error.issues.map(
    (i) => `  ${[at, ...i.path].filter((p) => p !== '').join('.')}: ${i.message}`,
  );
  return new Error(`content/${file} is invalid:\n${lines.join('\n')}`);
}

/**
 * One language's fields of a content file, validated and rendered as the console's PUT does
 * (lengths, required fields, Markdown rendered and sanitized); a broken one throws a message
 * naming the file and the field (`at`: where the fields sit in the file, e.g. `translations.de`).
 */
export function fileTranslation(
  file: string,
  fields: Record<string, TranslatableField>,
  input: unknown,
  at = '',
): TranslatedFields {
  const parsed = translationSchema(fields).shape.fields.safeParse(input ?? {});
  if (!parsed.success) throw fileIssues(file, at, parsed.error);
  return rendered(fields, parsed.data as Record<string, string>);
}

/** A YAML item's `translations` block (`{ de: { ... } }`), by language; none when absent. */
export function fileTranslations(
  file: string,
  fields: Record<string, TranslatableField>,
  block: unknown,
  at = 'translations',
): Map<Locale, TranslatedFields> {
  const out = new Map<Locale, TranslatedFields>();
  if (block === undefined || block === null) return out;
  if (typeof block !== 'object' || Array.isArray(block)) {
    throw new Error(
      `content/${file} is invalid:\n  ${at}: must be a map of languages (${TRANSLATION_LOCALES.join(', ')})`,
    );
  }
  for (const [langcode, value] of Object.entries(block)) {
    if (!isLocale(langcode) || langcode === DEFAULT_LOCALE) {
      throw new Error(`content/${file} is invalid:\n  ${at}.${langcode}: ${LANGCODE_MESSAGE}`);
    }
    out.set(langcode, fileTranslation(file, fields, value, `${at}.${langcode}`));
  }
  return out;
}

/** `<name>.<langcode>.md`: a Markdown file's translation (its name, the language), else undefined. */
export function translationFileName(name: string): { base: string; langcode: string } | undefined {
  const m = /^(.+)\.([a-z]{2}(?:-[a-z]{2})?)\.md$/i.exec(name);
  return m ? { base: `${m[1]}.md`, langcode: m[2]!.toLowerCase() } : undefined;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * A `<name>.<langcode>.md` file: its front matter holds the translatable fields but `body`, the
 * Markdown below it is `body`. Validated as the console's PUT; a broken file throws naming it.
 */
export function markdownTranslation(
  file: string,
  text: string,
  fields: Record<string, TranslatableField>,
): { langcode: Locale; fields: TranslatedFields; markdown: string; bodyLine: number } {
  const name = translationFileName(file.split('/').pop() ?? file);
  if (!name || !isLocale(name.langcode) || name.langcode === DEFAULT_LOCALE) {
    throw new Error(`content/${file}: ${LANGCODE_MESSAGE}`);
  }
  const source = text.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new Error(`content/${file} must start with a YAML front matter between '---' lines`);
  let meta: unknown;
  try {
    meta = parse(match[1] ?? '') ?? {};
  } catch (err) {
    throw new Error(`content/${file}: the front matter is not valid YAML: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (typeof meta !== 'object' || Array.isArray(meta) || meta === null || 'body' in meta) {
    throw new Error(
      `content/${file} is invalid:\n  (root): the front matter must be a map (the body is the text below it)`,
    );
  }
  const markdown = source.slice(match[0].length).trim();
  return {
    langcode: name.langcode,
    fields: fileTranslation(file, fields, { ...meta, body: markdown }),
    markdown,
    bodyLine: source.slice(0, match[0].length).split('\n').length,
  };
}

/** A translation as a `<name>.<langcode>.md` file: the fields but `body` as front matter, `body` below. */
export function markdownTranslationText(
  fields: Record<string, TranslatableField>,
  values: TranslatedFields,
): string {
  const meta: Record<string, string> = {};
  for (const name of Object.keys(fields)) {
    if (name !== 'body' && values[name]) meta[name] = values[name];
  }
  return `---\n${stringify(meta, { lineWidth: 0 }).trimEnd()}\n---\n\n${(values.body ?? '').trim()}\n`;
}

/** A translation as a YAML `translations` block's entry: the fields as written (no HTML). */
export function translationEntry(
  fields: Record<string, TranslatableField>,
  values: TranslatedFields,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(fields)) if (values[name]) out[name] = values[name];
  return out;
}

export interface FileTranslationsResult {
  written: number;
  /** Edited in the console since (`updated_by` set): left as they are. */
  kept: number;
  removed: number;
}

/**
 * Writes the items' translations from their content files (`translations`: every language the
 * file gives; a language it no longer gives goes, unless the console wrote it). One read for all
 * the items; an unchanged translation writes nothing, one edited in the console is kept.
 */
export async function writeFileTranslations(
  db: Db,
  entityType: string,
  items: readonly { id: string | number; translations: ReadonlyMap<Locale, TranslatedFields> }[],
  /** The kind's search rows (decision 065): written and removed with the translations, as the console's are. */
  search?: TranslatedSearch,
): Promise<FileTranslationsResult> {
  const result: FileTranslationsResult = { written: 0, kept: 0, removed: 0 };
  if (!items.length) return result;
  const existing = await tables(db)
    .selectFrom('content_translations')
    .select(['entity_id', 'langcode', 'fields', 'updated_by'])
    .where('entity_type', '=', entityType)
    .where('entity_id', 'in', [...new Set(items.map((i) => String(i.id)))])
    .execute();
  const rows = new Map(existing.map((r) => [`${r.entity_id}\0${r.langcode}`, r]));
  const store = translationsOf(db);
  for (const item of items) {
    for (const [langcode, fields] of item.translations) {
      const row = rows.get(`${item.id}\0${langcode}`);
      if (row?.updated_by != null) result.kept++;
      else if (!row || !isDeepStrictEqual(parseFields(row.fields), fields)) {
        await store.put(entityType, item.id, langcode, fields, null);
        await search?.write(db, String(item.id), langcode, fields);
        result.written++;
      }
    }
  }
  for (const row of existing) {
    const item = items.find((i) => String(i.id) === row.entity_id);
    if (!item || row.updated_by != null || !isLocale(row.langcode) || item.translations.has(row.langcode))
      continue;
    await store.remove(entityType, row.entity_id, row.langcode);
    await search?.write(db, row.entity_id, row.langcode, undefined);
    result.removed++;
  }
  return result;
}

/** Every translation of a kind, by item id and language (the content export). */
export async function translationsOfKind(
  db: Db,
  entityType: string,
): Promise<Map<string, Map<string, TranslatedFields>>> {
  const rows = await tables(db)
    .selectFrom('content_translations')
    .select(['entity_id', 'langcode', 'fields'])
    .where('entity_type', '=', entityType)
    .orderBy('entity_id')
    .orderBy('langcode')
    .execute();
  const out = new Map<string, Map<string, TranslatedFields>>();
  for (const r of rows) {
    const of = out.get(r.entity_id) ?? new Map<string, TranslatedFields>();
    of.set(r.langcode, parseFields(r.fields));
    out.set(r.entity_id, of);
  }
  return out;
}
