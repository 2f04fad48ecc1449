/**
 * Most descriptions in OpenAPI documents are plain sentences ("Endpoints to manage GitHub Actions
 * using the REST API."). Their CommonMark rendering is just paragraphs, so they need neither the
 * Markdown parser's chunk nor its first parse, which costs about 100 ms of the main thread on a
 * slow machine (its rules are compiled on first use) and fell on the documentation page's first
 * render. This recognises such texts conservatively: any character or line start that could mean
 * Markdown, HTML, an entity or an autolink sends the text to the parser instead.
 */

/** Characters a plain text may hold: letters, digits, marks, spaces, newlines and harmless punctuation. */
const PLAIN_CHARS = /^[\p{L}\p{N}\p{M} \n.,;?'"()/%$+=-]*$/u;
/** Line starts that CommonMark reads as a list item, heading underline or indented code. */
const MARKUP_LINE_START = /^(?:[-+=]|\d{1,9}[.)]|\s)/;

/**
 * The paragraphs of `text` when CommonMark would render it as nothing but paragraphs of the same
 * words; null when it may hold Markdown (the parser decides then).
 */
export function plainParagraphs(text: string): string[] | null {
  if (!PLAIN_CHARS.test(text) || /www\./i.test(text)) return null;
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') {
      if (current.length) paragraphs.push(current.join('\n'));
      current = [];
      continue;
    }
    // Leading or trailing spaces change the rendering (code blocks, hard line breaks), and so may
    // a line of spaces alone.
    if (MARKUP_LINE_START.test(line) || line.endsWith(' ')) return null;
    current.push(line);
  }
  if (current.length) paragraphs.push(current.join('\n'));
  return paragraphs;
}
