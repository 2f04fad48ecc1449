import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { saveDocumentation } from '../src/modules/catalog/store.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** Large documents: stored bundled, resolved per operation, streamed (decision 017). */

type Obj = Record<string, unknown>;

/**
 * A generated document shaped like the big public ones: many operations sharing a few large
 * schemas through `$ref` (dereferenced, each operation would carry its own copy of them).
 */
export function largeDocument(paths: number, schemas = 40): Obj {
  const text = (n: number) => `Lorem ipsum dolor sit amet ${n}, consectetur adipiscing elit, sed do eiusmod.`;
  const shared: Obj = {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [`field${i}`, { type: 'string', description: text(i) }]),
    ),
  };
  const components: Obj = {
    schemas: {
      Shared: shared,
      // A cycle: kept as a `$ref` when resolved.
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
      ...Object.fromEntries(
        Array.from({ length: schemas }, (_, k) => [
          `Item${k}`,
          {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', pattern: '^[a-z0-9]{8}$', description: text(k) },
              shared: { $ref: '#/components/schemas/Shared' },
              tree: { $ref: '#/components/schemas/Node' },
              ...Object.fromEntries(
                Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'integer', description: text(i) }]),
              ),
            },
          },
        ]),
      ),
    },
    parameters: {
      Limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    },
    responses: {
      NotFound: {
        description: 'Not found',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Shared' } } },
      },
    },
  };
  const p: Obj = {};
  for (let i = 0; i < paths; i++) {
    const item = `#/components/schemas/Item${i % schemas}`;
    p[`/things${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: `getThing${i}`,
        summary: `Get thing ${i}`,
        description: text(i),
        parameters: [{ $ref: '#/components/parameters/Limit' }],
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { $ref: item } } } },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      put: {
        operationId: `putThing${i}`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: item } } } },
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { $ref: item } } } },
        },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Large', version: '1.0' }, paths: p, components };
}

describe('large documents', () => {
  let t: TestApp;
  const doc = largeDocument(1500);
  const source = JSON.stringify(doc);

  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
    await saveDocumentation(t.app.db, { alias: 'large', source, filename: 'large.json' }, t.config.publicUrl);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is stored bundled: shared $refs stay $refs, the stored size stays near the source', async () => {
    const row = await sql<{
      n: number;
    }>`select length(converted::text) as n from api_documentations where alias = 'large'`.execute(t.app.db);
    const stored = Number(row.rows[0]!.n);
    expect(source.length).toBeGreaterThan(1_000_000);
    // Dereferenced, every operation would hold its schema's copy: over 100 times the source.
    expect(stored).toBeLessThan(source.length * 1.5);
  });

  it('resolves one operation when asked: its schemas inline, the cycle as a $ref with its target', async () => {
    const res = await fetch(`${t.baseUrl}/api/apidocs/large/operations/getThing7`);
    expect(res.status).toBe(200);
    const detail = (await res.json()) as {
      parameters: { name: string; schema: Obj }[];
      responses: { status: string; description: string; content: Record<string, { schema: Obj }> }[];
      refs: Record<string, Obj>;
    };
    expect(detail.parameters.map((p) => p.name).sort()).toEqual(['id', 'limit']);
    const ok = detail.responses.find((r) => r.status === '200')!;
    // A schema that holds a cycle stays a `$ref`, its target among the detail's refs.
    const schema = ok.content['application/json']!.schema;
    expect(schema).toEqual({ $ref: '#/components/schemas/Item7' });
    const item = detail.refs['#/components/schemas/Item7'] as { properties: Record<string, Obj> };
    expect(Object.keys(item.properties.shared!.properties as Obj)).toHaveLength(120);
    expect(detail.responses.find((r) => r.status === '404')!.description).toBe('Not found');
    expect(detail.refs['#/components/schemas/Node']).toBeDefined();
    expect((await fetch(`${t.baseUrl}/api/apidocs/large/operations/nope`)).status).toBe(404);
  });

  it('the sandbox answers a call of a big document, validated against the resolved schema', async () => {
    const bad = await fetch(`${t.baseUrl}/sandbox/large/things3/abc?limit=500`);
    expect(bad.status).toBe(400);
    const ok = await fetch(`${t.baseUrl}/sandbox/large/things3/abc?limit=5`);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as Obj;
    expect(body.id).toMatch(/^[a-z0-9]{8}$/);
    expect(Object.keys(body.shared as Obj)).toHaveLength(120);
  });

  it('streams the downloads: JSON and YAML equal the stored document', async () => {
    const stored = await sql<{
      text: string;
    }>`select converted::text as text from api_documentations where alias = 'large'`.execute(t.app.db);
    const text = stored.rows[0]!.text;
    const swagger = await fetch(`${t.baseUrl}/api/swagger?alias=large`);
    expect(swagger.status).toBe(200);
    expect(await swagger.text()).toBe(text);
    const json = await fetch(`${t.baseUrl}/api/apidocs/large/download/openapi.json`);
    expect(json.headers.get('content-disposition')).toContain('large.openapi.json');
    expect(await json.text()).toBe(text);
    const yaml = await fetch(`${t.baseUrl}/api/apidocs/large/download/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toContain('application/yaml');
    expect(parseYaml(await yaml.text(), { maxAliasCount: -1 })).toEqual(JSON.parse(text));
    const original = await fetch(`${t.baseUrl}/api/apidocs/large/download/original`);
    expect(await original.text()).toBe(source);
  });
});
