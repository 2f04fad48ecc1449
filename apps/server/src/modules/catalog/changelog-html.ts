import { Marked } from 'marked';
import { cleanHtml } from '../../lib/content-html.ts';

const markdown = new Marked({ gfm: true });

/**
 * Changelog notes as the product page shows them: Markdown to sanitized HTML. One rendering for
 * the console's entries, a published draft's entry and the entries a content file gives in
 * Markdown (`notesMarkdown`, written by export-content).
 */
export const changelogHtml = (notes: string) => cleanHtml(markdown.parse(notes, { async: false }));
