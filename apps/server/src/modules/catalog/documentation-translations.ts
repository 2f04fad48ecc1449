import { createHash } from 'node:crypto';
import type { OperationIndex } from '@portico/contracts/catalog';
import { isLocale, type Locale } from '@portico/contracts/locales';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import {
  checkedTranslation,
  entriesOf,
  TRANSLATION_LOCALES,
  type TranslationAdapter,
  markerOf,
  translationRoutes,
  translationsOf,
  type TranslatedFields,
  type TranslationMarker,
} from '../../lib/translations.ts';
import { readDocumentText } from '../../openapi/document-texts.ts';
import { renderMarkdown } from '../pages/service.ts';
import { findDocumentation } from './repo.ts';
import { catalogDb } from './tables.ts';

/**
 * A documentation's translations (issue 30, decision 063): its title, the OpenAPI document's
 * `info.description` (Markdown, the top of the documentation page) and each tag's description (the
 * reference's group headings), per language in `content_translations` (`api_documentation`, the
 * documentation's uuid). Operation summaries and descriptions stay in the document's language.
 */
export const DOCUMENTATION_TRANSLATION = 'api_documentation';

export const DOCUMENTATION_TITLE_MAX = 255;
/** As long as the longest `info.description` of a real document (GitHub's: about 1 K) many times. */
export const DOCUMENTATION_DESCRIPTION_MAX = 100_000;
export const TAG_DESCRIPTION_MAX = 20_000;

const M = en.console.apis;

/** Rendered and sanitized as the articles' Markdown (the same function their save uses). */
const markdownHtml = (markdown: string) => cleanHtml(renderMarkdown(markdown).trim());

/** The names of the reference's tag groups (the stored index's, in its order). */
export async function documentationTagNames(db: Db, id: number): Promise<string[]> {
  const text = await readDocumentText(db, id, 'operation_index');
  if (!text) return [];
  return (JSON.parse(text) as OperationIndex).tags.map((t) => t.name);
}

/**
 * The console's routes: `GET`, `PUT` and `DELETE /admin-api/catalog/documentations/:id/
 * translations[/:langcode]` (`:id` the documentation's alias or uuid), for the API managers, who
 * publish its versions.
 */
export function documentationTranslationRoutes(app: FastifyInstance): void {
  translationRoutes(app, DOCUMENTATION_TRANSLATIONS);
}

/** The documentations' kind of translations: who writes them, their fields and checks. */
export const DOCUMENTATION_TRANSLATIONS: TranslationAdapter = {
  entityType: DOCUMENTATION_TRANSLATION,
  base: '/admin-api/catalog/documentations',
  role: 'api_manager',
  messages: {
    forbidden: M.managersOnly,
    notFound: en.catalog.documentationNotFound,
    unknownName: M.errors.unknownTag,
  },
  async find(db, id) {
    const doc = await findDocumentation(db, id);
    return doc && { ref: doc.uuid, label: doc.title };
  },
  fields: {
    title: { max: DOCUMENTATION_TITLE_MAX, required: true },
    description: { max: DOCUMENTATION_DESCRIPTION_MAX, html: markdownHtml },
    tags: {
      max: TAG_DESCRIPTION_MAX,
      html: markdownHtml,
      async names(db, ref) {
        const row = await catalogDb(db)
          .selectFrom('api_documentations')
          .select('id')
          .where('uuid', '=', String(ref))
          .executeTakeFirst();
        return row ? documentationTagNames(db, row.id) : [];
      },
    },
  },
};

/**
 * The content file's translations of one documentation (`translations: { de: { title,
 * description, tags } }`, the catalog importer): written unless the console wrote that language
 * since (a row with `updated_by`); the importer's own rows of languages the file no longer has are
 * removed. An unknown language or tag is an error naming the documentation.
 */
export async function importDocumentationTranslations(
  db: Db,
  documentationId: number,
  translations: Readonly<Record<string, unknown>>,
): Promise<void> {
  const doc = await catalogDb(db)
    .selectFrom('api_documentations')
    .select(['uuid', 'alias'])
    .where('id', '=', documentationId)
    .executeTakeFirstOrThrow();
  const store = translationsOf(db);
  const existing = await store.list(DOCUMENTATION_TRANSLATION, doc.uuid);
  for (const row of existing) {
    if (row.updatedBy === null && !(row.langcode in translations) && isLocale(row.langcode))
      await store.remove(DOCUMENTATION_TRANSLATION, doc.uuid, row.langcode);
  }
  for (const [langcode, fields] of Object.entries(translations)) {
    if (!TRANSLATION_LOCALES.includes(langcode as Locale) || !isLocale(langcode))
      throw new Error(`documentation ${doc.alias}: no translation language '${langcode}'`);
    if (existing.some((r) => r.langcode === langcode && r.updatedBy !== null)) continue;
    let checked: TranslatedFields;
    try {
      checked = await checkedTranslation(db, DOCUMENTATION_TRANSLATIONS, doc.uuid, fields);
    } catch (err) {
      throw new Error(
        `documentation ${doc.alias}, translation ${langcode}: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    await store.put(DOCUMENTATION_TRANSLATION, doc.uuid, langcode, checked, null);
  }
}

/** A documentation's texts in one language: its translation's fields (if any) and the marker. */
export interface DocumentationTranslation {
  fields: TranslatedFields | undefined;
  marker: TranslationMarker;
  /** Changes with the translation: for the ETags and caches of what shows it. */
  stamp: string;
}

export async function documentationTranslation(
  db: Db,
  uuid: string,
  langcode: Locale,
): Promise<DocumentationTranslation> {
  const fields = (await translationsOf(db).forItems(DOCUMENTATION_TRANSLATION, [uuid], langcode)).get(uuid);
  return {
    fields,
    marker: markerOf(langcode, !!fields),
    stamp: fields
      ? `${langcode}-${createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 16)}`
      : langcode,
  };
}

/** The titles of documentations in one language, by uuid (none in the default language). */
export async function documentationTitles(
  db: Db,
  uuids: readonly string[],
  langcode: Locale,
): Promise<Map<string, string>> {
  const found = await translationsOf(db).forItems(DOCUMENTATION_TRANSLATION, uuids, langcode);
  return new Map([...found].flatMap(([uuid, f]) => (f.title ? [[uuid, f.title] as const] : [])));
}

/**
 * The operation index in a translation's language: its title, description and tags' descriptions
 * where the translation gives them (a field it leaves empty shows the document's own text).
 */
export function translatedIndex(index: OperationIndex, fields: TranslatedFields | undefined): OperationIndex {
  if (!fields) return index;
  const tags = entriesOf(fields, 'tags');
  return {
    ...index,
    title: fields.title || index.title,
    description: fields.description?.trim() ? fields.description : index.description,
    tags: index.tags.map((t) => (tags[t.name] ? { ...t, description: tags[t.name]! } : t)),
  };
}
