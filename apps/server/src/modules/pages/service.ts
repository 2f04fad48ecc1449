/**
 * What other modules use of the pages module: the content module's importer renders its Markdown
 * like the pages' and keeps its aliases clear of theirs.
 */
export { loadPageFiles, renderMarkdown, type PageFile } from './importer.ts';
export { normalizeAlias } from './repo.ts';
