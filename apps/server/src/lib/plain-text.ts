import sanitizeHtml from 'sanitize-html';

/**
 * The text of stored HTML: tags stripped (with what scripts, styles and form options hold),
 * entities decoded once, paragraphs and line breaks kept apart. By default white space is
 * collapsed to single spaces (the search index, subjects, emptiness checks); `lines` keeps the
 * lines of paragraphs and line breaks (e-mails).
 */
export function plainText(html: string | null | undefined, options: { lines?: boolean } = {}): string {
  // Paragraphs and line breaks end words: 'a</p><p>b' is 'a b', not 'ab'.
  const source = (html ?? '').replace(/<\/p>|<br\s*\/?>/gi, options.lines ? '\n' : ' ');
  const text = decodeEntities(
    sanitizeHtml(source, {
      allowedTags: [],
      allowedAttributes: {},
      nonTextTags: ['style', 'script', 'textarea', 'option', 'noscript'],
    }),
  );
  if (!options.lines) return text.replace(/\s+/g, ' ').trim();
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .trim();
}

/** One pass, so that an escaped entity in the text ('&amp;lt;') stays text ('&lt;'). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_m, e: string) => {
    const k = e.toLowerCase();
    if (k.startsWith('#x')) return String.fromCodePoint(Number.parseInt(k.slice(2), 16));
    if (k.startsWith('#')) return String.fromCodePoint(Number.parseInt(k.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[k] ?? '';
  });
}
