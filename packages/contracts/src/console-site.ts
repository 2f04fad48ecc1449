import type { BlockLayout, CookiesConsent } from './site.ts';

/**
 * The site's own texts in the provider console (issue 27, apps/server/src/modules/site/README.md
 * 'Console'): two documents, each edited whole, with a version, revisions and conflicts, and
 * at most one pending version (a draft, or scheduled) beside the live one.
 */
export const SITE_DOCUMENT_KEYS = ['block-layout', 'cookies-consent'] as const;
export type SiteDocumentKey = (typeof SITE_DOCUMENT_KEYS)[number];

export interface SiteDocumentContent {
  'block-layout': BlockLayout;
  'cookies-consent': CookiesConsent;
}

/** `GET /admin-api/site/{key}`'s attributes. */
export interface SiteDocument<K extends SiteDocumentKey = SiteDocumentKey> {
  key: K;
  /** Raised by every save; a save names the version it started from. */
  version: number;
  changed: string;
  /** The last save in the console (null: as the content import wrote it). */
  editedAt: string | null;
  /** The live document: what the site shows. */
  content: SiteDocumentContent[K];
  /** The pending document, not shown yet (null: none). */
  draft: SiteDocumentContent[K] | null;
  /** When the pending document goes live by itself (null: a draft waits for a person). */
  publishAt: string | null;
}

/**
 * What `PUT /admin-api/site/{key}` does with the content: `publish` (the default) makes it live
 * and drops a pending version, `draft` keeps it as the pending version, `schedule` too, published
 * at `publishAt` (a future date-time).
 */
export const SITE_SAVE_MODES = ['publish', 'draft', 'schedule'] as const;
export type SiteSaveMode = (typeof SITE_SAVE_MODES)[number];

/** One line of the difference between two versions of a document, as YAML. */
export interface SiteDocumentChange {
  value: string;
  added: boolean;
  removed: boolean;
}

export interface SiteRevision {
  version: number;
  author: string | null;
  created: string;
  /** What the save left: the document published, a draft, or scheduled (null: before drafts existed). */
  state: 'published' | 'draft' | 'scheduled' | null;
}
