import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../lib/errors.ts';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './resources.ts';

/**
 * The few pieces of Drupal's JSON:API query syntax these routes accept. Anything else is a 400,
 * never silently ignored. (Replace with the shared parser of src/jsonapi/ once it exists.)
 */
export type Query = Record<string, string | string[] | undefined>;

export function single(query: Query, key: string): string | undefined {
  const v = query[key];
  if (Array.isArray(v)) throw badRequest(`The query parameter ${key} is given more than once.`, key);
  return v;
}

export function rejectUnknown(query: Query, allowed: (key: string) => boolean): void {
  for (const key of Object.keys(query)) {
    if (key === '_format') continue;
    if (!allowed(key)) throw badRequest(`The query parameter ${key} is not supported here.`, key);
  }
}

export function parsePage(
  query: Query,
  defaultLimit = DEFAULT_PAGE_LIMIT,
): { limit: number; offset: number } {
  const rawLimit = single(query, 'page[limit]');
  const rawOffset = single(query, 'page[offset]');
  const limit = rawLimit === undefined ? defaultLimit : Number(rawLimit);
  const offset = rawOffset === undefined ? 0 : Number(rawOffset);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw badRequest(`page[limit] must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`, 'page[limit]');
  if (!Number.isInteger(offset) || offset < 0)
    throw badRequest('page[offset] must be a whole number of 0 or more.', 'page[offset]');
  return { limit, offset };
}

/** Links of a page: self, and next / prev when there are more. */
export function pageLinks(
  request: FastifyRequest,
  page: { limit: number; offset: number },
  count: number,
): Record<string, { href: string }> {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const at = (offset: number) => {
    const u = new URL(url);
    u.searchParams.set('page[offset]', String(offset));
    u.searchParams.set('page[limit]', String(page.limit));
    return { href: u.toString() };
  };
  const links: Record<string, { href: string }> = { self: { href: url.toString() } };
  if (page.offset + page.limit < count) links.next = at(page.offset + page.limit);
  if (page.offset > 0) links.prev = at(Math.max(0, page.offset - page.limit));
  return links;
}

export function parseInclude<T extends string>(query: Query, allowed: readonly T[]): Set<T> {
  const raw = single(query, 'include');
  const out = new Set<T>();
  if (!raw) return out;
  for (const part of raw.split(',').map((s) => s.trim())) {
    if (!(allowed as readonly string[]).includes(part))
      throw badRequest(`${part} is not a relationship that can be included here.`, 'include');
    out.add(part as T);
  }
  return out;
}

export function parseSort<T extends string>(
  query: Query,
  allowed: readonly T[],
  fallback: { field: T; desc: boolean },
): { field: T; desc: boolean } {
  const raw = single(query, 'sort');
  if (!raw) return fallback;
  const desc = raw.startsWith('-');
  const field = desc ? raw.slice(1) : raw;
  if (!(allowed as readonly string[]).includes(field))
    throw badRequest(`Sorting by ${field} is not supported; use ${allowed.join(' or ')}.`, 'sort');
  return { field: field as T, desc };
}
