import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { contentDb } from './tables.ts';

/**
 * What other modules use of the content module: the internal-link rule's guard of a console delete
 * or address change (links.ts, README.md 'Internal links'), which the pages console calls when a
 * page is deleted or gives up an address; and what every visitor may read of the blog and the FAQ
 * (the Markdown module: published, not internal, articles with a path; published questions).
 */
export { itemsLinkingTo, refuseLinksTo, type LinkingItem } from './links.ts';
export { FAQ_PAGE } from './repo.ts';
export { articleTranslation, categoryTranslation, faqTranslation } from './translatable.ts';

export interface PublicArticle {
  /** Its id: the key of its translations (decision 063). */
  uuid: string;
  title: string;
  path: string;
  description: string;
  bodyHtml: string;
  category: string | null;
  /** The category's id: the key of its translations. */
  categoryUuid: string | null;
  author: string | null;
  created: Date;
}

/** Public articles (published, not internal, with a path), newest first; or the one at `path`. */
export async function publicArticles(db: Db, path?: string): Promise<PublicArticle[]> {
  let qb = contentDb(db)
    .selectFrom('articles as a')
    .leftJoin('news_categories as c', 'c.id', 'a.category_id')
    .leftJoin('article_authors as au', 'au.id', 'a.author_id')
    .select([
      'a.uuid',
      'a.title',
      'a.path',
      'a.description',
      'a.body_html',
      'a.created',
      'c.name as category',
      'c.uuid as category_uuid',
      'au.name as author',
    ])
    .where('a.published', '=', true)
    .where('a.internal', '=', false)
    .where('a.path', 'is not', null);
  // Paths are stored lower case (the import and the console normalize them).
  if (path !== undefined) qb = qb.where(sql<string>`lower(a.path)`, '=', path.toLowerCase());
  const rows = await qb.orderBy('a.created', 'desc').orderBy('a.id', 'desc').execute();
  return rows.map((r) => ({
    uuid: r.uuid,
    title: r.title,
    path: r.path!,
    description: r.description,
    bodyHtml: r.body_html,
    category: r.category,
    categoryUuid: r.category_uuid,
    author: r.author,
    created: r.created instanceof Date ? r.created : new Date(r.created),
  }));
}

/** Published FAQ questions in the FAQ page's order: categories in theirs, then the uncategorised. */
export async function publicFaqs(db: Db): Promise<
  {
    uuid: string;
    question: string;
    answerHtml: string;
    category: string | null;
    /** The category's id: the key of its translations. */
    categoryUuid: string | null;
  }[]
> {
  const rows = await contentDb(db)
    .selectFrom('faqs as f')
    .leftJoin('faq_categories as c', 'c.id', 'f.category_id')
    .select(['f.uuid', 'f.question', 'f.answer_html', 'c.name as category', 'c.uuid as category_uuid'])
    .where('f.published', '=', true)
    .orderBy(sql`coalesce(c.weight, 2147483647)`)
    .orderBy('c.id')
    .orderBy('f.weight')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({
    uuid: r.uuid,
    question: r.question,
    answerHtml: r.answer_html,
    category: r.category,
    categoryUuid: r.category_uuid,
  }));
}

// The console's images module finds where an image is used in this module's tables.
export { contentDb } from './tables.ts';
