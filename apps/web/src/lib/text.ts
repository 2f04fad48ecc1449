import { CARD_TITLE_WORD_MAX } from '@portico/contracts/constants';
import { DEFAULT_LOCALE } from '@portico/contracts/locales';
import { locale, localeTag } from './i18n';

/** Text helpers every listing uses: dates as the spec writes them, cut titles and snippets. */

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * 'YYYY-MM-DD' (or an ISO date-time) as DD-MM-YYYY in English (spec B 9), in another language as
 * Intl writes a date there (`03.12.2026` in German); anything else as received.
 */
export function formatDate(value: string | null | undefined, lng = locale): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  if (lng === DEFAULT_LOCALE) return `${m[3]}-${m[2]}-${m[1]}`;
  return dateFormat(lng === locale ? localeTag : lng).format(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(tag: string): Intl.DateTimeFormat {
  let f = dateFormats.get(tag);
  if (!f) {
    f = new Intl.DateTimeFormat(tag, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
    dateFormats.set(tag, f);
  }
  return f;
}

/** The day of an instant in the reader's time zone: DD-MM-YYYY in English (spec B 9), else Intl's. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  if (locale === DEFAULT_LOCALE) return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
  return new Intl.DateTimeFormat(localeTag, { day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
}

/** An instant in the reader's time zone: DD-MM-YYYY HH:mm in English (spec B 9), else Intl's. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  if (locale === DEFAULT_LOCALE) {
    return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  return new Intl.DateTimeFormat(localeTag, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A number as the page's language writes it (1,234 / 1.234). */
export function formatNumber(value: number): string {
  return new Intl.NumberFormat(localeTag).format(value);
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
