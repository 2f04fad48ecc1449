import type { FastifyInstance } from 'fastify';
import { SITE_DOCUMENT_KEYS, type SiteDocumentKey } from '@portico/contracts/console-site';
import { en } from '@portico/contracts/messages';
import type { Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import { cleanHtml } from '../../lib/content-html.ts';
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

/**
 * The site documents' translations (decision 064): one overlay per document and language in
 * `content_translations` (`entity_type` 'site_content', `entity_id` the document's key), over the
 * LIVE default-language document.
 */

export const SITE_TRANSLATION_TYPE = 'site_content';

/** The translatable leaves of each document: titles, texts, HTML bodies and button labels. */
export const SITE_OVERLAYS: Record<SiteDocumentKey, OverlayKind> = {
  // Carousel, banners, footer and Getting Started: never a url, image_url, key or flag.
  'block-layout': {
    texts: ['title', 'text', 'description'],
    html: ['description'],
    clean: cleanHtml,
    max: 5000,
  },
  'cookies-consent': { texts: ['body', 'accept', 'dismiss', 'labelCheckBox'], max: 2000 },
};

const isKey = (key: string): key is SiteDocumentKey =>
  (SITE_DOCUMENT_KEYS as readonly string[]).includes(key);

/** A live document in the reader's language, with the translation marker of decision 063. */
export async function siteDocumentIn<T>(
  db: Db,
  key: SiteDocumentKey,
  doc: T,
  langcode: Locale,
): Promise<T & { translation: TranslationMarker }> {
  const overlay = (await translationsOf(db).overlaysOf(SITE_TRANSLATION_TYPE, [key], langcode)).get(key);
  const shown = overlay ? applyOverlay(doc, overlay.fields, SITE_OVERLAYS[key], overlay.sources) : doc;
  return { ...shown, translation: markerOf(langcode, !!overlay) };
}

/** A document's `translations` block of the content files (lib/translation-overlay.ts). */
export async function importSiteTranslations(
  db: Db,
  key: SiteDocumentKey,
  doc: unknown,
  block: unknown,
): Promise<void> {
  await importOverlays(db, SITE_TRANSLATION_TYPE, key, doc, SITE_OVERLAYS[key], block);
}

/** Each language's overlay of a document, for the export's `translations` block (none: undefined). */
export async function exportSiteTranslations(
  db: Db,
  key: SiteDocumentKey,
  doc: unknown,
): Promise<Record<string, Overlay> | undefined> {
  return exportOverlays(db, SITE_TRANSLATION_TYPE, key, doc, SITE_OVERLAYS[key]);
}

/**
 * The console's routes (lib/translations.ts): `GET /admin-api/site/{key}/translations`, `PUT` and
 * `DELETE …/{langcode}`, for content editors and administrators like the documents' own saves.
 * The fields are the live document's translatable leaves, each with its English.
 */
export function siteTranslationRoutes(
  app: FastifyInstance,
  live: (db: Db, key: SiteDocumentKey) => Promise<object>,
): void {
  translationRoutes(app, {
    entityType: SITE_TRANSLATION_TYPE,
    base: '/admin-api/site',
    role: 'content_editor',
    messages: { forbidden: en.console.content.forbidden, notFound: en.console.site.errors.unknownDocument },
    sparse: true,
    async find(db, id) {
      if (!isKey(id)) return undefined;
      return { ref: id, label: id, fields: overlayFields(await live(db, id), SITE_OVERLAYS[id]) };
    },
  });
}
