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
