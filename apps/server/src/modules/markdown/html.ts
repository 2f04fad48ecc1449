import { NodeHtmlMarkdown } from 'node-html-markdown';

/**
 * Sanitized HTML (articles, pages, FAQ answers, product descriptions) as Markdown, with
 * node-html-markdown: it parses without a DOM (node-html-parser), so it runs as is on the server.
 */
const converter = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  maxConsecutiveNewlines: 2,
});

/** Markdown of `html`; links and images to the portal's own paths (`/…`) made absolute on `origin`. */
export function htmlToMarkdown(html: string, origin: string): string {
  if (!html.trim()) return '';
  return converter.translate(html).replace(/\]\(\/(?!\/)/g, `](${origin}/`);
}
