/** The console's basic pages (issue 27, apps/server/src/modules/pages/README.md 'Console'). */
export const PAGE_STATES = ['draft', 'published', 'scheduled'] as const;
export type PageState = (typeof PAGE_STATES)[number];

/** The fields the console edits: what a revision stores and a diff compares. */
export interface PageFields {
  title: string;
  /** The canonical path alias, e.g. '/privacy'. */
  path: string;
  /** More paths that open the page (e.g. '/page/privacy'), each like `path`. */
  aliases: string[];
  /** Markdown. */
  body: string;
  imageUrl: string | null;
  imageAlt: string;
  /** Shows a table of contents built from the headings. */
  scrollspy: boolean;
  /** A cloud document shown with the page (field_google_drive_id), or null. */
  googleDriveId: string | null;
  state: PageState;
  /** ISO date-time of a scheduled publication, else null. */
  publishAt: string | null;
}

/** A row of the console's page list. */
export interface PageListItem {
  id: string;
  title: string;
  path: string;
  state: PageState;
  /** ISO date-time of a scheduled publication (state 'scheduled'), else null. */
  publishAt: string | null;
  version: number;
  changed: string;
}

/** A field-by-field difference (a 409's `meta.changes`, a revision's `changes`). */
export type { FieldChange } from './console-content.ts';
