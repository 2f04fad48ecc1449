import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { JsonApiQueryError } from './errors.ts';
import {
  conditionParameter,
  FILTER_OPERATORS,
  NULL_OPERATORS,
  type FilterCondition,
  type FilterGroup,
  type FilterOperator,
} from './filter.ts';
import type { JsonApiQuery, SortField } from './query.ts';

/**
 * What a module declares once per JSON:API resource type: which filter and sort paths exist and
 * the SQL behind each, which relationships may be included, and which sparse fields are known.
 * A parsed query is checked against it here; kysely.ts turns the checked query into SQL. A path
 * or name the description does not list is a 400 naming the parameter, never ignored.
 *
 * `DB` and `TB` are the Kysely database and table types of the module's base query, so that
 * expression targets are type-checked against it (see `ResourceDescriptionFor`).
 */

/** How a filter value is read from the query string and which operators suit it. */
export interface ValueKind {
  /** What a valid value looks like, for error details: "a whole number". */
  expected: string;
  /** The value to bind in SQL, or undefined when `raw` does not fit. */
  parse(raw: string): unknown;
  operators: readonly FilterOperator[];
}

const EQUALITY: readonly FilterOperator[] = ['=', '<>', 'IN', 'NOT IN', 'IS NULL', 'IS NOT NULL'];
const ORDERED: readonly FilterOperator[] = FILTER_OPERATORS.filter(
  (op) => !['STARTS_WITH', 'CONTAINS', 'ENDS_WITH'].includes(op),
);

// A Map, not an object literal: 'constructor' must not parse as a value.
const BOOLEANS = new Map([
  ['1', true],
  ['true', true],
  ['0', false],
  ['false', false],
]);

/**
 * A whole number within a column's range, so that a value the column cannot hold is a 400 naming
 * the range, never the database's "value is out of range" (a 500). Numbers within 2^53 are bound
 * as numbers, larger ones (bigint only) as their exact decimal text.
 */
export function wholeNumber(min: bigint, max: bigint): ValueKind {
  const digits = Math.max(String(min).length, String(max).length);
  return {
    expected: `a whole number from ${min} to ${max}`,
    parse: (raw: string) => {
      if (raw.length > digits || !/^-?\d+$/.test(raw)) return undefined;
      const n = BigInt(raw);
      if (n < min || n > max) return undefined;
      return Number.isSafeInteger(Number(n)) ? Number(n) : String(n);
    },
    operators: ORDERED,
  };
}

/** 9999-12-31T23:59:59Z: the last second a filter may name. */
const MAX_UNIX_SECONDS = 253402300799;

/** The value kinds of the usual columns. */
export const values = {
  text: { expected: 'text', parse: (raw: string) => raw, operators: FILTER_OPERATORS },
  /** PostgreSQL `integer` (int4, `serial`): every id and weight column here. */
  integer: wholeNumber(-2147483648n, 2147483647n),
  /** PostgreSQL `smallint` (int2). */
  smallint: wholeNumber(-32768n, 32767n),
  /** PostgreSQL `bigint` (int8, `bigserial`); values beyond 2^53 are bound as exact decimal text. */
  bigint: wholeNumber(-9223372036854775808n, 9223372036854775807n),
  number: {
    expected: 'a number',
    parse: (raw: string) => (/^-?\d{1,15}(\.\d{1,15})?$/.test(raw) ? Number(raw) : undefined),
    operators: ORDERED,
  },
  /** Drupal sends booleans as 1 / 0. */
  boolean: {
    expected: '1, 0, true or false',
    parse: (raw: string) => BOOLEANS.get(raw.toLowerCase()),
    operators: EQUALITY,
  },
  uuid: {
    expected: 'a UUID',
    parse: (raw: string) =>
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw)
        ? raw.toLowerCase()
        : undefined,
    operators: EQUALITY,
  },
  /**
   * An ISO 8601 date or date-time, or Unix seconds (Drupal's `created` / `changed`), in the years
   * 1 to 9999 (a later date does not travel to the database as a timestamp).
   */
  timestamp: {
    expected: 'an ISO 8601 date-time or Unix seconds, from 0001-01-01 to 9999-12-31',
    parse: (raw: string) => {
      if (/^\d{1,12}$/.test(raw))
        return Number(raw) <= MAX_UNIX_SECONDS ? new Date(Number(raw) * 1000) : undefined;
      const m =
        /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/.exec(
          raw,
        );
      if (!m) return undefined;
      const [year, month, day, hour = 0, minute = 0, second = 0, offH = 0, offM = 0] = m
        .slice(1)
        .map((part) => (part === undefined ? undefined : Number(part)));
      // Every part within its range (no 2024-02-30 read as March 1st, no year 0), as PostgreSQL reads it.
      const monthEnd = new Date(0);
      monthEnd.setUTCFullYear(year ?? 0, month ?? 0, 0); // day 0 of the next month: this month's last day
      if (
        !year ||
        !month ||
        month > 12 ||
        !day ||
        day > monthEnd.getUTCDate() ||
        hour > 23 ||
        minute > 59 ||
        second > 59 ||
        offH > 14 ||
        offM > 59
      )
        return undefined;
      const date = new Date(raw);
      return Number.isNaN(date.getTime()) ||
        date.getTime() > MAX_UNIX_SECONDS * 1000 ||
        date.getUTCFullYear() < 1
        ? undefined
        : date;
    },
    operators: ORDERED,
  },
} satisfies Record<string, ValueKind>;

/** A text column restricted to a fixed set of values. */
export function oneOf(allowed: readonly string[]): ValueKind {
  return {
    expected: `one of ${allowed.join(', ')}`,
    parse: (raw) => (allowed.includes(raw) ? raw : undefined),
    operators: EQUALITY,
  };
}

/** Builds the condition for one value on a target expression; kysely.ts supplies it. */
export type ConditionBuilder = (target: Expression<unknown>) => Expression<SqlBool>;

/**
 * Where a path's value lives:
 * - a column reference such as `'a.title'` (any table joined into the base query);
 * - `{ expression }`: any scalar SQL, e.g. a correlated scalar subquery or a computed column;
 * - `{ exists }`: a to-many relationship. It receives the condition for one related row and
 *   returns an EXISTS over the related rows, so a row matches when any related row does.
 *   Filter only (sorting by a to-many path has no single value).
 */
export type FieldTarget<DB, TB extends keyof DB> =
  | string
  | { expression: (eb: ExpressionBuilder<DB, TB>) => Expression<unknown> }
  | { exists: (eb: ExpressionBuilder<DB, TB>, test: ConditionBuilder) => Expression<SqlBool> };

export interface FieldMapping<DB, TB extends keyof DB> {
  sql: FieldTarget<DB, TB>;
  value: ValueKind;
  /** Defaults to true. */
  filter?: boolean;
  /** Defaults to true, except for `exists` targets. */
  sort?: boolean;
  /** Narrows the value kind's operators. */
  operators?: readonly FilterOperator[];
}

export interface ResourceDescription<DB, TB extends keyof DB> {
  /** The JSON:API type, e.g. `node--article`. */
  type: string;
  /** Filter and sort paths, e.g. `title`, `field_category.id`. */
  fields: Readonly<Record<string, FieldMapping<DB, TB>>>;
  /** A unique column appended to every ORDER BY so that paging is stable, e.g. `'a.id'`. */
  tiebreaker: string;
  /** The order when the query has no `sort`. */
  defaultSort?: readonly SortField[];
  /** Relationship paths that may be included; a listed `a.b` also allows `a`. */
  includes?: readonly string[];
  /** For each resource type in the response (primary and included), its fields that `fields[type]` may name. */
  sparseFields?: Readonly<Record<string, readonly string[]>>;
}

export interface ResolvedCondition<DB, TB extends keyof DB> {
  kind: 'condition';
  path: string;
  target: FieldTarget<DB, TB>;
  operator: FilterOperator;
  /** Parsed with the value kind: one value, a list for IN / BETWEEN, null for IS (NOT) NULL. */
  value: unknown;
}

export interface ResolvedGroup<DB, TB extends keyof DB> {
  kind: 'group';
  conjunction: 'AND' | 'OR';
  children: Array<ResolvedCondition<DB, TB> | ResolvedGroup<DB, TB>>;
}

export interface ResolvedSort<DB, TB extends keyof DB> {
  path: string;
  target: Exclude<FieldTarget<DB, TB>, { exists: unknown }>;
  direction: 'ASC' | 'DESC';
}

function names(list: Iterable<string>): string {
  const all = [...list];
  return all.length ? all.join(', ') : '(none)';
}

function resolveCondition<DB, TB extends keyof DB>(
  resource: ResourceDescription<DB, TB>,
  c: FilterCondition,
): ResolvedCondition<DB, TB> {
  const field = Object.hasOwn(resource.fields, c.path) ? resource.fields[c.path] : undefined;
  if (!field || field.filter === false) {
    const filterable = Object.entries(resource.fields).filter(([, f]) => f.filter !== false);
    throw new JsonApiQueryError(
      conditionParameter(c, 'path'),
      `Filtering ${resource.type} on '${c.path}' is not supported; filterable fields: ${names(filterable.map(([p]) => p))}.`,
    );
  }
  const allowed = field.operators
    ? field.value.operators.filter((op) => field.operators?.includes(op))
    : field.value.operators;
  if (!allowed.includes(c.operator)) {
    throw new JsonApiQueryError(
      conditionParameter(c, 'operator'),
      `The operator ${c.operator} cannot be used on '${c.path}'; use one of ${allowed.join(', ')}.`,
    );
  }
  const parseOne = (raw: string) => {
    const parsed = field.value.parse(raw);
    if (parsed === undefined) {
      throw new JsonApiQueryError(
        conditionParameter(c, 'value'),
        `'${raw}' is not a valid value for '${c.path}': expected ${field.value.expected}.`,
      );
    }
    return parsed;
  };
  let value: unknown = null;
  if (!NULL_OPERATORS.has(c.operator)) {
    value = Array.isArray(c.value) ? c.value.map(parseOne) : parseOne(c.value ?? '');
  }
  return { kind: 'condition', path: c.path, target: field.sql, operator: c.operator, value };
}

/** Checks every condition's path, operator and value against the resource; parses the values. */
export function resolveFilter<DB, TB extends keyof DB>(
  resource: ResourceDescription<DB, TB>,
  group: FilterGroup,
): ResolvedGroup<DB, TB> {
  return {
    kind: 'group',
    conjunction: group.conjunction,
    children: group.children.map((node) =>
      node.kind === 'group' ? resolveFilter(resource, node) : resolveCondition(resource, node),
    ),
  };
}

/** Checks the sort paths (or takes the default sort). The tiebreaker is added by kysely.ts. */
export function resolveSort<DB, TB extends keyof DB>(
  resource: ResourceDescription<DB, TB>,
  sort: readonly SortField[],
): Array<ResolvedSort<DB, TB>> {
  const sortable = Object.entries(resource.fields).filter(
    ([, f]) => f.sort ?? !(typeof f.sql === 'object' && 'exists' in f.sql),
  );
  const byPath = new Map(sortable);
  return (sort.length ? sort : (resource.defaultSort ?? [])).map((s) => {
    const field = byPath.get(s.path);
    if (!field || (typeof field.sql === 'object' && 'exists' in field.sql)) {
      throw new JsonApiQueryError(
        'sort',
        `Sorting ${resource.type} by '${s.path}' is not supported; sortable fields: ${names(byPath.keys())}.`,
      );
    }
    return { path: s.path, target: field.sql, direction: s.direction };
  });
}

/** All includable paths, with the prefixes a listed path implies (`a.b` allows `a`). */
export function includablePaths(resource: { includes?: readonly string[] }): Set<string> {
  const out = new Set<string>();
  for (const path of resource.includes ?? []) {
    const parts = path.split('.');
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'));
  }
  return out;
}

export function checkIncludes(
  resource: { type: string; includes?: readonly string[] },
  include: readonly string[],
): void {
  const allowed = includablePaths(resource);
  for (const path of include) {
    if (!allowed.has(path)) {
      throw new JsonApiQueryError(
        'include',
        `'${path}' cannot be included with ${resource.type}; includable paths: ${names(allowed)}.`,
      );
    }
  }
}

export function checkFields(
  resource: { sparseFields?: Readonly<Record<string, readonly string[]>> },
  fields: Readonly<Record<string, readonly string[]>>,
): void {
  const known = resource.sparseFields ?? {};
  for (const [type, list] of Object.entries(fields)) {
    const parameter = `fields[${type}]`;
    const allowed = Object.hasOwn(known, type) ? known[type] : undefined;
    if (!allowed) {
      throw new JsonApiQueryError(
        parameter,
        `'${type}' is not a resource type of this response; sparse fieldsets apply to: ${names(Object.keys(known))}.`,
      );
    }
    for (const name of list) {
      if (!allowed.includes(name)) {
        throw new JsonApiQueryError(
          parameter,
          `'${name}' is not a field of ${type}; its fields: ${names(allowed)}.`,
        );
      }
    }
  }
}

/** Checks a whole parsed query against the resource: include, fields, sort and filter. */
export function checkQuery<DB, TB extends keyof DB>(
  resource: ResourceDescription<DB, TB>,
  query: JsonApiQuery,
): void {
  checkIncludes(resource, query.include);
  checkFields(resource, query.fields);
  resolveSort(resource, query.sort);
  resolveFilter(resource, query.filter);
}
