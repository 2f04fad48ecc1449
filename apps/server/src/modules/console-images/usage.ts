import { CONSOLE_IMAGES_PATH } from '@portico/contracts/console-images';
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { contentDb } from '../content/service.ts';
import { pagesDb } from '../pages/service.ts';
import { quickstartDb } from '../quickstart/service.ts';

/** Where an uploaded image is shown: the kind of item and its title (or question). */
export interface ImageUse {
  kind: 'article' | 'page' | 'faq' | 'story';
  title: string;
}

/** At most this many uses are looked for per kind: enough to name them in a refusal. */
export const USES_PER_KIND = 5;

/**
 * The articles, pages, FAQ questions and Quick Start stories, published, draft or scheduled, whose
 * stored text names the image's address (`/images/console/<uuid>.`, relative or absolute): their
 * Markdown, the HTML made from it (an imported item may have only that), the main image's address
 * and a story's steps. One query per table, each answering at most USES_PER_KIND rows. The `like`
 * reads every row of the four content tables (no index serves a substring): they hold the portal's
 * editorial content, hundreds or a few thousand rows, and a delete is rare. Revisions are not
 * searched: an old revision restored may show an image deleted since (a broken image, no more).
 */
export async function imageUses(db: Db, uuid: string): Promise<ImageUse[]> {
  // A uuid holds no LIKE wildcard (% or _): the pattern is the address's start as it is.
  const pattern = `%${CONSOLE_IMAGES_PATH}${uuid.toLowerCase()}.%`;
  const c = contentDb(db);
  // One after the other: the caller may be a transaction (one connection).
  const articles = await c
    .selectFrom('articles')
    .select('title')
    .where((eb) =>
      eb.or([
        eb('body_markdown', 'like', pattern),
        eb('body_html', 'like', pattern),
        eb('image_url', 'like', pattern),
      ]),
    )
    .orderBy('id')
    .limit(USES_PER_KIND)
    .execute();
  const faqs = await c
    .selectFrom('faqs')
    .select('question as title')
    .where((eb) => eb.or([eb('answer_markdown', 'like', pattern), eb('answer_html', 'like', pattern)]))
    .orderBy('id')
    .limit(USES_PER_KIND)
    .execute();
  const pages = await pagesDb(db)
    .selectFrom('pages')
    .select('title')
    .where((eb) =>
      eb.or([
        eb('body_markdown', 'like', pattern),
        eb('body_html', 'like', pattern),
        eb('image_url', 'like', pattern),
      ]),
    )
    .orderBy('id')
    .limit(USES_PER_KIND)
    .execute();
  const stories = await quickstartDb(db)
    .selectFrom('quickstart_stories')
    .select('title')
    .where(sql<boolean>`steps::text like ${pattern}`)
    .orderBy('id')
    .limit(USES_PER_KIND)
    .execute();
  return [
    ...articles.map((r) => ({ kind: 'article' as const, title: r.title })),
    ...pages.map((r) => ({ kind: 'page' as const, title: r.title })),
    ...faqs.map((r) => ({ kind: 'faq' as const, title: r.title })),
    ...stories.map((r) => ({ kind: 'story' as const, title: r.title })),
  ];
}
