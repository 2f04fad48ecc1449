import type { BlockLayout, CookiesConsent } from './site.ts';

/**
 * The site's own texts in the provider console (issue 27, apps/server/src/modules/site/README.md
 * 'Console'): two documents, each edited whole, with a version, revisions and conflicts.
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
  content: SiteDocumentContent[K];
}

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
}
