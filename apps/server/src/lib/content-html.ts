import sanitizeHtml from 'sanitize-html';

/**
 * HTML from the provider's content files (catalog texts, basic pages): the tags an editor needs,
 * no scripts or handlers. User-written rich text has its own, narrower rules
 * (modules/applications/description.ts).
 */
export function cleanHtml(value: string | null | undefined): string {
  return sanitizeHtml(value ?? '', {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2'],
    allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, img: ['src', 'alt', 'width', 'height'] },
  });
}
