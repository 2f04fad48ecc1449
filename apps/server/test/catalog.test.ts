import { en } from '@portico/contracts/messages';
import type { OperationDetail, OperationIndex } from '@portico/contracts/catalog';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { productScopes } from '../src/modules/catalog/scopes.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The catalog against the demo content of content/catalog and content/openapi (imported on
 * start): products, comparison tables, changelogs, categories, documentation and the documents.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Resource = {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: unknown }>;
};
type Doc = {
  data: Resource | Resource[];
  included?: Resource[];
  links?: Record<string, { href: string }>;
  meta?: { count: number };
  errors?: { title: string; detail: string; source?: { parameter?: string } }[];
};

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}${path}`, { headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text };
}

const list = async (path: string) => {
  const r = await get(path);
  expect(r.status, r.text).toBe(200);
  return r.body as Doc & { data: Resource[] };
};
const titles = (d: { data: Resource[] }) =>
  d.data.map((r) => `${String(r.attributes.title)} ${String(r.attributes.field_version)}`);

async function productUuid(alias: string): Promise<string> {
  const r = await get(`/phpsdk/products/getProductUuid?pathAlias=${encodeURIComponent(alias)}`);
  expect(r.status, r.text).toBe(200);
  return (r.body as { data: { uuid: string } }).data.uuid;
}

describe('product list', () => {
  test('deprecated products are left out; order is weight, then title; meta.count', async () => {
    const d = await list('/jsonapi/node/api_product');
    expect(titles(d)).toEqual([
      'Accounts API 1.0',
      'Payments API 1.2',
      'FX Rates API 2.1',
      'Get Token API 1.0',
    ]);
    expect(d.meta?.count).toBe(4);
    expect(d.data[0]!.attributes).toMatchObject({
      path: { alias: '/accounts-api-v1' },
      field_deprecated: false,
      field_scope: 'accounts:read',
    });
  });

  test("the web app's call: deprecated 0 or null OR group, sort, include=field_image with sparse file fields", async () => {
    const q = new URLSearchParams({
      sort: '-changed',
      include: 'field_image',
      'fields[file--file]': 'uri,url',
      'filter[or-group][group][conjunction]': 'OR',
      'filter[dep-0][condition][path]': 'field_deprecated',
      'filter[dep-0][condition][value]': '0',
      'filter[dep-0][condition][memberOf]': 'or-group',
      'filter[dep-null][condition][path]': 'field_deprecated',
      'filter[dep-null][condition][operator]': 'IS NULL',
      'filter[dep-null][condition][memberOf]': 'or-group',
      'page[limit]': '10',
      'page[offset]': '0',
    });
    const d = await list(`/jsonapi/node/api_product?${q}`);
    expect(d.data).toHaveLength(4);
    expect(d.data.every((p) => p.attributes.field_deprecated === false)).toBe(true);
    const images = d.included!.filter((r) => r.type === 'file--file');
    expect(images).toHaveLength(4);
    // Sparse fieldset: only uri and url.
    expect(Object.keys(images[0]!.attributes).sort()).toEqual(['uri', 'url']);
    expect(String(images[0]!.attributes.url)).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/catalog\/images\/.+\.svg$/,
    );
    const rel = d.data[0]!.relationships!.field_image!.data as { id: string; meta: { alt: string } };
    expect(images.map((i) => i.id)).toContain(rel.id);
    expect(rel.meta.alt).toBeTruthy();
  });

  test('filter by category; page[limit] / page[offset] with links.next', async () => {
    const cats = await list('/jsonapi/taxonomy_term/product_categories');
    expect(cats.data.map((c) => c.attributes.name)).toEqual(['Accounts', 'Payments', 'Markets', 'Security']);
    const payments = cats.data.find((c) => c.attributes.name === 'Payments')!;
    const filtered = await list(`/jsonapi/node/api_product?filter[field_category.id]=${payments.id}`);
    expect(titles(filtered)).toEqual(['Payments API 1.2']);

    const page1 = await list('/jsonapi/node/api_product?page[limit]=2&page[offset]=0');
    expect(titles(page1)).toEqual(['Accounts API 1.0', 'Payments API 1.2']);
    expect(page1.meta?.count).toBe(4);
    const next = page1.links!.next!.href;
    expect(next).toContain('page%5Boffset%5D=2');
    const page2 = await list(next.replace(/^http:\/\/[^/]+/, ''));
    expect(titles(page2)).toEqual(['FX Rates API 2.1', 'Get Token API 1.0']);
    expect(page2.links!.next).toBeUndefined();
  });

  test('deprecated versions on request, sorting, and precise 400s', async () => {
    const all = await list('/jsonapi/node/api_product?filter[field_deprecated]=1');
    expect(titles(all)).toEqual(['Accounts API 0.9']);
    const byTitle = await list('/jsonapi/node/api_product?sort=-title');
    expect(byTitle.data[0]!.attributes.title).toBe('Payments API');
    const bad = await get('/jsonapi/node/api_product?filter[field_colour]=red');
    expect(bad.status).toBe(400);
    expect((bad.body as Doc).errors![0]!.source?.parameter).toBe('filter[field_colour]');
    const badInclude = await get('/jsonapi/node/api_product?include=field_secret');
    expect(badInclude.status).toBe(400);
  });
});

describe('product detail', () => {
  test('every include of spec B 7', async () => {
    const uuid = await productUuid('accounts-api-v1');
    const include = [
      'field_image',
      'field_endpoints',
      'field_documentation',
      'field_features',
      'field_advantages',
      'field_related_products',
      'field_header_image',
      'field_comparison_table',
    ].join(',');
    const r = await get(`/jsonapi/node/api_product/${uuid}?include=${include}`);
    expect(r.status, r.text).toBe(200);
    const d = r.body as Doc & { data: Resource };
    expect(d.data.attributes).toMatchObject({
      title: 'Accounts API',
      field_version: '1.0',
      field_advantages_header: { title: 'Why build on the Accounts API' },
    });
    const byType = (type: string) => d.included!.filter((i) => i.type === type);
    expect(byType('paragraph--feature').map((f) => f.attributes.title)).toEqual([
      'Every account type',
      'Real-time balances',
      'Transaction search',
    ]);
    expect(byType('paragraph--feature')[0]!.attributes.field_icon).toEqual({
      url: '/catalog/images/feature-accounts.svg',
    });
    expect(byType('paragraph--advantage')).toHaveLength(3);
    expect(byType('node--api_documentation').map((x) => x.attributes.alias)).toEqual([
      'accounts-v1',
      'get-token',
    ]);
    // Included documentations carry all their products (Get Token belongs to four).
    const getToken = byType('node--api_documentation').find((x) => x.attributes.alias === 'get-token')!;
    expect(getToken.relationships!.field_products!.data).toHaveLength(4);
    expect(d.data.relationships!.field_documentation!.data).toMatchObject({
      type: 'node--api_documentation',
    });
    expect(byType('node--api_product').map((p) => p.attributes.path)).toEqual([
      { alias: '/payments-api-v1', langcode: 'en' },
      { alias: '/fx-rates-api-v2', langcode: 'en' },
    ]);
    expect(byType('file--file')).toHaveLength(2);
    expect(byType('node--comparison_table')).toHaveLength(1);
  });

  test('by alias too; unknown is 404', async () => {
    const r = await get('/jsonapi/node/api_product/accounts-api-v0');
    expect((r.body as Doc & { data: Resource }).data.attributes.field_deprecated).toBe(true);
    const missing = await get('/jsonapi/node/api_product/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect((missing.body as Doc).errors![0]!.title).toBe(en.catalog.productNotFound);
  });

  test('getProductUuid: exact alias, leading slash, alias without version suffix, unknown', async () => {
    const v1 = await productUuid('accounts-api-v1');
    expect(await productUuid('/accounts-api-v1')).toBe(v1);
    expect(await productUuid('/accounts-api')).toBe(v1);
    expect(await productUuid('accounts-api-v0')).not.toBe(v1);
    expect((await get('/phpsdk/products/getProductUuid?pathAlias=nope')).status).toBe(404);
  });

  test('GO TO NEW VERSION: the newest non-deprecated version of the family', async () => {
    const v0 = await productUuid('accounts-api-v0');
    const r = await get(`/api/products/${v0}/newest-version`);
    expect(r.status, r.text).toBe(200);
    expect((r.body as { data: unknown }).data).toEqual({
      uuid: await productUuid('accounts-api-v1'),
      title: 'Accounts API',
      alias: '/accounts-api-v1',
      version: '1.0',
    });
  });
});

describe('comparison table, changelog', () => {
  test("columns fall back to 'Deprecated API' or their custom title; rows of three types", async () => {
    const product = (await get(`/jsonapi/node/api_product/accounts-api-v1`)).body as Doc & { data: Resource };
    const tableRef = product.data.relationships!.field_comparison_table!.data as { id: string };
    const r = await get(`/jsonapi/node/comparison_table/${tableRef.id}?include=field_rows,field_products`);
    expect(r.status, r.text).toBe(200);
    const d = r.body as Doc & { data: Resource };
    expect(d.data.attributes.field_product_names).toEqual([
      'Accounts API',
      en.catalog.deprecatedApi,
      'Corporate statements (SFTP)',
    ]);
    const rows = d.included!.filter((i) => i.type.startsWith('paragraph--'));
    expect(rows.map((x) => x.type)).toEqual([
      'paragraph--comparison_category',
      'paragraph--comparison_text_row',
      'paragraph--comparison_text_row',
      'paragraph--comparison_category',
      'paragraph--comparison_boolean_row',
      'paragraph--comparison_boolean_row',
      'paragraph--comparison_boolean_row',
    ]);
    expect(rows[1]!.attributes).toMatchObject({
      title: 'Rate limit',
      field_values: ['100 per hour', '10 per hour', 'Daily files'],
    });
    expect(d.included!.filter((i) => i.type === 'node--api_product')).toHaveLength(2);

    // A column whose product is gone: custom title, else 'Deprecated API'.
    const db = catalogDb(t.app.db);
    const table = await db
      .selectFrom('comparison_tables')
      .select('id')
      .where('uuid', '=', tableRef.id)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('comparison_table_products')
      .values({ table_id: table.id, product_id: null, title: null, weight: 99 })
      .execute();
    const again = (await get(`/jsonapi/node/comparison_table/${tableRef.id}`)).body as Doc & {
      data: Resource;
    };
    expect((again.data.attributes.field_product_names as string[]).at(-1)).toBe('Deprecated API');
    expect((again.data.attributes.field_product_ids as unknown[]).at(-1)).toBeNull();
  });

  test('changelog filtered by product id, newest first', async () => {
    const uuid = await productUuid('payments-api-v1');
    const d = await list(`/jsonapi/node/change_log?filter[field_product.id]=${uuid}`);
    expect(d.data.map((e) => [e.attributes.field_version, e.attributes.field_release_date])).toEqual([
      ['1.2', '2026-02-01'],
      ['1.1', '2025-11-15'],
      ['1.0', '2025-06-01'],
    ]);
    expect(d.data[0]!.attributes.field_notes).toMatchObject({ processed: '<p>Standing orders.</p>' });
  });
});

describe('documentation', () => {
  test('by alias and by uuid, with products, plan and changelog', async () => {
    const r = await get(
      '/jsonapi/node/api_documentation/payments-v1?include=field_products,field_change_log',
    );
    expect(r.status, r.text).toBe(200);
    const d = r.body as Doc & { data: Resource };
    expect(d.data.attributes).toMatchObject({
      title: 'Payments API',
      alias: 'payments-v1',
      field_deprecated: false,
      field_version: '1.2.0',
      field_plan: '50 per hour',
      field_source_spec_version: 'openapi 3.1.0',
      operation_count: 4,
    });
    const byUuid = await get(`/jsonapi/node/api_documentation/${d.data.id}`);
    expect((byUuid.body as Doc & { data: Resource }).data.id).toBe(d.data.id);
    expect(d.included!.filter((i) => i.type === 'node--api_product').map((p) => p.attributes.title)).toEqual([
      'Payments API',
    ]);
    expect(d.included!.filter((i) => i.type === 'node--change_log')).toHaveLength(3);

    const token = await get('/jsonapi/node/api_documentation/get-token?include=field_products');
    const products = (token.body as Doc).included!.map((p) => p.attributes.title);
    // A documentation of several products: the user chooses one before subscribing.
    expect(products).toEqual(['Accounts API', 'Payments API', 'FX Rates API', 'Get Token API']);
    expect((token.body as Doc & { data: Resource }).data.attributes.field_plan).toBe('100 per hour');
    expect((await get('/jsonapi/node/api_documentation/nope')).status).toBe(404);
  });

  test("a documentation shared by several products shows its own product's changelog only", async () => {
    const tokenProduct = await productUuid('get-token-api');
    const r = await get('/jsonapi/node/api_documentation/get-token?include=field_change_log');
    expect(r.status, r.text).toBe(200);
    const d = r.body as Doc & { data: Resource };
    const entries = d.included!.filter((i) => i.type === 'node--change_log');
    // The Get Token API belongs to four products; the Accounts, Payments and FX entries are not
    // about it.
    expect(entries.map((e) => [e.attributes.field_version, e.attributes.field_release_date])).toEqual([
      ['1.0', '2025-08-01'],
      ['1.0-beta', '2025-05-15'],
    ]);
    expect(entries.map((e) => (e.relationships!.field_product!.data as { id: string }).id)).toEqual([
      tokenProduct,
      tokenProduct,
    ]);
    expect((d.data.relationships!.field_change_log!.data as unknown[]).length).toBe(2);
    // The same in the collection.
    const all = await list('/jsonapi/node/api_documentation?filter[field_api_id]=get-token');
    expect((all.data[0]!.relationships!.field_change_log!.data as unknown[]).length).toBe(2);
    // A product's own documentation keeps the product's changelog.
    const accounts = await get('/jsonapi/node/api_documentation/accounts-v1?include=field_change_log');
    expect(
      (accounts.body as Doc)
        .included!.filter((i) => i.type === 'node--change_log')
        .map((e) => e.attributes.field_version),
    ).toEqual(['1.0', '1.0-beta']);
  });

  test("swagger by alias or api id; 'Swagger not found'", async () => {
    const byAlias = await get('/api/swagger?alias=accounts-v1');
    expect(byAlias.status).toBe(200);
    const doc = byAlias.body as {
      openapi: string;
      servers: { url: string }[];
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe(`${t.config.publicUrl}/sandbox/accounts-v1`);
    // The document's own order is kept (json, not jsonb).
    expect(Object.keys(doc.paths)).toEqual([
      '/accounts',
      '/accounts/{accountId}',
      '/accounts/{accountId}/balances',
      '/accounts/{accountId}/transactions',
    ]);
    const byApi = await get('/api/swagger?api=fx-rates-v2&alias=');
    expect((byApi.body as { info: { title: string } }).info.title).toBe('FX Rates API');
    const etag = byAlias.headers.get('etag')!;
    expect((await get('/api/swagger?alias=accounts-v1', { 'if-none-match': etag })).status).toBe(304);
    for (const q of ['alias=nope', 'api=nope&alias=nope', '']) {
      const missing = await get(`/api/swagger?${q}`);
      expect(missing.status).toBe(404);
      expect((missing.body as Doc).errors![0]!.detail).toBe('Swagger not found');
    }
  });

  test('operation index and details with samples; downloads', async () => {
    const r = await get('/api/apidocs/payments-v1/index');
    expect(r.status).toBe(200);
    const index = r.body as OperationIndex;
    expect(index.tags.map((g) => [g.name, g.operations.map((o) => o.key)])).toEqual([
      ['Payments', ['createPayment', 'getPayment', 'cancelPayment']],
      ['Standing orders', ['listStandingOrders']],
    ]);
    expect(index.tags[0]!.operations[1]).toMatchObject({
      method: 'get',
      scopes: ['payments:read'],
      secured: true,
    });
    expect(index.securitySchemes[0]!.flows!.clientCredentials!.tokenUrl).toBe(
      `${t.config.publicUrl}/oauth/token`,
    );

    const op = await get('/api/apidocs/payments-v1/operations/createPayment');
    expect(op.status).toBe(200);
    const detail = op.body as OperationDetail;
    expect(detail.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['Idempotency-Key', 'header', true],
    ]);
    expect(detail.requestBody!.content['application/json']!.examples!.sepa!.value).toMatchObject({
      creditorName: 'Coffee Roasters Ltd',
    });
    expect(detail.responses.map((x) => x.status)).toEqual(['201', '400', '422']);
    expect(detail.security).toEqual([[{ scheme: 'oauth2', type: 'oauth2', scopes: ['payments:write'] }]]);
    expect(detail.samples.map((s) => s.id)).toEqual(['curl', 'javascript', 'python', 'java', 'node']);
    const curl = detail.samples[0]!.code;
    expect(curl).toContain(`--url ${t.config.publicUrl}/sandbox/payments-v1/payments`);
    expect(curl).toContain("--header 'Authorization: Bearer <ACCESS_TOKEN>'");
    expect(curl).toContain('Coffee Roasters Ltd');
    // The circular Payment.refunds stays a $ref, resolvable from `refs`.
    expect(Object.keys(detail.refs)).toContain('#/components/schemas/Payment');
    expect((await get('/api/apidocs/payments-v1/operations/nope')).status).toBe(404);

    const original = await get('/api/apidocs/payments-v1/download/original');
    expect(original.headers.get('content-disposition')).toBe('attachment; filename="payments-v1.yaml"');
    expect(original.text).toMatch(/^openapi: 3\.1\.0/);
    const converted = await get('/api/apidocs/accounts-v1/download/openapi.json');
    expect(converted.headers.get('content-disposition')).toContain('accounts-v1.openapi.json');
    expect((converted.body as { openapi: string }).openapi).toBe('3.1.0');
    const yaml = await get('/api/apidocs/accounts-v1/download/openapi.yaml');
    expect(yaml.text).toContain('openapi: 3.1.0');
  });
});

describe('the sandbox answers the imported demo APIs', () => {
  async function token(scopes: string[]) {
    const { clientId, clientSecret } = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
      scopes,
    });
    const res = await fetch(`${t.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret!,
      }),
    });
    expect(res.status).toBe(200);
    return { clientId, accessToken: ((await res.json()) as { access_token: string }).access_token };
  }

  test('200 with the example, 401 without token, 403 with a wrong scope, 400 for an invalid request; calls recorded', async () => {
    const { clientId, accessToken } = await token(['accounts:read']);
    const auth = { authorization: `Bearer ${accessToken}` };
    const ok = await get('/sandbox/accounts-v1/accounts', auth);
    expect(ok.status, ok.text).toBe(200);
    expect((ok.body as { data: { iban: string }[] }).data[0]!.iban).toBe('DE89370400440532013000');

    expect((await get('/sandbox/accounts-v1/accounts')).status).toBe(401);
    const other = await token(['fx:read']);
    const forbidden = await get('/sandbox/accounts-v1/accounts', {
      authorization: `Bearer ${other.accessToken}`,
    });
    expect(forbidden.status).toBe(403);
    expect((forbidden.body as { error: string }).error).toBe('insufficient_scope');

    const invalid = await get('/sandbox/accounts-v1/accounts/acc-1001/transactions', auth);
    expect(invalid.status).toBe(400);
    expect((invalid.body as { parameter: string }).parameter).toBe('bookingStatus');

    // An operation without security (FX currencies) needs no token.
    expect((await get('/sandbox/fx-rates-v2/currencies')).status).toBe(200);

    await t.app.flushCallRecorder();
    const calls = await t.app.db
      .selectFrom('api_calls')
      .select(['endpoint', 'status', 'api_alias'])
      .where('client_id', '=', clientId)
      .orderBy('id')
      .execute();
    expect(calls).toEqual([
      { endpoint: 'GET /accounts-v1/accounts', status: 200, api_alias: 'accounts-v1' },
      {
        endpoint: 'GET /accounts-v1/accounts/{accountId}/transactions',
        status: 400,
        api_alias: 'accounts-v1',
      },
    ]);
  });

  test('the same path in two versions of an API stays two endpoints in the daily rollup', async () => {
    const { clientId, accessToken } = await token(['accounts:read']);
    const auth = { authorization: `Bearer ${accessToken}` };
    expect((await get('/sandbox/accounts-v1/accounts', auth)).status).toBe(200);
    expect((await get('/sandbox/accounts-v0/accounts', auth)).status).toBe(200);
    await t.app.flushCallRecorder();
    const daily = await t.app.db
      .selectFrom('api_call_daily')
      .select(['endpoint', 'calls'])
      .where('client_id', '=', clientId)
      .orderBy('endpoint')
      .execute();
    expect(daily).toEqual([
      { endpoint: 'GET /accounts-v0/accounts', calls: 1 },
      { endpoint: 'GET /accounts-v1/accounts', calls: 1 },
    ]);
  });
});

describe('for the applications module', () => {
  test('productScopes per environment, by id or uuid', async () => {
    const accounts = await productUuid('accounts-api-v1');
    const payments = await productUuid('payments-api-v1');
    expect(await productScopes(t.app.db, [accounts, payments], 'DEVELOPMENT')).toEqual([
      'accounts:read',
      'payments:read',
      'payments:write',
    ]);
    const row = await catalogDb(t.app.db)
      .selectFrom('api_products')
      .select('id')
      .where('uuid', '=', payments)
      .executeTakeFirstOrThrow();
    expect(await productScopes(t.app.db, [row.id], 'PRODUCTION')).toEqual([
      'payments:read',
      'payments:write',
    ]);
    expect(await productScopes(t.app.db, [], 'PRODUCTION')).toEqual([]);
  });
});
