import type { FastifyInstance } from 'fastify';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  collectionDocument,
  requestUrl,
  sendDocument,
  type ResourceObject,
} from '../src/jsonapi/document.ts';
import { fetchCollection, type ResourceDescriptionFor } from '../src/jsonapi/kysely.ts';
import { parseJsonApiQuery } from '../src/jsonapi/query.ts';
import { values } from '../src/jsonapi/resource.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The JSON:API layer end to end: a test-only route over a table created here, queried through
 * real HTTP, on PGlite and (server-postgres project) PostgreSQL.
 */

interface WidgetsTable {
  id: Generated<number>;
  title: string;
  status: number;
  price: number;
  category: string | null;
  created_at: Date;
}
interface WidgetTagsTable {
  widget_id: number;
  tag: string;
}
type TestDb = {
  jsonapi_widgets: WidgetsTable;
  jsonapi_widget_tags: WidgetTagsTable;
};

const base = (db: Kysely<TestDb>) => db.selectFrom('jsonapi_widgets as w').selectAll('w');

const widgetResource: ResourceDescriptionFor<ReturnType<typeof base>> = {
  type: 'widget--widget',
  tiebreaker: 'w.id',
  defaultSort: [{ path: 'id', direction: 'ASC' }],
  fields: {
    id: { sql: 'w.id', value: values.integer },
    title: { sql: 'w.title', value: values.text },
    status: { sql: 'w.status', value: values.integer },
    price: { sql: 'w.price', value: values.number },
    created: { sql: 'w.created_at', value: values.timestamp },
    'field_category.id': { sql: 'w.category', value: values.text },
    // A computed column: the title's length.
    title_length: { sql: { expression: (eb) => eb.fn('length', ['w.title']) }, value: values.integer },
    // A to-many relationship: a widget matches when any of its tags does.
    'tags.name': {
      sql: {
        exists: (eb, test) =>
          eb.exists(
            eb
              .selectFrom('jsonapi_widget_tags as t')
              .whereRef('t.widget_id', '=', 'w.id')
              .where(test(sql.ref('t.tag')))
              .select(sql.lit(1).as('one')),
          ),
      },
      value: values.text,
    },
  },
  includes: ['field_category'],
  sparseFields: {
    'widget--widget': ['title', 'status', 'price', 'field_category'],
    'category--category': ['name'],
  },
};

const WIDGETS = [
  { title: 'Alpha', status: 1, price: 10, category: 'tools', tags: ['red'] },
  { title: 'beta 50%', status: 0, price: 20, category: null, tags: ['blue'] },
  { title: 'Gamma_ray', status: 1, price: 30, category: 'toys', tags: ['red', 'blue'] },
  { title: 'alphabet', status: 1, price: 40, category: 'tools', tags: [] },
  { title: 'Delta', status: 0, price: 50, category: 'toys', tags: [] },
  { title: 'Epsilon\\', status: 1, price: 60, category: null, tags: ['green'] },
];

function registerRoute(app: FastifyInstance) {
  app.get('/test/jsonapi/widgets', async (request, reply) => {
    const db = app.db.withTables<TestDb>() as unknown as Kysely<TestDb>;
    const query = parseJsonApiQuery(request.query, { defaultLimit: 3, maxLimit: 4 });
    const { rows, count } = await fetchCollection(db, base(db), widgetResource, query);
    const data: ResourceObject[] = rows.map((w) => ({
      type: 'widget--widget',
      id: String(w.id),
      attributes: { title: w.title, status: w.status, price: Number(w.price) },
      relationships: {
        field_category: { data: w.category ? { type: 'category--category', id: w.category } : null },
      },
    }));
    const included = query.include.includes('field_category')
      ? rows
          .filter((w) => w.category)
          .map((w) => ({
            type: 'category--category',
            id: w.category as string,
            attributes: { name: w.category },
          }))
      : undefined;
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data,
        count,
        page: query.page,
        included,
        fields: query.fields,
      }),
    );
  });
}

describe('JSON:API layer over real HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Demo content is not needed here; importing it would only slow the start.
    t = await startTestApp({ IMPORT_CONTENT: 'false' }, registerRoute);
    const db = t.app.db.withTables<TestDb>() as unknown as Kysely<TestDb>;
    await sql`create table jsonapi_widgets (
      id serial primary key, title text not null, status integer not null, price numeric not null,
      category text, created_at timestamptz not null)`.execute(db);
    await sql`create table jsonapi_widget_tags (widget_id integer not null, tag text not null)`.execute(db);
    for (const [i, w] of WIDGETS.entries()) {
      const { id } = await db
        .insertInto('jsonapi_widgets')
        .values({
          title: w.title,
          status: w.status,
          price: w.price,
          category: w.category,
          created_at: new Date(Date.UTC(2024, 0, i + 1)),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const tag of w.tags)
        await db.insertInto('jsonapi_widget_tags').values({ widget_id: id, tag }).execute();
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function get(query: string) {
    const res = await fetch(`${t.baseUrl}/test/jsonapi/widgets?${query}`);
    return { res, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
  }
  async function ids(query: string): Promise<number[]> {
    const { res, body } = await get(`${query}&page[limit]=4`);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.meta.count).toBeLessThanOrEqual(4);
    return (body.data as Array<{ id: string }>).map((d) => Number(d.id));
  }

  it('filters in the short forms', async () => {
    expect(await ids('filter[status]=1')).toEqual([1, 3, 4, 6]);
    expect(await ids('filter[status][value]=0')).toEqual([2, 5]);
    expect(await ids('filter[title][value]=ALPHA&filter[title][operator]=STARTS_WITH')).toEqual([1, 4]);
    expect(await ids('filter[cat][path]=field_category.id&filter[cat][value]=toys')).toEqual([3, 5]);
    expect(await ids('filter[field_category.id]=toys')).toEqual([3, 5]);
  });

  it('filters in the condition form with every kind of operator', async () => {
    const c = (path: string, op: string, ...vals: string[]) =>
      `filter[c][condition][path]=${path}&filter[c][condition][operator]=${encodeURIComponent(op)}` +
      vals
        .map(
          (v) =>
            `&filter[c][condition][value]${['IN', 'NOT IN', 'BETWEEN', 'NOT BETWEEN'].includes(op) ? '[]' : ''}=${encodeURIComponent(v)}`,
        )
        .join('');
    expect(await ids(c('title', 'CONTAINS', 'alpha'))).toEqual([1, 4]);
    expect(await ids(c('title', 'ENDS_WITH', 'RAY'))).toEqual([3]);
    // Wildcards in the text match literally.
    expect(await ids(c('title', 'CONTAINS', '%'))).toEqual([2]);
    expect(await ids(c('title', 'CONTAINS', '_'))).toEqual([3]);
    expect(await ids(c('title', 'ENDS_WITH', '\\'))).toEqual([6]);
    expect(await ids(c('price', '>', '40'))).toEqual([5, 6]);
    expect(await ids(c('price', '<=', '20'))).toEqual([1, 2]);
    expect(
      await ids(c('price', '<>', '10') + '&filter[s][condition][path]=status&filter[s][condition][value]=1'),
    ).toEqual([3, 4, 6]);
    expect(await ids(c('id', 'IN', '2', '5'))).toEqual([2, 5]);
    expect(await ids(c('id', 'NOT IN', '1', '2', '3'))).toEqual([4, 5, 6]);
    expect(await ids(c('price', 'BETWEEN', '20', '40'))).toEqual([2, 3, 4]);
    expect(await ids(c('price', 'NOT BETWEEN', '20', '50'))).toEqual([1, 6]);
    expect(await ids(c('field_category.id', 'IS NULL'))).toEqual([2, 6]);
    expect(await ids(c('created', '>=', '2024-01-05'))).toEqual([5, 6]);
    expect(await ids(c('title_length', '=', '5'))).toEqual([1, 5]);
    expect(await ids(c('tags.name', '=', 'red'))).toEqual([1, 3]);
    expect(await ids(c('tags.name', 'IN', 'blue', 'green'))).toEqual([2, 3, 6]);
  });

  it('combines conditions in AND / OR groups with memberOf', async () => {
    // status = 1 AND (category = tools OR category IS NULL)
    const q = [
      'filter[s][condition][path]=status&filter[s][condition][value]=1',
      'filter[g][group][conjunction]=OR',
      'filter[a][condition][path]=field_category.id&filter[a][condition][value]=tools&filter[a][condition][memberOf]=g',
      'filter[b][condition][path]=field_category.id&filter[b][condition][operator]=IS%20NULL&filter[b][condition][memberOf]=g',
    ].join('&');
    expect(await ids(q)).toEqual([1, 4, 6]);
    // (price < 20 OR (status = 0 AND title CONTAINS 'del'))
    const nested = [
      'filter[or][group][conjunction]=OR',
      'filter[and][group][conjunction]=AND&filter[and][group][memberOf]=or',
      'filter[p][condition][path]=price&filter[p][condition][operator]=<&filter[p][condition][value]=20&filter[p][condition][memberOf]=or',
      'filter[s][condition][path]=status&filter[s][condition][value]=0&filter[s][condition][memberOf]=and',
      'filter[t][condition][path]=title&filter[t][condition][operator]=CONTAINS&filter[t][condition][value]=del&filter[t][condition][memberOf]=and',
    ].join('&');
    expect(await ids(nested)).toEqual([1, 5]);
  });

  it('sorts, with dotted paths and descending order', async () => {
    expect(await ids('sort=-price&filter[status]=1')).toEqual([6, 4, 3, 1]);
    expect(await ids('sort=field_category.id,-price&filter[status]=1')).toEqual([4, 1, 3, 6]);
  });

  it('pages with links.next, links.prev and meta.count', async () => {
    const first = await get('sort=-price&page[limit]=4');
    expect(first.res.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    expect(first.body.jsonapi).toEqual({ version: '1.0' });
    expect(first.body.meta.count).toBe(6);
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(['6', '5', '4', '3']);
    expect(first.body.links.prev).toBeUndefined();
    const next = new URL(first.body.links.next.href);
    expect(next.origin).toBe(t.baseUrl);
    expect(next.searchParams.get('page[offset]')).toBe('4');
    expect(next.searchParams.get('sort')).toBe('-price');
    const second = await fetch(next);
    const body = (await second.json()) as {
      data: Array<{ id: string }>;
      links: Record<string, unknown>;
      meta: { count: number };
    };
    expect(body.data.map((d) => d.id)).toEqual(['2', '1']);
    expect(body.meta.count).toBe(6);
    expect(body.links.next).toBeUndefined();
    expect(body.links.prev).toBeDefined();
    // The default limit applies and larger limits are capped.
    expect((await get('')).body.data).toHaveLength(3);
    expect((await get('page[limit]=100')).body.data).toHaveLength(4);
    // Exactly the last rows: no next link.
    expect((await get('page[limit]=3&page[offset]=3')).body.links.next).toBeUndefined();
  });

  it('applies sparse fieldsets and de-duplicates included resources', async () => {
    const { body } = await get('include=field_category&fields[widget--widget]=title&page[limit]=4');
    expect(body.data[0]).toEqual({ type: 'widget--widget', id: '1', attributes: { title: 'Alpha' } });
    expect(body.included.map((r: { id: string }) => r.id)).toEqual(['tools', 'toys']);
  });

  it('answers bad input with a 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['filter[x][condition][path]=nope&filter[x][condition][value]=1', 'filter[x][condition][path]'],
      [
        'filter[x][condition][path]=title&filter[x][condition][operator]=LIKE&filter[x][condition][value]=a',
        'filter[x][condition][operator]',
      ],
      [
        'filter[x][condition][path]=price&filter[x][condition][operator]=CONTAINS&filter[x][condition][value]=1',
        'filter[x][condition][operator]',
      ],
      ['filter[status]=abc', 'filter[status]'],
      ['filter[nope]=1', 'filter[nope]'],
      [
        'filter[x][condition][path]=id&filter[x][condition][operator]=BETWEEN&filter[x][condition][value][]=1',
        'filter[x][condition][value]',
      ],
      [
        'filter[x][condition][path]=id&filter[x][condition][value]=1&filter[x][condition][memberOf]=g',
        'filter[x][condition][memberOf]',
      ],
      ['filter[g][group][conjunction]=XOR', 'filter[g][group][conjunction]'],
      ['page[limit]=abc', 'page[limit]'],
      ['page[offset]=-1', 'page[offset]'],
      ['page[size]=3', 'page[size]'],
      ['sort=nope', 'sort'],
      ['sort=tags.name', 'sort'],
      ['include=owner', 'include'],
      ['fields[widget--widget]=secret', 'fields[widget--widget]'],
      ['something=1', 'something'],
    ];
    for (const [query, parameter] of cases) {
      const { res, body } = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
      expect(body.errors[0].source, query).toEqual({ parameter });
      expect(body.errors[0].detail.length).toBeGreaterThan(10);
    }
  });
});
