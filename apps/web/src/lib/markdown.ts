import DOMPurify from 'dompurify';
import { Marked } from 'marked';

/**
 * CommonMark (with GitHub's tables and autolinks, as OpenAPI descriptions use them) to sanitized
 * HTML. Loaded on demand by components/ui/markdown.tsx: the parser stays out of every page's first
 * chunk. Raw HTML in the text is allowed by CommonMark; DOMPurify removes scripts, handlers and
 * javascript: links from it.
 */
const parser = new Marked({ gfm: true, breaks: false, async: false });

export function renderMarkdown(text: string): string {
  const html = parser.parse(text, { async: false });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
