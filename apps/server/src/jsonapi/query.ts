import { JsonApiQueryError } from './errors.ts';
import {
  emptyFilter,
  isFieldPath,
  parseFilter,
  serializeFilter,
  type FilterGroup,
  type RawValue,
} from './filter.ts';

/**
 * Parses Drupal's JSON:API query syntax from Fastify's `request.query`.
 *
 * Fastify's default query-string parser does not nest brackets: `?filter[a][value]=1` arrives as
 * `{ 'filter[a][value]': '1' }`, a repeated key as an array. Nested objects (a `qs`-style parser)
 * are flattened back to bracket keys first, so both shapes give the same result.
 *
 * Accepted: `include`, `fields[type]`, `sort`, `page[limit]`, `page[offset]`, `filter[...]`
 * (see filter.ts) and `_format`. Anything else is the caller's choice: listed in
 * `extraParameters` (returned in `extra`), ignored, or by default a 400. Every error is a
 * JsonApiQueryError naming the parameter.
 */

export interface SortField {
  /** A dotted field path. */
  path: string;
  direction: 'ASC' | 'DESC';
}

export interface PageParams {
  limit: number;
  offset: number;
}

export interface JsonApiQuery {
  /** Relationship paths to include, in the order given, e.g. `['uid', 'uid.user_picture']`. */
  include: string[];
  /** Sparse fieldsets by resource type; an empty list asks for no fields of that type. */
  fields: Record<string, string[]>;
  sort: SortField[];
  page: PageParams;
  /** The root AND group; no filters means no children. */
  filter: FilterGroup;
  /** The values of `extraParameters` that were given. */
  extra: Record<string, RawValue>;
}

export interface ParseQueryOptions {
  /** page[limit] when none is given. */
  defaultLimit: number;
  /** Larger page[limit] values are lowered to this (Drupal caps at 50 the same way). */
  maxLimit: number;
  /** Query parameters the route reads itself (e.g. `q`); they come back in `extra`. */
  extraParameters?: readonly string[];
  /** Any other parameter: 'reject' (a 400, the default) or 'ignore'. */
  unknownParameters?: 'reject' | 'ignore';
}

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]*$/;
/** The largest offset we accept: well inside PostgreSQL's bigint and JavaScript's safe integers. */
export const MAX_OFFSET = 2 ** 40;

/** Flattens a parsed query (flat bracket keys or nested objects) into [key, value] entries in order. */
export function flattenQuery(query: unknown): Array<[string, RawValue]> {
  const out: Array<[string, RawValue]> = [];
  // Inside a nested object an array is a list (`value[]`); at the top a repeated flat key.
  const add = (key: string, value: unknown, nested: boolean) => {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') out.push([key, value]);
    else if (typeof value === 'number' || typeof value === 'boolean') out.push([key, String(value)]);
    else if (Array.isArray(value)) {
      if (value.length === 0) return;
      if (value.every((v) => typeof v === 'string')) out.push([nested ? `${key}[]` : key, value as string[]]);
      else value.forEach((v, i) => add(`${key}[${typeof v === 'object' ? i : ''}]`, v, true));
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v, true);
    }
  };
  if (query && typeof query === 'object') for (const [k, v] of Object.entries(query)) add(k, v, false);
  return out;
}

function single(key: string, value: RawValue): string {
  if (Array.isArray(value)) {
    if (value.length === 1) return value[0] as string;
    throw new JsonApiQueryError(key, `The query parameter ${key} is given more than once.`);
  }
  return value;
}

/** Splits a comma list; empty input is an empty list, an empty item is an error. */
function commaList(key: string, raw: string, what: string): string[] {
  if (raw.trim() === '') return [];
  const parts = raw.split(',').map((s) => s.trim());
  const empty = parts.indexOf('');
  if (empty >= 0) throw new JsonApiQueryError(key, `${key} has an empty ${what} at position ${empty + 1}.`);
  const seen = new Set<string>();
  for (const p of parts) {
    if (seen.has(p)) throw new JsonApiQueryError(key, `${key} names '${p}' twice.`);
    seen.add(p);
  }
  return parts;
}

function parseInclude(key: string, raw: string): string[] {
  const paths = commaList(key, raw, 'relationship path');
  for (const p of paths) {
    if (!isFieldPath(p)) {
      throw new JsonApiQueryError(
        key,
        `'${p}' is not a relationship path; write field names joined by dots, e.g. uid.user_picture.`,
      );
    }
  }
  return paths;
}

function parseSort(key: string, raw: string): SortField[] {
  const seen = new Set<string>();
  return commaList(key, raw, 'sort field').map((part) => {
    const desc = part.startsWith('-');
    const path = desc ? part.slice(1) : part;
    if (!isFieldPath(path)) {
      throw new JsonApiQueryError(
        key,
        `'${part}' is not a sort field; write a field path, with a leading - for descending order.`,
      );
    }
    if (seen.has(path)) throw new JsonApiQueryError(key, `${key} names '${path}' twice.`);
    seen.add(path);
    return { path, direction: desc ? 'DESC' : 'ASC' };
  });
}

/** A whole number of 0 or more written in digits (no exponent, sign or fraction), else a 400. */
export function parseCount(key: string, raw: string): number {
  if (!/^\d{1,16}$/.test(raw)) {
    throw new JsonApiQueryError(key, `${key} must be a whole number of 0 or more, not '${raw}'.`);
  }
  return Number(raw);
}

/** page[offset]: a count up to MAX_OFFSET, else a 400 naming the parameter. */
export function parseOffset(key: string, raw: string): number {
  const offset = parseCount(key, raw);
  if (offset > MAX_OFFSET) throw new JsonApiQueryError(key, `${key} must be at most ${MAX_OFFSET}.`);
  return offset;
}

/** Parses `request.query`; throws JsonApiQueryError (400) on anything it cannot accept. */
export function parseJsonApiQuery(query: unknown, options: ParseQueryOptions): JsonApiQuery {
  const extraAllowed = new Set(options.extraParameters ?? []);
  const result: JsonApiQuery = {
    include: [],
    fields: {},
    sort: [],
    page: { limit: Math.min(options.defaultLimit, options.maxLimit), offset: 0 },
    filter: emptyFilter(),
    extra: {},
  };
  const filterEntries: Array<[string, RawValue]> = [];
  for (const [key, value] of flattenQuery(query)) {
    if (extraAllowed.has(key)) {
      result.extra[key] = value;
    } else if (key === 'include') {
      result.include = parseInclude(key, single(key, value));
    } else if (key === 'sort') {
      result.sort = parseSort(key, single(key, value));
    } else if (key === 'filter' || key.startsWith('filter[')) {
      filterEntries.push([key, value]);
    } else if (key === 'page' || key.startsWith('page[')) {
      const raw = single(key, value);
      if (key === 'page[limit]') result.page.limit = Math.min(parseCount(key, raw), options.maxLimit);
      else if (key === 'page[offset]') result.page.offset = parseOffset(key, raw);
      else
        throw new JsonApiQueryError(
          key,
          `${key} is not a paging parameter; use page[limit] and page[offset].`,
        );
    } else if (key === 'fields' || key.startsWith('fields[')) {
      const type = /^fields\[([^[\]]+)\]$/.exec(key)?.[1];
      if (type === undefined || !NAME.test(type)) {
        throw new JsonApiQueryError(
          key,
          `${key} is not a sparse fieldset; write fields[resource--type]=field,field.`,
        );
      }
      const names = commaList(key, single(key, value), 'field name');
      for (const n of names) {
        if (!NAME.test(n)) throw new JsonApiQueryError(key, `'${n}' is not a field name.`);
      }
      result.fields[type] = names;
    } else if (key === '_format') {
      single(key, value);
    } else if (options.unknownParameters !== 'ignore') {
      if (key === '') throw new JsonApiQueryError(key, 'The query has a parameter without a name.');
      throw new JsonApiQueryError(key, `The query parameter ${key} is not supported here.`);
    }
  }
  if (filterEntries.length) result.filter = parseFilter(filterEntries);
  return result;
}

/**
 * The query-string entries of a parsed query (filter, sort, include, fields, page), e.g. to build
 * links or to call another JSON:API endpoint. `extra` values are appended as they are.
 */
export function serializeJsonApiQuery(query: Partial<JsonApiQuery>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (query.include?.length) out.push(['include', query.include.join(',')]);
  for (const [type, names] of Object.entries(query.fields ?? {}))
    out.push([`fields[${type}]`, names.join(',')]);
  if (query.sort?.length) {
    out.push(['sort', query.sort.map((s) => (s.direction === 'DESC' ? '-' : '') + s.path).join(',')]);
  }
  if (query.filter) out.push(...serializeFilter(query.filter));
  if (query.page) {
    out.push(['page[limit]', String(query.page.limit)]);
    out.push(['page[offset]', String(query.page.offset)]);
  }
  for (const [key, value] of Object.entries(query.extra ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) out.push([key, v]);
  }
  return out;
}
