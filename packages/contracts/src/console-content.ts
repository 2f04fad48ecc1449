/** The console's articles (issue 27, apps/server/src/modules/content/README.md 'Console'). */
export const ARTICLE_STATES = ['draft', 'published', 'scheduled'] as const;
export type ArticleState = (typeof ARTICLE_STATES)[number];

/** The fields the console edits: what a revision stores and a diff compares. */
export interface ArticleFields {
  title: string;
  path: string | null;
  description: string;
  /** Markdown. */
  body: string;
  /** The uuid of a news category, or null. */
  category: string | null;
  imageUrl: string | null;
  imageAlt: string;
  internal: boolean;
  scrollspy: boolean;
  state: ArticleState;
  /** ISO date-time of a scheduled publication, else null. */
  publishAt: string | null;
}

/** The console's FAQ (issue 27, modules/content/README.md 'Console: FAQ'). */
export const FAQ_STATES = ['draft', 'published', 'scheduled'] as const;
export type FaqState = (typeof FAQ_STATES)[number];

/** The fields of a FAQ question the console edits: what a revision stores and a diff compares. */
export interface FaqFields {
  question: string;
  /** Markdown. */
  answer: string;
  /** The uuid of a FAQ category, or null (the questions of no category come last). */
  category: string | null;
  /** The order within its category (smaller first). */
  weight: number;
  state: FaqState;
  /** ISO date-time of a scheduled publication, else null. */
  publishAt: string | null;
}

/** A FAQ question as the console reads it. */
export interface FaqQuestion extends FaqFields {
  id: string;
  version: number;
  created: string;
  changed: string;
  editedAt: string | null;
}

/** A row of the console's FAQ list. */
export interface FaqListItem {
  id: string;
  question: string;
  state: FaqState;
  category: string | null;
  categoryName: string | null;
  weight: number;
  /** ISO date-time of a scheduled publication (state 'scheduled'), else null. */
  publishAt: string | null;
  version: number;
  changed: string;
}

/** What a save of a category (news or FAQ) sends, besides its version; its revisions store these. */
export interface CategoryFields {
  name: string;
  /** Its place among the categories (smaller first); left out of a save, it keeps its place. */
  weight: number;
}

/** A category as the console edits it (versioned content: revisions, 409 when stale). */
export interface ConsoleCategory extends CategoryFields {
  id: string;
  /** Raised by every save, rename, move and restore (also the ETag). */
  version: number;
  changed: string;
}

/** A FAQ category with the number of questions it holds. */
export interface FaqCategory extends ConsoleCategory {
  questions: number;
}

/** A news (blog) category with the number of articles it holds. */
export interface NewsCategory extends ConsoleCategory {
  articles: number;
}

/** What differs in one field, in parts of the `diff` package (lines of long texts, words elsewhere). */
export interface FieldChange<F extends string = string> {
  field: F;
  parts: { value: string; added: boolean; removed: boolean }[];
}
