import { cleanUserHtml } from '../../lib/content-html.ts';
import { escapeHtml } from '../../lib/html.ts';

/**
 * Ticket texts and replies as stored: HTML without scripts, styles, handlers or images. Text
 * typed in a plain text area (no tags) becomes paragraphs, escaped.
 */
export function ticketHtml(input: string): string {
  const text = input.trim();
  if (!/<[a-z!/]/i.test(text)) {
    return text
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
  }
  return cleanUserHtml(text, { newTab: true });
}
