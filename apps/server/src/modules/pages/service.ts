import type { Db } from '../../db/client.ts';
import { pagesDb } from './tables.ts';

/**
 * What other modules use of the pages module: the content module's importer renders its Markdown
 * like the pages' and keeps its aliases clear of theirs, and checks its internal links against the
 * pages' aliases.
 */
export { loadPageFiles, renderMarkdown, type PageFile } from './importer.ts';
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
