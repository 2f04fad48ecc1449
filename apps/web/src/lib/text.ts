import { CARD_TITLE_WORD_MAX } from '@portico/contracts/constants';

/** Text helpers every listing uses: dates as the spec writes them, cut titles and snippets. */

/** 'YYYY-MM-DD' (or an ISO date-time) as DD-MM-YYYY (spec B 9); anything else as received. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : value;
}

/** Cuts text at `max` characters on a word boundary when possible, with an ellipsis. */
export function cutText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A card title with every word over 17 characters cut at 17 (spec B 9). */
export function cutTitleWords(title: string, max = CARD_TITLE_WORD_MAX): string {
  return title
    .split(' ')
    .map((w) => (w.length > max ? `${w.slice(0, max)}…` : w))
    .join(' ');
}

/** Plain text of an HTML fragment, without running it (no scripts, no image loads). */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
