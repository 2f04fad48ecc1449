import type { FastifyInstance } from 'fastify';
import { SITE_DOCUMENT_KEYS, type SiteDocumentKey } from '@portico/contracts/console-site';
import { en } from '@portico/contracts/messages';
import type { Locale } from '@portico/contracts/locales';
import type { Db } from '../../db/client.ts';
import { cleanHtml } from '../../lib/content-html.ts';
import { overlayTranslations, type OverlayKind } from '../../lib/translation-overlay.ts';
import type { TranslationMarker } from '../../lib/translations.ts';

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

const siteOverlays = overlayTranslations<unknown, SiteDocumentKey>({
  type: SITE_TRANSLATION_TYPE,
  kind: (key) => SITE_OVERLAYS[key],
});

/** A live document in the reader's language, with the translation marker of decision 063. */
export async function siteDocumentIn<T>(
  db: Db,
  key: SiteDocumentKey,
  doc: T,
  langcode: Locale,
): Promise<T & { translation: TranslationMarker }> {
  const [shown] = await siteOverlays.shownIn(db, [[key, doc]], langcode);
  return { ...shown!.doc, translation: shown!.translation };
}

/** A document's `translations` block of the content files (lib/translation-overlay.ts). */
export const importSiteTranslations = siteOverlays.importFor;

/** Each language's overlay of a document, for the export's `translations` block (none: undefined). */
export const exportSiteTranslations = siteOverlays.exportFor;

/**
 * The console's routes: `GET /admin-api/site/{key}/translations`, `PUT` and `DELETE …/{langcode}`,
 * for content editors and administrators like the documents' own saves, over the live document.
 */
export function siteTranslationRoutes(
  app: FastifyInstance,
  live: (db: Db, key: SiteDocumentKey) => Promise<object>,
): void {
  siteOverlays.routes(app, {
    base: '/admin-api/site',
    role: 'content_editor',
    messages: { forbidden: en.console.content.forbidden, notFound: en.console.site.errors.unknownDocument },
    find: async (db, id) => (isKey(id) ? { id, label: id, doc: await live(db, id) } : undefined),
  });
}
