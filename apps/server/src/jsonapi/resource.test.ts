import { describe, expect, it } from 'vitest';
import { JsonApiQueryError } from './errors.ts';
import { parseJsonApiQuery } from './query.ts';
import { asFastifyQuery } from './test-query.ts';
import {
  checkFields,
  checkIncludes,
  checkQuery,
  includablePaths,
  oneOf,
  resolveFilter,
  resolveSort,
  values,
  type ResourceDescription,
} from './resource.ts';

const resource: ResourceDescription<unknown, never> = {
  type: 'node--article',
  tiebreaker: 'a.id',
  defaultSort: [{ path: 'created', direction: 'DESC' }],
  fields: {
    title: { sql: 'a.title', value: values.text },
    status: { sql: 'a.status', value: values.boolean },
    created: { sql: 'a.created', value: values.timestamp },
    nid: { sql: 'a.id', value: values.integer, operators: ['=', 'IN'] },
    body: { sql: 'a.body', value: values.text, sort: false },
    secret: { sql: 'a.secret', value: values.text, filter: false },
    state: { sql: 'a.state', value: oneOf(['draft', 'published']) },
    'field_tags.id': { sql: { exists: (_eb, test) => test(sql('t.uuid')) }, value: values.uuid },
  },
  includes: ['field_image', 'uid.user_picture'],
  sparseFields: { 'node--article': ['title', 'body'], 'file--file': ['uri', 'url'] },
};
// A stand-in expression for the exists target: resolution never builds SQL.
function sql(ref: string) {
  return { toOperationNode: () => ({ kind: 'RawNode', ref }) } as never;
}

function fails(search: string): { parameter: string | undefined; message: string } {
  const query = parseJsonApiQuery(asFastifyQuery(search), {
    defaultLimit: 5,
    maxLimit: 50,
  });
  try {
    checkQuery(resource, query);
  } catch (err) {
    if (err instanceof JsonApiQueryError) return { parameter: err.parameter, message: err.message };
    throw err;
  }
  throw new Error(`no error for ${search}`);
}

describe('value kinds', () => {
  it('parse what fits and refuse the rest', () => {
    expect(values.integer.parse('-12')).toBe(-12);
    expect(values.integer.parse('1.5')).toBeUndefined();
    expect(values.number.parse('1.5')).toBe(1.5);
    expect(values.number.parse('1e5')).toBeUndefined();
    expect(values.boolean.parse('1')).toBe(true);
    expect(values.boolean.parse('FALSE')).toBe(false);
    expect(values.boolean.parse('yes')).toBeUndefined();
    expect(values.boolean.parse('constructor')).toBeUndefined();
    expect(values.uuid.parse('0F8FAD5B-D9CB-469F-A165-70867728950E')).toBe(
      '0f8fad5b-d9cb-469f-a165-70867728950e',
    );
    expect(values.uuid.parse('x')).toBeUndefined();
    expect(values.timestamp.parse('1700000000')).toEqual(new Date(1_700_000_000_000));
    expect(values.timestamp.parse('2024-02-03')).toEqual(new Date('2024-02-03'));
    expect(values.timestamp.parse('2024-02-03T04:05:06+02:00')).toEqual(new Date('2024-02-03T02:05:06Z'));
    expect(values.timestamp.parse('2024-13-03')).toBeUndefined();
    expect(values.timestamp.parse('yesterday')).toBeUndefined();
    expect(oneOf(['a']).parse('b')).toBeUndefined();
  });

  it('keep whole numbers within their column', () => {
    expect(values.integer.parse('2147483647')).toBe(2147483647);
    expect(values.integer.parse('-2147483648')).toBe(-2147483648);
    for (const raw of ['2147483648', '-2147483649', '99999999999999999999', '1e3', ' 1', '+1', ''])
      expect(values.integer.parse(raw), raw).toBeUndefined();
    expect(values.integer.expected).toBe('a whole number from -2147483648 to 2147483647');
    expect(values.smallint.parse('32767')).toBe(32767);
    expect(values.smallint.parse('32768')).toBeUndefined();
    expect(values.bigint.parse('9223372036854775807')).toBe('9223372036854775807');
    expect(values.bigint.parse('-9223372036854775808')).toBe('-9223372036854775808');
    expect(values.bigint.parse('9007199254740991')).toBe(9007199254740991);
    expect(values.bigint.parse('9223372036854775808')).toBeUndefined();
    expect(
      fails(
        'filter[n][condition][path]=nid&filter[n][condition][operator]=IN&filter[n][condition][value][]=2147483648',
      ),
    ).toEqual({
      parameter: 'filter[n][condition][value]',
      message:
        "'2147483648' is not a valid value for 'nid': expected a whole number from -2147483648 to 2147483647.",
    });
  });

  it('refuse dates the calendar does not have', () => {
    for (const raw of [
      '2024-02-30',
      '2023-02-29',
      '0000-01-01',
      '2024-02-03T24:00',
      '2024-02-03T23:59:60',
      '2024-02-03T00:00+99:00',
    ])
      expect(values.timestamp.parse(raw), raw).toBeUndefined();
    for (const raw of ['9999-12-31T23:59:59-00:01', '253402300800', '0001-01-01T00:00+00:01'])
      expect(values.timestamp.parse(raw), raw).toBeUndefined();
    expect(values.timestamp.parse('253402300799')).toEqual(new Date('9999-12-31T23:59:59Z'));
    expect(values.timestamp.parse('2024-02-29')).toEqual(new Date('2024-02-29T00:00:00Z'));
  });
});

describe('checking a query against a resource', () => {
  it('resolves paths, operators and parsed values', () => {
    const q = parseJsonApiQuery(
      {
        'filter[status]': '1',
        'filter[n][condition][path]': 'nid',
        'filter[n][condition][operator]': 'IN',
        'filter[n][condition][value][]': ['1', '2'],
        sort: '-title',
      },
      { defaultLimit: 5, maxLimit: 50 },
    );
    const filter = resolveFilter(resource, q.filter);
    expect(filter.children).toMatchObject([
      { kind: 'condition', path: 'status', target: 'a.status', operator: '=', value: true },
      { kind: 'condition', path: 'nid', target: 'a.id', operator: 'IN', value: [1, 2] },
    ]);
    expect(resolveSort(resource, q.sort)).toEqual([{ path: 'title', target: 'a.title', direction: 'DESC' }]);
    expect(resolveSort(resource, [])).toEqual([{ path: 'created', target: 'a.created', direction: 'DESC' }]);
  });

  it('names the parameter and says what is allowed', () => {
    expect(fails('filter[nope]=1')).toEqual({
      parameter: 'filter[nope]',
      message:
        "Filtering node--article on 'nope' is not supported; filterable fields: title, status, created, nid, body, state, field_tags.id.",
    });
    expect(fails('filter[secret]=1').parameter).toBe('filter[secret]');
    expect(fails('filter[x][path]=nope&filter[x][value]=1').parameter).toBe('filter[x][path]');
    expect(fails('filter[x][condition][path]=nope&filter[x][condition][value]=1').parameter).toBe(
      'filter[x][condition][path]',
    );
    expect(fails('filter[status][value]=1&filter[status][operator]=CONTAINS')).toEqual({
      parameter: 'filter[status][operator]',
      message:
        "The operator CONTAINS cannot be used on 'status'; use one of =, <>, IN, NOT IN, IS NULL, IS NOT NULL.",
    });
    expect(fails('filter[nid][value]=1&filter[nid][operator]=<>').message).toContain('use one of =, IN.');
    expect(fails('filter[status]=maybe')).toEqual({
      parameter: 'filter[status]',
      message: "'maybe' is not a valid value for 'status': expected 1, 0, true or false.",
    });
    expect(fails('filter[s][condition][path]=state&filter[s][condition][value]=gone').parameter).toBe(
      'filter[s][condition][value]',
    );
    expect(
      fails(
        'filter[n][condition][path]=nid&filter[n][condition][operator]=IN&filter[n][condition][value][]=1&filter[n][condition][value][]=x',
      ).parameter,
    ).toBe('filter[n][condition][value]');
    expect(fails('sort=body')).toEqual({
      parameter: 'sort',
      message:
        "Sorting node--article by 'body' is not supported; sortable fields: title, status, created, nid, secret, state.",
    });
    expect(fails('sort=field_tags.id').parameter).toBe('sort');
    expect(fails('include=owner').parameter).toBe('include');
    expect(fails('fields[user--user]=name')).toEqual({
      parameter: 'fields[user--user]',
      message:
        "'user--user' is not a resource type of this response; sparse fieldsets apply to: node--article, file--file.",
    });
    expect(fails('fields[file--file]=uri,secret').parameter).toBe('fields[file--file]');
  });

  it('allows the prefixes of an includable path', () => {
    expect([...includablePaths(resource)]).toEqual(['field_image', 'uid', 'uid.user_picture']);
    expect(() => checkIncludes(resource, ['uid', 'uid.user_picture', 'field_image'])).not.toThrow();
    expect(() => checkIncludes({ type: 't' }, ['a'])).toThrow(
      "'a' cannot be included with t; includable paths: (none).",
    );
    expect(() => checkFields({}, { t: [] })).toThrow(JsonApiQueryError);
  });
});
