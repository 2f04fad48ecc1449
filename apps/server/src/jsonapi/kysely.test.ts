import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Generated,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { applyQuery, countRows, escapeLike } from './kysely.ts';
import { parseJsonApiQuery } from './query.ts';
import { asFastifyQuery } from './test-query.ts';
import { values, type ResourceDescription } from './resource.ts';

/**
 * The SQL the layer builds, compiled without a database (the HTTP test in test/jsonapi.test.ts
 * runs it on PGlite and PostgreSQL): here we pin the shape, parameters and escaping.
 */
interface Db {
  items: { id: Generated<number>; title: string; price: number };
  item_tags: { item_id: number; tag: string };
}
const db = new Kysely<Db>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const resource: ResourceDescription<Db, 'items'> = {
  type: 'item--item',
  tiebreaker: 'items.id',
  fields: {
    title: { sql: 'items.title', value: values.text },
    price: { sql: 'items.price', value: values.number },
    title_length: { sql: { expression: (eb) => eb.fn('length', ['items.title']) }, value: values.integer },
    'tags.name': {
      sql: {
        exists: (eb, test) =>
          eb.exists(
            eb
              .selectFrom('item_tags')
              .whereRef('item_tags.item_id', '=', 'items.id')
              .where(test(sql.ref('item_tags.tag')))
              .select(sql.lit(1).as('one')),
          ),
      },
      value: values.text,
    },
  },
};

function compile(search: string) {
  const query = parseJsonApiQuery(asFastifyQuery(search), {
    defaultLimit: 10,
    maxLimit: 50,
  });
  return applyQuery(db.selectFrom('items').selectAll(), resource, query).compile();
}

describe('escapeLike', () => {
  it('escapes the LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
  });
});

describe('applyQuery', () => {
  it('builds WHERE from the tree, ORDER BY with the tiebreaker, LIMIT and OFFSET', () => {
    const q = compile(
      'filter[g][group][conjunction]=OR' +
        '&filter[a][condition][path]=title&filter[a][condition][operator]=CONTAINS&filter[a][condition][value]=5%_&filter[a][condition][memberOf]=g' +
        '&filter[b][condition][path]=price&filter[b][condition][operator]=BETWEEN&filter[b][condition][value][]=1&filter[b][condition][value][]=2&filter[b][condition][memberOf]=g' +
        '&filter[t][condition][path]=tags.name&filter[t][condition][operator]=IN&filter[t][condition][value][]=x' +
        '&filter[l][condition][path]=title_length&filter[l][condition][operator]=IS NOT NULL' +
        '&sort=-price&page[limit]=3&page[offset]=6',
    );
    expect(q.sql).toBe(
      'select * from "items" where (("items"."title" ilike $1 or "items"."price" between $2 and $3) and exists ' +
        '(select 1 as "one" from "item_tags" where "item_tags"."item_id" = "items"."id" and "item_tags"."tag" in ($4)) ' +
        'and length("items"."title") is not null) order by "items"."price" desc, "items"."id" asc limit $5 offset $6',
    );
    expect(q.parameters).toEqual(['%5\\%\\_%', 1, 2, 'x', 3, 6]);
  });

  it('leaves out WHERE without filters and makes empty groups true (AND) or false (OR)', () => {
    expect(compile('').sql).toBe('select * from "items" order by "items"."id" asc limit $1 offset $2');
    expect(compile('filter[g][group][conjunction]=OR').sql).toContain('where false');
    expect(compile('filter[g][group][conjunction]=AND').sql).toContain('where true');
  });
});

describe('countRows', () => {
  it('counts the filtered query wrapped as a subquery, without order, limit or offset', async () => {
    let compiled: { sql: string; parameters: readonly unknown[] } | undefined;
    const spy = new Kysely<Db>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => ({
          init: async () => {},
          destroy: async () => {},
          beginTransaction: async () => {},
          commitTransaction: async () => {},
          rollbackTransaction: async () => {},
          releaseConnection: async () => {},
          acquireConnection: async () => ({
            executeQuery: async (query) => {
              compiled = query;
              return { rows: [{ count: '7' }] } as never;
            },
            streamQuery: () => {
              throw new Error('not used');
            },
          }),
        }),
        createIntrospector: (k) => new PostgresIntrospector(k),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const qb = spy.selectFrom('items').selectAll().where('price', '>', 1).orderBy('id').limit(2).offset(4);
    expect(await countRows(spy, qb)).toBe(7);
    expect(compiled?.sql).toBe(
      'select count(*) as count from (select * from "items" where "price" > $1) as jsonapi_counted',
    );
    expect(compiled?.parameters).toEqual([1]);
  });
});
