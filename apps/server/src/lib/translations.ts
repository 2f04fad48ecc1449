import { format } from '@portico/contracts/format';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '@portico/contracts/locales';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ColumnType } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { actorOf, recordAudit } from '../modules/audit/service.ts';
import { requireProviderRole } from '../plugins/session.ts';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import { badRequest, HttpError, notFound } from './errors.ts';
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
  updated: string;
  updatedBy: number | null;
}

const parseFields = (value: unknown): TranslatedFields =>
  (typeof value === 'string' ? JSON.parse(value) : value) as TranslatedFields;

const rowOf = (r: {
  langcode: string;
  fields: unknown;
  updated: Date | string;
  updated_by: number | null;
}) => ({
  langcode: r.langcode,
  fields: parseFields(r.fields),
  updated: new Date(r.updated).toISOString(),
  updatedBy: r.updated_by,
});

export function translationsOf(db: Db) {
  const itemRows = (entityType: string, id: string | number) =>
    tables(db)
      .selectFrom('content_translations')
      .select(['langcode', 'fields', 'updated', 'updated_by'])
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
    ): Promise<{ before: TranslatedFields | undefined; row: TranslationRow }> {
      const before = await itemRows(entityType, id)
        .where('langcode', '=', langcode)
        .forUpdate()
        .executeTakeFirst();
      const json = JSON.stringify(fields);
      const updated = new Date();
      await tables(db)
        .insertInto('content_translations')
        .values({
          entity_type: entityType,
          entity_id: String(id),
          langcode,
          fields: json,
          updated,
          updated_by: userId,
        })
        .onConflict((oc) =>
          oc
            .columns(['entity_type', 'entity_id', 'langcode'])
            .doUpdateSet({ fields: json, updated, updated_by: userId }),
        )
        .execute();
      return {
        before: before && parseFields(before.fields),
        row: rowOf({ langcode, fields, updated, updated_by: userId }),
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
}

/** What a console kind tells `translationRoutes`. */
export interface TranslationAdapter {
  /** The kind (`content_translations.entity_type`, and the audit's target type). */
  entityType: string;
  /** The console routes' base, e.g. `/admin-api/content/articles`. */
  base: string;
  /** Who may edit the item edits its translations. */
  role: ProviderRole | readonly ProviderRole[];
  messages: { forbidden: string; notFound: string };
  /** The item the routes name (the same id as the item's own console routes), or none. */
  find(db: Db, id: string): Promise<{ ref: string | number; label: string } | undefined>;
  fields: Record<string, TranslatableField>;
}

const LANGCODE_MESSAGE = `A translation's language must be one of ${TRANSLATION_LOCALES.join(', ')} (the default language's text is the item's own).`;

function translationSchema(fields: Record<string, TranslatableField>) {
  const shape: Record<string, z.ZodType<string>> = {};
  for (const [name, f] of Object.entries(fields)) {
    shape[name] = f.required ? z.string().trim().min(1).max(f.max) : z.string().max(f.max).default('');
  }
  return z.object({ fields: z.object(shape).strict() }).strict();
}

/** Stores and answers the translatable fields, Markdown ones with their sanitized HTML. */
function rendered(adapter: TranslationAdapter, input: Record<string, string>): TranslatedFields {
  const out: TranslatedFields = {};
  for (const [name, f] of Object.entries(adapter.fields)) {
    const value = input[name] ?? '';
    out[name] = f.clean ? f.clean(value) : value;
    if (f.html) out[`${name}Html`] = f.html(value);
  }
  return out;
}

/** `fields` as the audit keeps them: long texts as their length (as the items' own entries). */
function auditValue(fields: TranslatedFields | undefined): unknown {
  if (!fields) return undefined;
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([k]) => !k.endsWith('Html'))
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
  const schema = translationSchema(adapter.fields);
  const found = async (db: Db, id: string) => {
    const item = await adapter.find(db, id);
    if (!item) throw notFound(adapter.messages.notFound);
    return item;
  };
  const langcodeOf = (value: string): Locale => {
    if (!isLocale(value) || value === DEFAULT_LOCALE) {
      throw new HttpError(400, LANGCODE_MESSAGE, { code: 'invalid_input', parameter: 'langcode' });
    }
    return value;
  };

  app.get<{ Params: { id: string } }>(`${adapter.base}/:id/translations`, async (request, reply) => {
    guard(request);
    const item = await found(app.db, request.params.id);
    reply.header('Cache-Control', 'no-store');
    return {
      data: await translationsOf(app.db).list(adapter.entityType, item.ref),
      meta: { languages: TRANSLATION_LOCALES, fields: Object.keys(adapter.fields) },
    };
  });

  app.put<{ Params: Params }>(`${adapter.base}/:id/translations/:langcode`, async (request, reply) => {
    const user = guard(request);
    const langcode = langcodeOf(request.params.langcode);
    const input = parseBody(schema, request.body);
    const fields = rendered(adapter, input.fields as Record<string, string>);
    const row = await app.db.transaction().execute(async (trx) => {
      const item = await found(trx, request.params.id);
      const { before, row } = await translationsOf(trx).put(
        adapter.entityType,
        item.ref,
        langcode,
        fields,
        user.id,
      );
      await recordAudit(trx, actorOf(request), {
        action: `${adapter.entityType}.translated`,
        targetType: adapter.entityType,
        targetId: request.params.id,
        targetLabel: `${item.label} (${langcode})`,
        before: auditValue(before),
        after: auditValue(fields),
      });
      return row;
    });
    reply.header('Cache-Control', 'no-store');
    return { data: row };
  });

  app.delete<{ Params: Params }>(`${adapter.base}/:id/translations/:langcode`, async (request, reply) => {
    guard(request);
    const langcode = langcodeOf(request.params.langcode);
    await app.db.transaction().execute(async (trx) => {
      const item = await found(trx, request.params.id);
      const before = await translationsOf(trx).remove(adapter.entityType, item.ref, langcode);
      if (!before) throw notFound(adapter.messages.notFound);
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
