import type { Db } from '../../db/client.ts';
import { pagesRepo, type PageJson } from './repo.ts';
import { pagesDb } from './tables.ts';

/**
 * What other modules use of the pages module: the content module's importer renders its Markdown
 * like the pages' and keeps its aliases clear of theirs, and checks its internal links against the
 * pages' aliases. The Markdown module reads published pages (publicPage, publicPages).
 */
export { loadPageFiles, pageTranslation, renderMarkdown, type PageFile } from './importer.ts';
export { normalizeAlias } from './repo.ts';

/** Which of `aliases` (normalized) a page answers: the content module's internal-link check. */
export async function existingAliases(db: Db, aliases: readonly string[]): Promise<Set<string>> {
  if (!aliases.length) return new Set();
  const rows = await pagesDb(db)
    .selectFrom('page_aliases')
    .select('alias')
    .where('alias', 'in', [...aliases])
    .execute();
  return new Set(rows.map((r) => r.alias));
}

/** A published page by any of its aliases (normalized), as visitors read it: the Markdown module. */
export function publicPage(db: Db, alias: string): Promise<PageJson | undefined> {
  return pagesRepo(db).findByAlias(alias);
}

/** Every published page's canonical alias and title, by title: the Markdown module's llms.txt. */
export async function publicPages(db: Db): Promise<{ uuid: string; alias: string; title: string }[]> {
  return pagesDb(db)
    .selectFrom('pages')
    .select(['uuid', 'alias', 'title'])
    .where('published', '=', true)
    .orderBy('title')
    .orderBy('id')
    .execute();
}

// The console's images module finds where an image is used in this module's tables.
export { pagesDb } from './tables.ts';
