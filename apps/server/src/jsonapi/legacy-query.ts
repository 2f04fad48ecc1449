import type { FastifyRequest } from 'fastify';
import { badRequest } from '../lib/errors.ts';
import { pageLinks as sharedPageLinks, requestUrl, type Links } from './document.ts';
import { parseCount, parseOffset } from './query.ts';

/**
 * @deprecated Hand-rolled query helpers from before the shared JSON:API layer (they were the
 * organizations module's query.ts). The organizations module no longer uses them (its lists are
 * resource descriptions in collections.ts); only the applications module still imports this
 * file. New code: `parseJsonApiQuery` (extraParameters, page options), `checkIncludes` and
 * `pageLinks` of src/jsonapi/. Delete this file once the applications routes have moved. Behaviour kept as it was for them: a `page[limit]` above 50 is
 * a 400 here, where the shared parser lowers it to the maximum.
 */
export type Query = Record<string, string | string[] | undefined>;

const DEFAULT_PAGE_LIMIT = 20;
const MAX_PAGE_LIMIT = 50;

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
  // Digits only, as the shared parser reads them: Number('1e20') is a whole number too.
  const limit = rawLimit === undefined ? defaultLimit : parseCount('page[limit]', rawLimit);
  const offset = rawOffset === undefined ? 0 : parseOffset('page[offset]', rawOffset);
  if (limit < 1 || limit > MAX_PAGE_LIMIT)
    throw badRequest(`page[limit] must be a whole number from 1 to ${MAX_PAGE_LIMIT}.`, 'page[limit]');
  return { limit, offset };
}

/** Links of a page: the shared layer's `pageLinks` for the request URL. */
export function pageLinks(
  request: FastifyRequest,
  page: { limit: number; offset: number },
  count: number,
): Links {
  return sharedPageLinks(requestUrl(request), page, count);
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
