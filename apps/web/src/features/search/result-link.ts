import type { SearchResult } from './api';

/**
 * Where a result leads (spec B 2.6): an endpoint to its documentation (or the given link), a
 * product to /apiProduct/{uuid} unless its alias link is given, a forum topic to /forum-topic/{uuid},
 * a page or an article to its own link.
 */
export function resultLink(result: Pick<SearchResult, 'type' | 'uuid' | 'link'>): string {
  switch (result.type) {
    case 'api_endpoint':
      return result.link ?? `/documentation/${result.uuid}`;
    case 'api_product':
      return result.link ?? `/apiProduct/${result.uuid}`;
    case 'forum':
      return `/forum-topic/${result.uuid}`;
    default:
      return result.link ?? '/';
  }
}

/** The parts of `text` to highlight: the query's words longer than 2 characters (spec B 2.6). */
export function highlightTerms(query: string, minLength: number): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= minLength))];
}

/** Splits `text` into plain and highlighted runs (case-insensitive, prefix-free substring match). */
export function splitHighlights(text: string, terms: readonly string[]): { text: string; hit: boolean }[] {
  if (terms.length === 0 || text === '') return [{ text, hit: false }];
  const escaped = [...terms]
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(${escaped.join('|')})`, 'giu');
  return text
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, hit: terms.includes(part.toLowerCase()) }));
}
