import type { OperationDetail, OperationIndex } from '@portico/contracts/catalog';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importApi, prepareApiImport } from '../src/modules/catalog/import-api.ts';
import { generatedProductImage } from '../src/modules/catalog/product-info.ts';
import { catalogDb } from '../src/modules/catalog/tables.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * The reference shows everything a document says (issue 11): webhooks, each operation counted
 * once, and products made by import-api from the document's info, with an image and a category.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function get(path: string) {
  const res = await fetch(`${t.baseUrl}${path}`);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text };
}

const WEBHOOKS_ONLY = JSON.stringify({
  openapi: '3.1.0',
  info: {
    title: 'Card Events API',
    version: '2.0.0',
    description: 'Card **events** for <script>alert(1)</script> issuers.\n\n- blocked\n- renewed',
    contact: { name: 'Cards team', email: 'cards@bank.example', url: 'https://bank.example/cards' },
    license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
  },
  externalDocs: { description: 'Card events guide', url: 'https://bank.example/guides/card-events' },
  webhooks: {
    cardBlocked: {
      post: {
        summary: 'A card was blocked',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['cardId'],
                properties: { cardId: { type: 'string', format: 'uuid' }, reason: { type: 'string' } },
              },
            },
          },
        },
        responses: { '204': { description: 'Received.' } },
      },
    },
    cardRenewed: {
      post: { operationId: 'cardRenewed', responses: { '200': { description: 'Received.' } } },
    },
  },
});

const MULTI_TAGGED = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Tagged API', version: '1.0.0' },
  paths: {
    '/a': { get: { tags: ['One', 'Two'], operationId: 'getA', responses: { '200': { description: 'OK' } } } },
    '/b': {
      get: { tags: ['Two', 'Three'], operationId: 'getB', responses: { '200': { description: 'OK' } } },
    },
  },
});

const importText = async (name: string, text: string, options: Parameters<typeof prepareApiImport>[1]) =>
  importApi(t.app.db, await prepareApiImport({ name, text }, options, t.config.publicUrl));

describe('webhooks', () => {
  test('the demo Payments API lists its webhook apart from its operations, with payload and answers', async () => {
    const index = (await get('/api/apidocs/payments-v1/index')).body as OperationIndex;
    expect(index.operationCount).toBe(4);
    expect(index.webhookCount).toBe(1);
    expect(index.webhooks).toEqual([
      expect.objectContaining({
        key: 'paymentStatusChanged',
        method: 'post',
        path: 'paymentStatusChanged',
        webhook: true,
      }),
    ]);
    expect(index.tags.flatMap((g) => g.operations).some((o) => o.webhook)).toBe(false);

    const r = await get('/api/apidocs/payments-v1/operations/paymentStatusChanged');
    expect(r.status, r.text).toBe(200);
    const detail = r.body as OperationDetail;
    expect(detail.webhook).toBe(true);
    expect(detail.parameters.map((p) => p.name)).toEqual(['X-Signature']);
    const payload = detail.requestBody!.content['application/json']!.schema as { properties: object };
    expect(Object.keys(payload.properties)).toEqual(['eventId', 'occurredAt', 'payment']);
    expect(detail.responses.map((x) => x.status)).toEqual(['200', '410']);
    expect(detail.samples).toEqual([]);
    // Webhooks are not routed by the sandbox.
    const sandbox = await fetch(`${t.baseUrl}/sandbox/payments-v1/paymentStatusChanged`, { method: 'POST' });
    expect(sandbox.status).toBe(404);
  });

  test('a webhooks-only document imports and counts 0 operations and 2 webhooks', async () => {
    const result = await importText('card-events.json', WEBHOOKS_ONLY, { product: 'card-events-v2' });
    expect(result.documentation.processed!.operations).toMatchObject({
      operationCount: 0,
      webhookCount: 2,
    });
    const index = (await get('/api/apidocs/card-events/index')).body as OperationIndex;
    expect(index.tags).toEqual([]);
    expect(index.webhooks!.map((w) => w.key)).toEqual(['webhook-cardBlocked-post', 'cardRenewed']);
    const detail = (await get('/api/apidocs/card-events/operations/webhook-cardBlocked-post'))
      .body as OperationDetail;
    expect(detail.summary).toBe('A card was blocked');
    expect(detail.responses.map((x) => x.status)).toEqual(['204']);
  });
});

describe('operation counts', () => {
  test('an operation under several tags is counted once', async () => {
    await importText('tagged.json', MULTI_TAGGED, { product: 'tagged-api-v1' });
    const index = (await get('/api/apidocs/tagged/index')).body as OperationIndex;
    expect(index.tags.map((g) => g.operations.length)).toEqual([1, 2, 1]);
    expect(index.operationCount).toBe(2);
    const product = (await get('/jsonapi/node/api_documentation/tagged')).body as {
      data: { attributes: Record<string, unknown> };
    };
    expect(product.data.attributes).toMatchObject({ operation_count: 2 });
  });
});

describe('long operation keys', () => {
  test('the details of an operation whose key is 120 characters long are served', async () => {
    // VTEX's logistics API: several parameters in one segment, no operationId, a long path.
    const path =
      '/api/logistics-capacity/resources/carrier@{capacityType}@{shippingPolicyId}/time-frames/{windowDay}F{windowStartTime}T{windowEndTime}';
    const parameters = [
      'capacityType',
      'shippingPolicyId',
      'windowDay',
      'windowStartTime',
      'windowEndTime',
    ].map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', example: `${name[0]}1` },
    }));
    const doc = JSON.stringify({
      openapi: '3.0.0',
      info: { title: 'Logistics', version: '1' },
      paths: {
        [path]: {
          get: {
            parameters,
            responses: {
              '200': {
                description: 'The windows.',
                content: {
                  'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } },
                },
              },
            },
          },
        },
      },
    });
    await importText('logistics.json', doc, { product: 'logistics-v1' });
    const index = (await get('/api/apidocs/logistics/index')).body as OperationIndex;
    const key = index.tags.flatMap((g) => g.operations)[0]!.key;
    expect(key.length).toBeGreaterThan(100);
    const detail = await get(`/api/apidocs/logistics/operations/${encodeURIComponent(key)}`);
    expect(detail.status).toBe(200);
    expect((detail.body as OperationDetail).path).toBe(path);
  });
});

describe('a product created by import-api', () => {
  type Res = {
    type: string;
    id: string;
    attributes: Record<string, unknown>;
    relationships: Record<string, { data: { id: string } | null }>;
  };

  test("takes the document's info, gets a generated image and the category asked for", async () => {
    const result = await importText('card-events.json', WEBHOOKS_ONLY, {
      product: 'card-events-v2',
      category: 'Cards',
    });
    expect(result.product.category).toBe('Cards');
    const r = await get(
      `/jsonapi/node/api_product/${result.product.uuid}?include=field_image,field_category`,
    );
    expect(r.status, r.text).toBe(200);
    const doc = r.body as { data: Res; included: Res[] };
    const body = doc.data.attributes.body as { value: string };
    expect(body.value).toContain('<strong>events</strong>');
    expect(body.value).toContain('<li>blocked</li>');
    expect(body.value).not.toContain('<script');
    expect(body.value).toContain('<a href="mailto:cards@bank.example">Cards team</a>');
    expect(body.value).toContain('<a href="https://spdx.org/licenses/Apache-2.0.html">Apache 2.0</a>');
    expect(body.value).toContain('<a href="https://bank.example/guides/card-events">Card events guide</a>');
    expect(body.value).toContain('License:');

    const image = doc.included.find((i) => i.type === 'file--file')!;
    const url = String((image.attributes.uri as { url?: string })?.url ?? image.attributes.url ?? '');
    expect(url).toMatch(/\/catalog\/generated-images\/card-events-v2\.svg$/);
    const svg = await fetch(new URL(url, t.baseUrl));
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = await svg.text();
    expect(text).toBe(generatedProductImage('Card Events API'));
    expect(text).toContain('>CE</text>');
    expect((await fetch(`${t.baseUrl}/catalog/generated-images/no-such-product.svg`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/catalog/generated-images/..%2Fsecret`)).status).toBe(404);

    const category = doc.included.find((i) => i.type === 'taxonomy_term--product_categories')!;
    expect(category.attributes.name).toBe('Cards');
  });

  test('--category finds an existing category by name, whatever its case, and moves the product', async () => {
    const result = await importText('tagged.json', MULTI_TAGGED, {
      product: 'tagged-api-v1',
      category: 'payments',
    });
    const rows = await catalogDb(t.app.db)
      .selectFrom('api_products')
      .innerJoin('product_categories', 'product_categories.id', 'api_products.category_id')
      .select(['product_categories.name'])
      .where('api_products.id', '=', result.product.id)
      .execute();
    expect(rows).toEqual([{ name: 'Payments' }]);
    const names = await catalogDb(t.app.db).selectFrom('product_categories').select('name').execute();
    expect(names.filter((n) => n.name.toLowerCase() === 'payments')).toHaveLength(1);
  });

  test('the same title always gives the same image; different titles differ', () => {
    expect(generatedProductImage('Petstore')).toBe(generatedProductImage('Petstore'));
    expect(generatedProductImage('Petstore')).not.toBe(generatedProductImage('Bookstore'));
  });
});

describe('paths told apart by a pseudo-fragment (AWS)', () => {
  /** The operation's one answer names it, so that a call shows which operation the sandbox chose. */
  const answers = (done: string) => ({
    '200': {
      description: 'OK',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { done: { type: 'string', enum: [done] } } },
        },
      },
    },
  });

  const AWS_STYLE = JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'Scaling API', version: '2011-01-01' },
    paths: Object.fromEntries(
      ['AttachInstances', 'DetachInstances'].map((action) => [
        `/#Action=${action}`,
        {
          get: {
            operationId: `GET_${action}`,
            parameters: [
              { name: 'Action', in: 'query', required: true, schema: { type: 'string', enum: [action] } },
              { name: 'GroupName', in: 'query', required: true, schema: { type: 'string' } },
            ],
            responses: answers(action),
          },
        },
      ]),
    ),
  });

  test('the sample leaves the fragment out, and the sandbox answers each by its query value', async () => {
    await importText('scaling.json', AWS_STYLE, { product: 'scaling-api-v1' });
    const detail = (await get('/api/apidocs/scaling/operations/GET_DetachInstances')).body as OperationDetail;
    const curl = detail.samples[0]!.code;
    expect(curl).toContain('/sandbox/scaling/?Action=DetachInstances&GroupName=Jane%20Doe');
    for (const action of ['AttachInstances', 'DetachInstances']) {
      const res = await fetch(`${t.baseUrl}/sandbox/scaling/?Action=${action}&GroupName=g`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ done: action });
    }
    expect((await fetch(`${t.baseUrl}/sandbox/scaling/?Action=Nope&GroupName=g`)).status).toBe(404);
  });

  test('an array of objects in the query (AWS tag lists) is sent as JSON text and validated as objects', async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'Tagging API', version: '2015-12-01' },
      paths: {
        '/#Action=AddTags': {
          get: {
            operationId: 'AddTags',
            parameters: [
              { name: 'Action', in: 'query', required: true, schema: { type: 'string', enum: ['AddTags'] } },
              {
                name: 'Tags',
                in: 'query',
                required: true,
                schema: { type: 'array', items: { $ref: '#/components/schemas/Tag' }, minItems: 1 },
              },
            ],
            responses: answers('AddTags'),
          },
        },
      },
      components: {
        schemas: {
          Tag: {
            type: 'object',
            required: ['Key'],
            properties: { Key: { type: 'string', minLength: 1 }, Value: { type: 'string' } },
          },
        },
      },
    };
    await importText('tagging.json', JSON.stringify(doc), { product: 'tagging-api-v1' });
    const detail = (await get('/api/apidocs/tagging/operations/AddTags')).body as OperationDetail;
    const url = new URL(/'?(http[^' ]+)/.exec(detail.samples[0]!.code)![1]!);
    expect(JSON.parse(url.searchParams.get('Tags')!)).toMatchObject({ Key: expect.any(String) });
    const call = (query: string) => fetch(`${t.baseUrl}/sandbox/tagging/?Action=AddTags&${query}`);
    const sample = await fetch(`${t.baseUrl}/sandbox/tagging/${url.search}`);
    expect(sample.status, `${url.search} ${await sample.clone().text()}`).toBe(200);
    expect(await sample.json()).toEqual({ done: 'AddTags' });
    const two = await call(
      `Tags=${encodeURIComponent('{"Key":"a"}')}&Tags=${encodeURIComponent('{"Key":"b","Value":"c"}')}`,
    );
    expect(two.status).toBe(200);
    // Still validated: an item that is no object, and an object without its required Key.
    const notObject = await call('Tags=team');
    expect(notObject.status).toBe(400);
    expect(((await notObject.json()) as { error_description: string }).error_description).toBe(
      "query parameter 'Tags' item 0 must be object",
    );
    const noKey = await call(`Tags=${encodeURIComponent('{"Value":"c"}')}`);
    expect(noKey.status).toBe(400);
    expect(((await noKey.json()) as { error_description: string }).error_description).toContain(
      "query parameter 'Tags' item 0",
    );
  });

  // S3 and Box: a fragment that names a query key (declared or a mere label), and one path without.
  const S3_STYLE = JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'Buckets API', version: '2006-03-01' },
    paths: {
      '/{Bucket}': {
        get: {
          operationId: 'ListObjects',
          parameters: [{ name: 'Bucket', in: 'path', required: true, schema: { type: 'string' } }],
          responses: answers('ListObjects'),
        },
      },
      '/{Bucket}#notification': {
        get: {
          operationId: 'GetBucketNotification',
          parameters: [
            { name: 'Bucket', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'notification', in: 'query', required: true, schema: { type: 'boolean', enum: [true] } },
          ],
          responses: answers('GetBucketNotification'),
        },
      },
      '/{Bucket}#add_shared_link': {
        put: {
          operationId: 'AddSharedLink',
          parameters: [{ name: 'Bucket', in: 'path', required: true, schema: { type: 'string' } }],
          responses: answers('AddSharedLink'),
        },
      },
      '/{Bucket}#attributes&uploadId': {
        put: {
          operationId: 'PutAttributes',
          parameters: [
            { name: 'Bucket', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'uploadId', in: 'query', required: true, schema: { type: 'string' } },
          ],
          responses: answers('PutAttributes'),
        },
      },
    },
  });

  test('a fragment naming a query key: each operation reached by its own sample, the path alone by none', async () => {
    await importText('buckets.json', S3_STYLE, { product: 'buckets-api-v1' });
    const sampleUrl = async (id: string) => {
      const detail = (await get(`/api/apidocs/buckets/operations/${id}`)).body as OperationDetail;
      const curl = detail.samples[0]!.code;
      return /'?(http[^' ]+)/.exec(curl)![1]!;
    };
    const expected: [string, string, string][] = [
      ['ListObjects', 'GET', '/sandbox/buckets/example'],
      ['GetBucketNotification', 'GET', '/sandbox/buckets/example?notification=true'],
      ['AddSharedLink', 'PUT', '/sandbox/buckets/example?add_shared_link='],
      ['PutAttributes', 'PUT', '/sandbox/buckets/example?uploadId=12345&attributes='],
    ];
    for (const [id, method, path] of expected) {
      const url = await sampleUrl(id);
      expect(new URL(url).pathname + new URL(url).search, id).toBe(path);
      const res = await fetch(`${t.baseUrl}${path}`, { method });
      expect(res.status, id).toBe(200);
      expect(await res.json(), id).toEqual({ done: id });
    }
    // A PUT without a key of its fragment is no PUT of this path: the methods it has are named.
    const none = await fetch(`${t.baseUrl}/sandbox/buckets/example?uploadId=1`, { method: 'PUT' });
    expect(none.status).toBe(405);
    expect(none.headers.get('allow')).toBe('GET');
  });
});

describe('the operation index', () => {
  test('is answered from memory, compressed once, until the document changes; its ETag still revalidates', async () => {
    const url = `${t.baseUrl}/api/apidocs/accounts-v1/index`;
    const first = await fetch(url, { headers: { 'accept-encoding': 'br' } });
    const body = await first.text();
    expect(first.status).toBe(200);
    const again = await fetch(url, { headers: { 'accept-encoding': 'br' } });
    expect(again.headers.get('x-portico-cache')).toBe('hit');
    expect(again.headers.get('content-encoding')).toBe('br');
    expect(await again.text()).toBe(body);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/-index"$/);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // A new version of the document: the next answer is its index, computed again.
    await importText(
      'accounts.json',
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Accounts API', version: '9.9.9' },
        paths: { '/ping': { get: { responses: { '200': { description: 'OK' } } } } },
      }),
      { alias: 'accounts-v1', product: 'accounts-api' },
    );
    const changed = await fetch(url);
    expect(changed.headers.get('x-portico-cache')).toBeNull();
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as OperationIndex).operationCount).toBe(1);
  });
});
