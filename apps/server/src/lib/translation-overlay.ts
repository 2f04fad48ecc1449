import type { Locale } from '@portico/contracts/locales';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { relocateOverlay } from './overlay-relocation.ts';
import {
  markerOf,
  TRANSLATION_LOCALES,
  translationRoutes,
  translationsOf,
  type TranslatableField,
  type TranslationAdapter,
  type TranslationMarker,
} from './translations.ts';

/**
 * Translations of structured documents (decision 064): the site's block layout and cookie texts,
 * a Quick Start story. A translation is an **overlay**: a map from the JSON pointer (RFC 6901) of
 * a translatable string leaf of the live default-language document to its translated text, kept
 * as one `content_translations` row (lib/translations.ts) per document and language.
 *
 * A kind names its translatable leaves by their member names (titles, texts, HTML bodies, button
 * labels; never URLs, image paths, ids, selectors or colours). Applying an overlay sets only the
 * pointers that still name such a string leaf: a pointer the document lost, or whose English
 * changed shape, is ignored, and that string shows the default language's text.
 */

/** Pointer to translated text. */
export type Overlay = Record<string, string>;

export interface OverlayKind {
  /** Member names whose string values are translatable text. */
  texts: readonly string[];
  /** Of those, the members that hold HTML (sanitized by `clean`, the document's save's sanitizer). */
  html?: readonly string[];
  clean?: (html: string) => string;
  /** The longest translated text of one leaf. */
  max: number;
}

/** One translatable string of a document: its pointer, default-language text, and whether HTML. */
export interface OverlayLeaf {
  pointer: string;
  text: string;
  html: boolean;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The segments of a JSON pointer, or undefined when it is not one. */
function segmentsOf(pointer: string): string[] | undefined {
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map(unescape);
}

const isContainer = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Every translatable, non-empty string leaf of `doc`, in document order. */
export function overlayLeaves(doc: unknown, kind: OverlayKind): OverlayLeaf[] {
  const out: OverlayLeaf[] = [];
  const walk = (value: unknown, pointer: string, name: string | undefined) => {
    if (typeof value === 'string') {
      if (name !== undefined && kind.texts.includes(name) && value.trim()) {
        out.push({ pointer, text: value, html: kind.html?.includes(name) ?? false });
      }
      return;
    }
    if (Array.isArray(value)) {
      // An array's items take their member name from the array's (a list of strings).
      value.forEach((item, i) => walk(item, `${pointer}/${i}`, name));
      return;
    }
    if (isContainer(value)) {
      for (const [key, item] of Object.entries(value)) walk(item, `${pointer}/${escape(key)}`, key);
    }
  };
  walk(doc, '', undefined);
  return out;
}

/** The translatable leaves as translation fields (lib/translations.ts), each with its English. */
export function overlayFields(doc: unknown, kind: OverlayKind): Record<string, TranslatableField> {
  return Object.fromEntries(
    overlayLeaves(doc, kind).map((leaf) => [
      leaf.pointer,
      { max: kind.max, source: leaf.text, ...(leaf.html && kind.clean ? { clean: kind.clean } : {}) },
    ]),
  );
}

/** A document's translatable leaves now: pointer to its default-language text. */
export function leafTexts(doc: unknown, kind: OverlayKind): Map<string, string> {
  return new Map(overlayLeaves(doc, kind).map((leaf) => [leaf.pointer, leaf.text]));
}

/**
 * `doc` with the overlay's texts in place (a copy; `doc` is left as it is), each where its English
 * is now when the overlay has `sources` (relocateOverlay). A pointer that does not name a
 * translatable string leaf of `doc` is ignored; an empty text leaves the default's. HTML leaves
 * are sanitized again, so an overlay written before a sanitizer change stays safe.
 */
export function applyOverlay<T>(
  doc: T,
  stored: Overlay,
  kind: OverlayKind,
  sources?: Readonly<Record<string, string>>,
): T {
  const overlay = sources ? relocateOverlay(stored, sources, leafTexts(doc, kind)) : stored;
  const copy = structuredClone(doc);
  for (const [pointer, text] of Object.entries(overlay)) {
    const segments = segmentsOf(pointer);
    if (!segments?.length || typeof text !== 'string' || !text.trim()) continue;
    const name = [...segments].reverse().find((s) => !/^\d+$/.test(s));
    if (name === undefined || !kind.texts.includes(name)) continue;
    let parent: unknown = copy;
    for (const segment of segments.slice(0, -1)) {
      parent = isContainer(parent) && Object.hasOwn(parent, segment) ? parent[segment] : undefined;
    }
    const last = segments[segments.length - 1]!;
    if (!isContainer(parent) || !Object.hasOwn(parent, last) || typeof parent[last] !== 'string') continue;
    const html = kind.html?.includes(name) && kind.clean;
    parent[last] = html ? html(text) : text;
  }
  return copy;
}

/**
 * A content file's `translations: { <langcode>: { <pointer>: text } }` block of one document: each
 * language's overlay is written unless the console saved that language's translation (`updated_by`
 * set), as an import leaves what the console saved alone. Only the pointers of the document's
 * translatable leaves are kept, an HTML leaf cleaned by the kind's sanitizer.
 */
export async function importOverlays(
  db: Db,
  entityType: string,
  entityId: string,
  doc: unknown,
  kind: OverlayKind,
  block: unknown,
): Promise<void> {
  if (!block || typeof block !== 'object') return;
  const translations = translationsOf(db);
  const leaves = overlayFields(doc, kind);
  const existing = new Map((await translations.list(entityType, entityId)).map((r) => [r.langcode, r]));
  for (const langcode of TRANSLATION_LOCALES) {
    const texts = (block as Record<string, unknown>)[langcode];
    if (!texts || typeof texts !== 'object') continue;
    const overlay: Overlay = {};
    const sources: Overlay = {};
    for (const [pointer, text] of Object.entries(texts)) {
      const leaf = leaves[pointer];
      if (!leaf || typeof text !== 'string' || !text.trim()) continue;
      overlay[pointer] = leaf.clean ? leaf.clean(text) : text;
      // The file's document and its translations go together: the English each was made from.
      if (leaf.source !== undefined) sources[pointer] = leaf.source;
    }
    const before = existing.get(langcode);
    if (before?.updatedBy != null || !Object.keys(overlay).length) continue;
    if (
      before &&
      JSON.stringify(before.fields) === JSON.stringify(overlay) &&
      JSON.stringify(before.sources ?? {}) === JSON.stringify(sources)
    )
      continue;
    await translations.put(entityType, entityId, langcode, overlay, null, sources);
  }
}

/**
 * Each language's overlay of a document, for an export's `translations` block (none: undefined):
 * where each text's English is in `doc`, the live document the export writes beside it, so that
 * the file's pointers name the texts they translate.
 */
export async function exportOverlays(
  db: Db,
  entityType: string,
  entityId: string,
  doc: unknown,
  kind: OverlayKind,
): Promise<Record<string, Overlay> | undefined> {
  const rows = await translationsOf(db).list(entityType, entityId);
  if (!rows.length) return undefined;
  const current = leafTexts(doc, kind);
  return Object.fromEntries(rows.map((r) => [r.langcode, relocateOverlay(r.fields, r.sources, current)]));
}

/** What a kind's console routes need of it: the adapter's own parts, and the document an id names. */
export type OverlayRoutes<V, I extends string> = Pick<TranslationAdapter, 'base' | 'role' | 'messages'> & {
  /** The document the routes' id names (its entity id, label and translatable view), or none. */
  find(db: Db, id: string): Promise<{ id: I; label: string; doc: V } | undefined>;
};

/**
 * One kind of overlaid document as its module declares it: its `entity_type` and its overlay kind
 * (the same for every document, or each document's by id). Gives the kind's public reads, the
 * content files' import and export of its `translations` blocks, and its console routes.
 */
export function overlayTranslations<V, I extends string = string>(spec: {
  type: string;
  kind: OverlayKind | ((id: I) => OverlayKind);
}) {
  const { type, kind } = spec;
  const kindOf = (id: I) => (typeof kind === 'function' ? kind(id) : kind);
  return {
    /**
     * The documents in `langcode`, in order (one query): each with the overlay of `langcode`
     * applied where its English is now, and its translation marker.
     */
    async shownIn<D extends V>(
      db: Db,
      docs: readonly (readonly [I, D])[],
      langcode: Locale,
    ): Promise<{ doc: D; translation: TranslationMarker }[]> {
      const found = await translationsOf(db).overlaysOf(
        type,
        docs.map(([id]) => id),
        langcode,
      );
      return docs.map(([id, doc]) => {
        const overlay = found.get(id);
        return {
          doc: overlay ? applyOverlay(doc, overlay.fields, kindOf(id), overlay.sources) : doc,
          translation: markerOf(langcode, !!overlay),
        };
      });
    },
    /** A document's `translations` block of a content file (importOverlays). */
    importFor: (db: Db, id: I, doc: V, block: unknown): Promise<void> =>
      importOverlays(db, type, id, doc, kindOf(id), block),
    /** A document's overlays for an export's `translations` block (exportOverlays; none: undefined). */
    exportFor: (db: Db, id: I, doc: V): Promise<Record<string, Overlay> | undefined> =>
      exportOverlays(db, type, id, doc, kindOf(id)),
    /**
     * The console's routes (lib/translations.ts): `GET {base}/{id}/translations`, `PUT` and `DELETE
     * …/{langcode}`, sparse; the fields are the document's translatable leaves, each with its English.
     */
    routes(app: FastifyInstance, { base, role, messages, find }: OverlayRoutes<V, I>): void {
      translationRoutes(app, {
        entityType: type,
        base,
        role,
        messages,
        sparse: true,
        async find(db, id) {
          const found = await find(db, id);
          return (
            found && { ref: found.id, label: found.label, fields: overlayFields(found.doc, kindOf(found.id)) }
          );
        },
      });
    },
  };
}
