import { JsonApiQueryError } from './errors.ts';

/**
 * Drupal's JSON:API filter syntax as a typed tree, and back.
 *
 * Three spellings of a condition (Drupal's `Filter::expand`):
 *   shorthand  `filter[status]=1`                              path = id, operator '='
 *   short      `filter[title][value]=x&filter[title][operator]=CONTAINS` (optional `[path]`)
 *   condition  `filter[c][condition][path|operator|value|memberOf]`
 * and groups `filter[g][group][conjunction]=AND|OR` with an optional `[memberOf]`. Everything that
 * names no group hangs under the implicit root AND group `@root`. Short forms always belong to the
 * root. List values are `value[]=a&value[]=b` (or `value[0]`, `value[1]`).
 *
 * The parser is purely syntactic: whether a path exists or a value fits its column is decided
 * against a resource description (resource.ts), which reports errors with the same parameter names.
 */

export const FILTER_OPERATORS = [
  '=',
  '<>',
  '>',
  '>=',
  '<',
  '<=',
  'STARTS_WITH',
  'CONTAINS',
  'ENDS_WITH',
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
  'IS NULL',
  'IS NOT NULL',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators taking a list (`value[]`), how many items, and those taking no value at all. */
export const LIST_OPERATORS: ReadonlySet<FilterOperator> = new Set([
  'IN',
  'NOT IN',
  'BETWEEN',
  'NOT BETWEEN',
]);
export const RANGE_OPERATORS: ReadonlySet<FilterOperator> = new Set(['BETWEEN', 'NOT BETWEEN']);
export const NULL_OPERATORS: ReadonlySet<FilterOperator> = new Set(['IS NULL', 'IS NOT NULL']);

export const ROOT_GROUP_ID = '@root';

/** How a condition was spelled; kept so that errors name the parameter the client actually sent. */
export type ConditionForm = 'shorthand' | 'short' | 'condition';

export interface FilterCondition {
  kind: 'condition';
  id: string;
  form: ConditionForm;
  /** A dotted field path, e.g. `title` or `field_category.id`. */
  path: string;
  operator: FilterOperator;
  /** A string for single-value operators, a list for IN / BETWEEN (and their negations), null for IS (NOT) NULL. */
  value: string | string[] | null;
}

export interface FilterGroup {
  kind: 'group';
  id: string;
  conjunction: 'AND' | 'OR';
  children: FilterNode[];
}

export type FilterNode = FilterCondition | FilterGroup;

export function emptyFilter(): FilterGroup {
  return { kind: 'group', id: ROOT_GROUP_ID, conjunction: 'AND', children: [] };
}

/** One query-string value as Fastify hands it over: repeated keys become arrays. */
export type RawValue = string | string[];

/** Field names joined by dots; a name starts with a letter, digit or underscore (JSON:API member names). */
const PATH = /^[A-Za-z0-9_][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_][A-Za-z0-9_-]*)*$/;
const SEGMENTS = /^filter((?:\[[^[\]]*\])+)$/;

export function isFieldPath(path: string): boolean {
  return PATH.test(path);
}

/** The query parameter that carries one part of a condition, for error messages. */
export function conditionParameter(c: FilterCondition, part: 'path' | 'operator' | 'value'): string {
  const base = `filter[${c.id}]`;
  if (c.form === 'condition') return `${base}[condition][${part}]`;
  if (c.form === 'shorthand') return base;
  if (part === 'path') return c.path === c.id ? base : `${base}[path]`;
  return `${base}[${part}]`;
}

interface RawItem {
  id: string;
  order: number;
  /** 'shorthand' | 'short' | 'condition' | 'group', fixed by the first key seen for the id. */
  kind: ConditionForm | 'group' | undefined;
  firstKey: string;
  scalars: Map<string, { key: string; value: string }>;
  list: { key: string; indexed: Map<number, string>; appended: string[] } | undefined;
}

function one(key: string, value: RawValue): string {
  if (Array.isArray(value)) {
    if (value.length === 1) return value[0] as string;
    throw new JsonApiQueryError(key, `The query parameter ${key} is given more than once.`);
  }
  return value;
}

/**
 * Builds the filter tree from the `filter[...]` entries of a flat query (in the order they came).
 * Throws JsonApiQueryError naming the parameter at fault.
 */
export function parseFilter(entries: ReadonlyArray<readonly [string, RawValue]>): FilterGroup {
  const items = new Map<string, RawItem>();
  for (const [key, value] of entries) {
    const match = SEGMENTS.exec(key);
    if (!match) {
      throw new JsonApiQueryError(
        key,
        `${key} is not a filter parameter; write filter[field]=value or filter[id][condition][path|operator|value].`,
      );
    }
    const segments = [...(match[1] as string).matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] as string);
    const id = segments[0] as string;
    if (id === '') throw new JsonApiQueryError(key, `${key} has an empty filter id.`);
    if (id === ROOT_GROUP_ID) throw new JsonApiQueryError(key, `'${ROOT_GROUP_ID}' is a reserved filter id.`);
    let item = items.get(id);
    if (!item) {
      item = { id, order: items.size, kind: undefined, firstKey: key, scalars: new Map(), list: undefined };
      items.set(id, item);
    }
    addEntry(item, key, segments.slice(1), value);
  }
  return buildTree([...items.values()].map(toNode));
}

function addEntry(item: RawItem, key: string, rest: string[], value: RawValue): void {
  const [a, b, c, ...more] = rest;
  let kind: RawItem['kind'];
  let name: string | undefined;
  let listIndex: string | undefined;
  if (a === undefined) {
    kind = 'shorthand';
    name = 'value';
  } else if (
    a === 'condition' &&
    b !== undefined &&
    ['path', 'operator', 'memberOf'].includes(b) &&
    c === undefined
  ) {
    kind = 'condition';
    name = b;
  } else if (a === 'condition' && b === 'value' && more.length === 0) {
    kind = 'condition';
    name = 'value';
    listIndex = c;
  } else if (a === 'group' && (b === 'conjunction' || b === 'memberOf') && c === undefined) {
    kind = 'group';
    name = b;
  } else if ((a === 'path' || a === 'operator') && b === undefined) {
    kind = 'short';
    name = a;
  } else if (a === 'value' && c === undefined) {
    kind = 'short';
    name = 'value';
    listIndex = b;
  } else {
    throw new JsonApiQueryError(
      key,
      `${key} is not a filter parameter; a filter item takes [value], [operator], [path], ` +
        `[condition][path|operator|value|memberOf] or [group][conjunction|memberOf].`,
    );
  }
  if (item.kind !== undefined && item.kind !== kind) {
    const what = (k: RawItem['kind']) =>
      k === 'group' ? 'a group' : k === 'condition' ? 'a condition' : 'a short filter';
    throw new JsonApiQueryError(
      key,
      `${key} makes filter '${item.id}' ${what(kind)}, but ${item.firstKey} already made it ${what(item.kind)}.`,
    );
  }
  if (kind === 'shorthand' && item.kind === 'shorthand') {
    throw new JsonApiQueryError(key, `The query parameter ${key} is given more than once.`);
  }
  item.kind = kind;
  if (name === 'value' && listIndex !== undefined) {
    if (listIndex !== '' && !/^\d{1,6}$/.test(listIndex)) {
      throw new JsonApiQueryError(key, `${key}: a list value is written value[] or value[0], value[1], ...`);
    }
    if (item.scalars.has('value')) {
      throw new JsonApiQueryError(
        key,
        `${key} mixes a single value and a list value for filter '${item.id}'.`,
      );
    }
    item.list ??= { key: key.slice(0, key.lastIndexOf('[')), indexed: new Map(), appended: [] };
    if (listIndex === '') item.list.appended.push(...(Array.isArray(value) ? value : [value]));
    else {
      const index = Number(listIndex);
      if (item.list.indexed.has(index)) {
        throw new JsonApiQueryError(key, `The query parameter ${key} is given more than once.`);
      }
      item.list.indexed.set(index, one(key, value));
    }
    return;
  }
  if (name === 'value' && item.list) {
    throw new JsonApiQueryError(key, `${key} mixes a single value and a list value for filter '${item.id}'.`);
  }
  if (item.scalars.has(name))
    throw new JsonApiQueryError(key, `The query parameter ${key} is given more than once.`);
  item.scalars.set(name, { key, value: one(key, value) });
}

interface PendingNode {
  node: FilterNode;
  order: number;
  memberOf: string;
  memberOfKey: string | undefined;
}

function parseOperator(key: string, raw: string): FilterOperator {
  const normalized = raw.trim().replace(/\s+/g, ' ').toUpperCase();
  const found = FILTER_OPERATORS.find((op) => op === normalized);
  if (!found) {
    throw new JsonApiQueryError(
      key,
      `Unknown filter operator '${raw}'; use one of ${FILTER_OPERATORS.join(', ')}.`,
    );
  }
  return found;
}

function toNode(item: RawItem): PendingNode {
  const base = `filter[${item.id}]`;
  const get = (name: string) => item.scalars.get(name);
  if (item.kind === 'group') {
    const conj = get('conjunction');
    if (!conj) {
      throw new JsonApiQueryError(
        `${base}[group][conjunction]`,
        `Filter group '${item.id}' needs a conjunction: AND or OR.`,
      );
    }
    const conjunction = conj.value.trim().toUpperCase();
    if (conjunction !== 'AND' && conjunction !== 'OR') {
      throw new JsonApiQueryError(
        conj.key,
        `Unknown conjunction '${conj.value}' for filter group '${item.id}'; use AND or OR.`,
      );
    }
    const member = get('memberOf');
    return {
      node: { kind: 'group', id: item.id, conjunction, children: [] },
      order: item.order,
      memberOf: member?.value ?? ROOT_GROUP_ID,
      memberOfKey: member?.key,
    };
  }
  const form = item.kind as ConditionForm;
  const prefix = form === 'condition' ? `${base}[condition]` : base;
  const pathEntry = get('path');
  const path = form === 'condition' ? pathEntry?.value : (pathEntry?.value ?? item.id);
  const pathKey = pathEntry?.key ?? (form === 'condition' ? `${prefix}[path]` : base);
  if (path === undefined) throw new JsonApiQueryError(pathKey, `Filter condition '${item.id}' needs a path.`);
  if (!isFieldPath(path)) {
    throw new JsonApiQueryError(
      pathKey,
      `'${path}' is not a field path; write field names joined by dots, e.g. field_category.id.`,
    );
  }
  const opEntry = get('operator');
  const operator = opEntry ? parseOperator(opEntry.key, opEntry.value) : '=';
  const valueKey = form === 'shorthand' ? base : `${prefix}[value]`;
  const scalar = get('value');
  let list: string[] | undefined;
  if (item.list) {
    const indexed = [...item.list.indexed.entries()].sort((x, y) => x[0] - y[0]).map((e) => e[1]);
    if (indexed.length && item.list.appended.length) {
      throw new JsonApiQueryError(
        item.list.key,
        `${item.list.key} mixes value[] and value[n]; use one of them.`,
      );
    }
    list = indexed.length ? indexed : item.list.appended;
  }
  let value: string | string[] | null;
  if (NULL_OPERATORS.has(operator)) {
    if (scalar || list) throw new JsonApiQueryError(valueKey, `The operator ${operator} takes no value.`);
    value = null;
  } else if (LIST_OPERATORS.has(operator)) {
    value = list ?? (scalar ? [scalar.value] : []);
    if (RANGE_OPERATORS.has(operator) && value.length !== 2) {
      throw new JsonApiQueryError(
        valueKey,
        `The operator ${operator} needs exactly two values (value[]=low&value[]=high), got ${value.length}.`,
      );
    }
    if (value.length === 0)
      throw new JsonApiQueryError(
        valueKey,
        `The operator ${operator} needs at least one value (value[]=...).`,
      );
  } else {
    if (list)
      throw new JsonApiQueryError(valueKey, `The operator ${operator} takes a single value, not a list.`);
    if (!scalar)
      throw new JsonApiQueryError(
        valueKey,
        `Filter condition '${item.id}' needs a value for the operator ${operator}.`,
      );
    value = scalar.value;
  }
  const member = get('memberOf');
  return {
    node: { kind: 'condition', id: item.id, form, path, operator, value },
    order: item.order,
    memberOf: member?.value ?? ROOT_GROUP_ID,
    memberOfKey: member?.key,
  };
}

function buildTree(pending: PendingNode[]): FilterGroup {
  const root = emptyFilter();
  const groups = new Map<string, { group: FilterGroup; pending: PendingNode }>();
  for (const p of pending) if (p.node.kind === 'group') groups.set(p.node.id, { group: p.node, pending: p });
  for (const p of pending) {
    if (p.memberOf === ROOT_GROUP_ID) continue;
    const key = p.memberOfKey as string;
    if (!groups.has(p.memberOf)) {
      const isCondition = pending.some((q) => q.node.id === p.memberOf);
      throw new JsonApiQueryError(
        key,
        isCondition
          ? `Filter '${p.memberOf}' named in ${key} is a condition, not a group.`
          : `There is no filter group '${p.memberOf}' (named in ${key}).`,
      );
    }
    // Follow the memberOf chain upwards: reaching this node again means a cycle.
    let at: string = p.memberOf;
    const seen = new Set<string>();
    while (at !== ROOT_GROUP_ID) {
      if (at === p.node.id || seen.has(at)) {
        throw new JsonApiQueryError(key, `Filter group '${p.node.id}' is (indirectly) a member of itself.`);
      }
      seen.add(at);
      at = groups.get(at)?.pending.memberOf ?? ROOT_GROUP_ID;
    }
  }
  // `pending` is in order of first appearance, so children keep the order the client wrote.
  for (const p of pending) {
    const parent =
      p.memberOf === ROOT_GROUP_ID ? root : (groups.get(p.memberOf) as { group: FilterGroup }).group;
    parent.children.push(p.node);
  }
  return root;
}

/**
 * The query-string entries that parse back into `root` (a list value becomes repeated `value[]`).
 * Used to build links and by the round-trip property test.
 */
export function serializeFilter(root: FilterGroup): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const walk = (node: FilterNode, parent: string) => {
    const base = `filter[${node.id}]`;
    if (node.kind === 'group') {
      out.push([`${base}[group][conjunction]`, node.conjunction]);
      if (parent !== ROOT_GROUP_ID) out.push([`${base}[group][memberOf]`, parent]);
      for (const child of node.children) walk(child, node.id);
      return;
    }
    if (node.form === 'shorthand') {
      out.push([base, node.value as string]);
      return;
    }
    const prefix = node.form === 'condition' ? `${base}[condition]` : base;
    if (node.form === 'condition' || node.path !== node.id) out.push([`${prefix}[path]`, node.path]);
    out.push([`${prefix}[operator]`, node.operator]);
    if (Array.isArray(node.value)) for (const v of node.value) out.push([`${prefix}[value][]`, v]);
    else if (node.value !== null) out.push([`${prefix}[value]`, node.value]);
    if (node.form === 'condition' && parent !== ROOT_GROUP_ID) out.push([`${prefix}[memberOf]`, parent]);
  };
  for (const child of root.children) walk(child, ROOT_GROUP_ID);
  return out;
}
