import { SCROLLSPY_AFTER, SCROLLSPY_BEFORE, SCROLLSPY_BOTTOM_PX } from '@portico/contracts/constants';

/** A heading of the table of contents (spec B 2.8: built from h1-h3). */
export interface TocItem {
  id: string;
  text: string;
  level: 1 | 2 | 3;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isNaN(code) ? m : String.fromCodePoint(code);
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Gives every h1-h3 of the (already sanitized) HTML a unique id and lists them in order. Returns
 * the HTML with the ids and the items.
 */
export function withHeadingIds(html: string): { html: string; items: TocItem[] } {
  const used = new Set<string>();
  const items: TocItem[] = [];
  const out = html.replace(
    /<h([1-3])((?:\s[^>]*)?)>([\s\S]*?)<\/h\1>/gi,
    (whole, level: string, attrs: string, inner: string) => {
      const text = textOf(inner);
      if (!text) return whole;
      let id = `toc-${slug(text)}`;
      for (let n = 2; used.has(id); n++) id = `toc-${slug(text)}-${n}`;
      used.add(id);
      items.push({ id, text, level: Number(level) as 1 | 2 | 3 });
      const rest = attrs.replace(/\sid\s*=\s*("[^"]*"|'[^']*'|\S+)/i, '');
      return `<h${level} id="${id}"${rest}>${inner}</h${level}>`;
    },
  );
  return { html: out, items };
}

/** The items shown around the active one: from active-6 to active+12 (spec B 9). */
export function tocWindow<T>(items: readonly T[], active: number): { start: number; items: T[] } {
  const start = Math.max(0, active - SCROLLSPY_BEFORE);
  return { start, items: items.slice(start, Math.max(0, active) + SCROLLSPY_AFTER + 1) };
}

/**
 * Which heading is active: the last one whose top has passed `offset` from the top of the
 * viewport; the last heading once the page is scrolled within 60 px of its bottom (spec B 9).
 */
export function activeHeading(
  tops: readonly number[],
  view: { scrollY: number; innerHeight: number; scrollHeight: number; offset?: number },
): number {
  if (tops.length === 0) return -1;
  if (view.scrollY + view.innerHeight >= view.scrollHeight - SCROLLSPY_BOTTOM_PX) return tops.length - 1;
  const offset = view.offset ?? 120;
  let active = 0;
  tops.forEach((top, i) => {
    if (top - offset <= 0) active = i;
  });
  return active;
}
