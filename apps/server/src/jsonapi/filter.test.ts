import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonApiQueryError } from './errors.ts';
import {
  FILTER_OPERATORS,
  LIST_OPERATORS,
  NULL_OPERATORS,
  RANGE_OPERATORS,
  parseFilter,
  serializeFilter,
  type FilterCondition,
  type FilterGroup,
  type FilterNode,
  type FilterOperator,
} from './filter.ts';
import { flattenQuery } from './query.ts';

/** Parses a query string the way the server does: Fastify's own query-string parser. */
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  app.get('/q', async (request) => request.query);
  await app.ready();
});
afterAll(async () => {
  await app.close();
});
async function fastifyQuery(search: string): Promise<unknown> {
  const res = await app.inject(`/q?${search}`);
  return res.json();
}
async function parse(search: string): Promise<FilterGroup> {
  return parseFilter(flattenQuery(await fastifyQuery(search)));
}
async function parameterOf(search: string): Promise<string | undefined> {
  try {
    await parse(search);
  } catch (err) {
    if (err instanceof JsonApiQueryError) return err.parameter;
    throw err;
  }
  return undefined;
}
const cond = (c: Omit<FilterCondition, 'kind'>): FilterCondition => ({ kind: 'condition', ...c });

describe('parseFilter', () => {
  it('reads the shorthand, short and condition forms', async () => {
    const tree = await parse(
      'filter[status]=1&filter[title][value]=a%20b&filter[title][operator]=CONTAINS' +
        '&filter[c][path]=field_category.id&filter[c][value]=x' +
        '&filter[in][condition][path]=id&filter[in][condition][operator]=IN&filter[in][condition][value][]=1&filter[in][condition][value][]=2',
    );
    expect(tree).toEqual({
      kind: 'group',
      id: '@root',
      conjunction: 'AND',
      children: [
        cond({ id: 'status', form: 'shorthand', path: 'status', operator: '=', value: '1' }),
        cond({ id: 'title', form: 'short', path: 'title', operator: 'CONTAINS', value: 'a b' }),
        cond({ id: 'c', form: 'short', path: 'field_category.id', operator: '=', value: 'x' }),
        cond({ id: 'in', form: 'condition', path: 'id', operator: 'IN', value: ['1', '2'] }),
      ],
    });
  });

  it('nests groups by memberOf in the order the client wrote', async () => {
    const tree = await parse(
      'filter[a][condition][path]=x&filter[a][condition][value]=1&filter[a][condition][memberOf]=inner' +
        '&filter[outer][group][conjunction]=or' +
        '&filter[inner][group][conjunction]=AND&filter[inner][group][memberOf]=outer' +
        '&filter[b][condition][path]=y&filter[b][condition][operator]=is%20null&filter[b][condition][memberOf]=outer',
    );
    expect(tree.children).toEqual([
      {
        kind: 'group',
        id: 'outer',
        conjunction: 'OR',
        children: [
          {
            kind: 'group',
            id: 'inner',
            conjunction: 'AND',
            children: [cond({ id: 'a', form: 'condition', path: 'x', operator: '=', value: '1' })],
          },
          cond({ id: 'b', form: 'condition', path: 'y', operator: 'IS NULL', value: null }),
        ],
      },
    ]);
  });

  it('reads indexed list values in index order', async () => {
    const tree = await parse(
      'filter[r][condition][path]=p&filter[r][condition][operator]=BETWEEN' +
        '&filter[r][condition][value][1]=9&filter[r][condition][value][0]=3',
    );
    expect((tree.children[0] as FilterCondition).value).toEqual(['3', '9']);
  });

  it('names the parameter at fault', async () => {
    const cases: Array<[string, string]> = [
      ['filter=1', 'filter'],
      ['filter[]=1', 'filter[]'],
      ['filter[@root][group][conjunction]=AND', 'filter[@root][group][conjunction]'],
      ['filter[a][foo]=1', 'filter[a][foo]'],
      ['filter[a][condition][value]=1', 'filter[a][condition][path]'],
      [
        'filter[a][condition][path]=x&filter[a][condition][operator]=LIKE&filter[a][condition][value]=1',
        'filter[a][condition][operator]',
      ],
      ['filter[a][operator]=%3D%3D&filter[a][value]=1', 'filter[a][operator]'],
      ['filter[a][condition][path]=x', 'filter[a][condition][value]'],
      ['filter[a][condition][path]=x%20y&filter[a][condition][value]=1', 'filter[a][condition][path]'],
      ['filter[a b]=1', 'filter[a b]'],
      ['filter[a]=1&filter[a]=2', 'filter[a]'],
      ['filter[a]=1&filter[a][value]=2', 'filter[a][value]'],
      ['filter[a][value]=1&filter[a][condition][path]=x', 'filter[a][condition][path]'],
      ['filter[a][value]=1&filter[a][value][]=2', 'filter[a][value][]'],
      ['filter[a][value][]=1&filter[a][value][0]=2&filter[a][operator]=IN', 'filter[a][value]'],
      ['filter[a][value][x]=1', 'filter[a][value][x]'],
      ['filter[a][operator]=IS%20NULL&filter[a][value]=1', 'filter[a][value]'],
      ['filter[a][operator]=IN', 'filter[a][value]'],
      ['filter[a][operator]=BETWEEN&filter[a][value][]=1', 'filter[a][value]'],
      ['filter[a][operator]=%3C&filter[a][value][]=1&filter[a][value][]=2', 'filter[a][value]'],
      ['filter[g][group][memberOf]=x', 'filter[g][group][conjunction]'],
      ['filter[g][group][conjunction]=XOR', 'filter[g][group][conjunction]'],
      [
        'filter[a][condition][path]=x&filter[a][condition][value]=1&filter[a][condition][memberOf]=nope',
        'filter[a][condition][memberOf]',
      ],
      [
        'filter[a][condition][path]=x&filter[a][condition][value]=1&filter[b][condition][path]=y&filter[b][condition][value]=1&filter[b][condition][memberOf]=a',
        'filter[b][condition][memberOf]',
      ],
      ['filter[g][group][conjunction]=AND&filter[g][group][memberOf]=g', 'filter[g][group][memberOf]'],
      [
        'filter[g][group][conjunction]=AND&filter[g][group][memberOf]=h&filter[h][group][conjunction]=OR&filter[h][group][memberOf]=g',
        'filter[g][group][memberOf]',
      ],
    ];
    for (const [search, parameter] of cases) expect(await parameterOf(search), search).toBe(parameter);
  });
});

// ---- property: parse(serialize(tree)) gives the tree back ----

const PATH = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,5}(\.[A-Za-z0-9_][A-Za-z0-9_-]{0,5}){0,2}$/;
/** Anything but brackets (which cannot appear in a bracket segment) and the reserved root id. */
const idText = fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/[[\]]/.test(s));
const valueText = fc.string({ maxLength: 8, unit: 'grapheme' });

function valueFor(operator: FilterOperator): fc.Arbitrary<string | string[] | null> {
  if (NULL_OPERATORS.has(operator)) return fc.constant(null);
  if (RANGE_OPERATORS.has(operator)) return fc.tuple(valueText, valueText).map((t) => [...t]);
  if (LIST_OPERATORS.has(operator)) return fc.array(valueText, { minLength: 1, maxLength: 3 });
  return valueText;
}

type Shape =
  | {
      kind: 'condition';
      form: FilterCondition['form'];
      pathIsId: boolean;
      path: string;
      operator: FilterOperator;
      value: string | string[] | null;
      id: string;
    }
  | { kind: 'group'; conjunction: 'AND' | 'OR'; id: string; children: Shape[] };

const conditionShape = (forms: ReadonlyArray<FilterCondition['form']>): fc.Arbitrary<Shape> =>
  fc
    .record({
      form: fc.constantFrom(...forms),
      pathIsId: fc.boolean(),
      path: fc.stringMatching(PATH),
      operator: fc.constantFrom(...FILTER_OPERATORS),
      id: idText,
    })
    .chain((c) => {
      const operator: FilterOperator = c.form === 'shorthand' ? '=' : c.operator;
      return valueFor(operator).map((value) => ({ kind: 'condition' as const, ...c, operator, value }));
    });

const { root } = fc.letrec<{ root: FilterGroup; group: Shape; member: Shape }>((tie) => ({
  // Short forms only at the root, as the syntax allows.
  root: fc
    .array(
      fc.oneof({ depthSize: 'small' }, conditionShape(['shorthand', 'short', 'condition']), tie('group')),
      {
        maxLength: 5,
      },
    )
    .map((children) => assignIds(children)),
  group: fc.record({
    kind: fc.constant('group' as const),
    conjunction: fc.constantFrom('AND' as const, 'OR' as const),
    id: idText,
    children: fc.array(tie('member'), { maxLength: 4 }),
  }),
  member: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    conditionShape(['condition']),
    tie('group'),
  ),
}));

/** Makes every id unique (a numbered prefix) and shorthand ids equal to their path. */
function assignIds(shapes: Shape[]): FilterGroup {
  let n = 0;
  const build = (s: Shape): FilterNode => {
    const i = n++;
    if (s.kind === 'group') {
      return {
        kind: 'group',
        id: `${i}:${s.id}`,
        conjunction: s.conjunction,
        children: s.children.map(build),
      };
    }
    const pathLike = `p${i}_${s.path}`;
    const sameAsId = s.form === 'shorthand' || (s.form === 'short' && s.pathIsId);
    const id = sameAsId ? pathLike : `${i}:${s.id}`;
    return {
      kind: 'condition',
      id,
      form: s.form,
      path: sameAsId ? pathLike : s.path,
      operator: s.operator,
      value: s.value,
    };
  };
  return { kind: 'group', id: '@root', conjunction: 'AND', children: shapes.map(build) };
}

describe('filter round trip (property)', () => {
  it('parse(serialize(tree)) equals the tree, through Fastify query-string parsing', async () => {
    await fc.assert(
      fc.asyncProperty(root, async (tree) => {
        const search = new URLSearchParams(serializeFilter(tree)).toString();
        expect(await parse(search)).toEqual(tree);
      }),
      { numRuns: 300 },
    );
  });
});
