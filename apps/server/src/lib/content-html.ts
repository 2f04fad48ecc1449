import sanitizeHtml from 'sanitize-html';

/**
 * HTML from the provider's content files (catalog texts, basic pages): the tags an editor needs,
 * no scripts or handlers. Rich text users write has its own, narrower rules (cleanUserHtml).
 */
export function cleanHtml(value: string | null | undefined): string {
  return sanitizeHtml(value ?? '', {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2'],
    allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, img: ['src', 'alt', 'width', 'height'] },
  });
}

const USER_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'blockquote',
  'code',
  'pre',
];

/**
 * Rich text users write (application descriptions, support tickets): the formatting an editor
 * makes and links, without scripts, styles, handlers or images. Links always get a safe `rel`;
 * `newTab` makes every link open in a new tab (else a `target` the editor wrote is kept).
 */
export function cleanUserHtml(html: string, options: { headings?: boolean; newTab?: boolean } = {}): string {
  const rel = 'noopener noreferrer nofollow';
  return sanitizeHtml(html, {
    allowedTags: options.headings ? [...USER_TAGS, 'h2', 'h3', 'h4'] : USER_TAGS,
    allowedAttributes: { a: options.newTab ? ['href', 'title'] : ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', options.newTab ? { rel, target: '_blank' } : { rel }),
    },
  }).trim();
}
