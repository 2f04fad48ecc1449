import { cleanUserHtml } from '../../lib/content-html.ts';

/**
 * The application description is rich text from the web editor. It is stored sanitized, so every
 * reader (the web app renders it as HTML) gets markup without scripts, styles or event handlers.
 */
export function sanitizeDescription(html: string): string {
  return cleanUserHtml(html, { headings: true });
}
