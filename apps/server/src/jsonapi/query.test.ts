import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonApiQueryError } from './errors.ts';
import { FILTER_OPERATORS, type FilterNode } from './filter.ts';
import { asFastifyQuery } from './test-query.ts';
import {
  MAX_OFFSET,
  parseJsonApiQuery,
  serializeJsonApiQuery,
  type JsonApiQuery,
  type ParseQueryOptions,
} from './query.ts';
import {
  resolveFilter,
  resolveSort,
  values,
  type FieldMapping,
  type ResourceDescription,
} from './resource.ts';

const OPTIONS: ParseQueryOptions = { defaultLimit: 20, maxLimit: 50 };

function parameterOf(query: unknown, options: ParseQueryOptions = OPTIONS): string | undefined {
  try {
    parseJsonApiQuery(query, options);
  } catch (err) {
    if (err instanceof JsonApiQueryError) return err.parameter;
    throw err;
  }
  return undefined;
}

describe('parseJsonApiQuery', () => {
  it('reads include, fields, sort and page', () => {
    const q = parseJsonApiQuery(
      {
        include: 'field_image, uid.user_picture',
        'fields[file--file]': 'uri,url',
        'fields[node--article]': '',
        sort: '-changed,title,field_category.name',
        'page[limit]': '5',
        'page[offset]': '10',
        _format: 'json',
      },
      OPTIONS,
    );
    expect(q.include).toEqual(['field_image', 'uid.user_picture']);
    expect(q.fields).toEqual({ 'file--file': ['uri', 'url'], 'node--article': [] });
    expect(q.sort).toEqual([
      { path: 'changed', direction: 'DESC' },
      { path: 'title', direction: 'ASC' },
      { path: 'field_category.name', direction: 'ASC' },
    ]);
    expect(q.page).toEqual({ limit: 5, offset: 10 });
    expect(q.filter.children).toEqual([]);
  });

  it('accepts nested objects from a qs-style parser like flat bracket keys', () => {
    const flat = parseJsonApiQuery(
      {
        'filter[a][condition][path]': 'x',
        'filter[a][condition][value][]': ['1', '2'],
        'filter[a][condition][operator]': 'IN',
        'page[limit]': '3',
      },
      OPTIONS,
    );
    const nested = parseJsonApiQuery(
      {
        filter: { a: { condition: { path: 'x', value: ['1', '2'], operator: 'IN' } } },
        page: { limit: '3' },
      },
      OPTIONS,
    );
    expect(nested).toEqual(flat);
  });

  it('leaves other parameters to the caller', () => {
    expect(parameterOf({ q: 'x' })).toBe('q');
    expect(parseJsonApiQuery({ q: 'x' }, { ...OPTIONS, extraParameters: ['q'] }).extra).toEqual({ q: 'x' });
    expect(parseJsonApiQuery({ q: 'x' }, { ...OPTIONS, unknownParameters: 'ignore' }).extra).toEqual({});
    // Our own families stay strict even when unknown parameters are ignored.
    expect(parameterOf({ 'page[size]': '1' }, { ...OPTIONS, unknownParameters: 'ignore' })).toBe(
      'page[size]',
    );
  });

  it('names the parameter at fault', () => {
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{ include: 'a,,b' }, 'include'],
      [{ include: 'a b' }, 'include'],
      [{ include: ['a', 'b'] }, 'include'],
      [{ sort: '-' }, 'sort'],
      [{ sort: 'a,-a' }, 'sort'],
      [{ sort: '--a' }, 'sort'],
      [{ 'page[limit]': '-1' }, 'page[limit]'],
      [{ 'page[limit]': '1.5' }, 'page[limit]'],
      [{ 'page[limit]': '' }, 'page[limit]'],
      [{ 'page[offset]': '1e3' }, 'page[offset]'],
      [{ 'page[offset]': String(MAX_OFFSET + 1) }, 'page[offset]'],
      [{ page: '2' }, 'page'],
      [{ fields: 'a' }, 'fields'],
      [{ 'fields[a][b]': 'a' }, 'fields[a][b]'],
      [{ 'fields[t]': 'a,b c' }, 'fields[t]'],
      [
        { 'filter[x][condition][path]': 'a', 'filter[x][condition][operator]': 'NOPE' },
        'filter[x][condition][operator]',
      ],
      [{ 'filter[x][condition][operator]': 'IN' }, 'filter[x][condition][path]'],
      [{ '': 'x' }, ''],
    ];
    for (const [query, parameter] of cases) expect(parameterOf(query), JSON.stringify(query)).toBe(parameter);
  });
});

describe('paging invariants (property)', () => {
  const options = fc.record({ defaultLimit: fc.nat(100), maxLimit: fc.nat(100) });

  it('a whole-number limit is kept up to the maximum and capped above it; offsets are kept', () => {
    fc.assert(
      fc.property(options, fc.nat(10_000), fc.nat(1_000_000), fc.nat(3), (opts, limit, offset, zeros) => {
        const pad = '0'.repeat(zeros);
        const q = parseJsonApiQuery({ 'page[limit]': pad + limit, 'page[offset]': pad + offset }, opts);
        expect(q.page).toEqual({ limit: Math.min(limit, opts.maxLimit), offset });
      }),
    );
  });

  it('without page parameters the default limit (within the maximum) and offset 0 apply', () => {
    fc.assert(
      fc.property(options, (opts) => {
        const q = parseJsonApiQuery({}, opts);
        expect(q.page).toEqual({ limit: Math.min(opts.defaultLimit, opts.maxLimit), offset: 0 });
      }),
    );
  });

  it('anything but a whole number is a 400 naming the page parameter', () => {
    const notWhole = fc.oneof(
      fc.integer({ max: -1 }).map(String),
      fc.double({ noInteger: true }).map(String),
      fc.string().filter((s) => !/^\d+$/.test(s)),
    );
    fc.assert(
      fc.property(fc.constantFrom('page[limit]', 'page[offset]'), notWhole, (key, raw) => {
        expect(parameterOf({ [key]: raw })).toBe(key);
      }),
    );
  });
});

// ---- property: garbage never escapes as anything but a JsonApiQueryError ----

const token = fc.constantFrom(
  'filter',
  'page',
  'sort',
  'include',
  'fields',
  'condition',
  'group',
  'value',
  'operator',
  'path',
  'memberOf',
  'conjunction',
  'limit',
  'offset',
  '@root',
  '',
  'a',
  'b',
  'g',
  'node--x',
  '0',
  '1',
);
const key = fc
  .tuple(
    fc.oneof(token, fc.string({ maxLength: 4 })),
    fc.array(fc.oneof(token, fc.string({ maxLength: 3 })), { maxLength: 5 }),
  )
  .map(([head, segments]) => head + segments.map((s) => `[${s}]`).join(''));
const rawValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(...FILTER_OPERATORS, 'AND', 'OR', 'a', 'g', '-a,b', 'a.b', '10', '-1', ''),
);
const garbage = fc.dictionary(key, fc.oneof(rawValue, fc.array(rawValue, { maxLength: 3 })), { maxKeys: 8 });
const nested = fc.dictionary(
  fc.oneof(token, fc.string({ maxLength: 3 })),
  fc.oneof(rawValue, fc.dictionary(token, fc.oneof(rawValue, fc.dictionary(token, rawValue)))),
);

/** A resource where every path of the query exists and takes any text, so only syntax errors remain. */
function anything(q: JsonApiQuery): ResourceDescription<unknown, never> {
  const fields: Record<string, FieldMapping<unknown, never>> = {};
  const walk = (node: FilterNode) => {
    if (node.kind === 'group') node.children.forEach(walk);
    else fields[node.path] = { sql: 'c', value: values.text };
  };
  walk(q.filter);
  for (const s of q.sort) fields[s.path] = { sql: 'c', value: values.text };
  return { type: 'x--x', tiebreaker: 'id', fields };
}
const strict: ResourceDescription<unknown, never> = {
  type: 'x--x',
  tiebreaker: 'id',
  fields: { a: { sql: 'a', value: values.integer }, b: { sql: 'b', value: values.boolean } },
};

describe('garbage queries (property)', () => {
  it('either parse or throw JsonApiQueryError with a parameter, also when checked against a resource', () => {
    fc.assert(
      fc.property(fc.oneof(garbage, nested), options(), (query, opts) => {
        try {
          const q = parseJsonApiQuery(query, opts);
          expect(q.page.limit).toBeLessThanOrEqual(opts.maxLimit);
          expect(q.page.offset).toBeGreaterThanOrEqual(0);
          for (const resource of [strict, anything(q)]) {
            try {
              resolveFilter(resource, q.filter);
              resolveSort(resource, q.sort);
            } catch (err) {
              if (!(err instanceof JsonApiQueryError)) throw err;
            }
          }
        } catch (err) {
          expect(err).toBeInstanceOf(JsonApiQueryError);
          expect((err as JsonApiQueryError).status).toBe(400);
          expect(typeof (err as JsonApiQueryError).parameter).toBe('string');
          expect((err as JsonApiQueryError).message.length).toBeGreaterThan(5);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

function options() {
  return fc.record({
    defaultLimit: fc.nat(60),
    maxLimit: fc.nat(60),
    unknownParameters: fc.constantFrom('reject' as const, 'ignore' as const),
  });
}

describe('serializeJsonApiQuery', () => {
  it('round-trips a whole query', () => {
    const search =
      'include=a,b.c&fields[t--t]=x,y&sort=-a,b&page[limit]=7&page[offset]=14&filter[s]=1' +
      '&filter[g][group][conjunction]=OR&filter[c][condition][path]=p&filter[c][condition][operator]=IN' +
      '&filter[c][condition][value][]=1&filter[c][condition][memberOf]=g';
    const parsedOnce = parseJsonApiQuery(asFastifyQuery(search), OPTIONS);
    const again = new URLSearchParams(serializeJsonApiQuery(parsedOnce)).toString();
    expect(parseJsonApiQuery(asFastifyQuery(again), OPTIONS)).toEqual(parsedOnce);
  });
});
