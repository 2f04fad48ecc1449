import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolvePointer } from '../../openapi/document.ts';
import {
  locateOperations,
  locateOperationsInTurns,
  OpenApiImportError,
  processOpenApi,
  upgrade30To31,
} from '../../openapi/index.ts';
import { cutOperationSlice, operationSlice } from '../../openapi/slice.ts';
import { operationDetail } from './operation-details.ts';

const require = createRequire(import.meta.url);
const examples = path.dirname(require.resolve('@readme/oas-examples/package.json'));
const example = (p: string) => fs.readFileSync(path.join(examples, p), 'utf8');
const opts = { alias: 'pets', publicUrl: 'https://portal.test' };

type Obj = Record<string, unknown>;

async function importError(source: string, filename?: string): Promise<OpenApiImportError> {
  try {
    await processOpenApi(source, { ...opts, filename });
  } catch (err) {
    if (err instanceof OpenApiImportError) return err;
    throw err;
  }
  throw new Error('the document was accepted');
}

/** Every `$ref` left in a document must point inside it (circular schemas only). */
function danglingRefs(doc: Obj): string[] {
  const bad: string[] = [];
  const seen = new Set<object>();
  const walk = (n: unknown) => {
    if (typeof n !== 'object' || n === null || seen.has(n)) return;
    seen.add(n);
    const ref = (n as Obj).$ref;
    if (typeof ref === 'string' && resolvePointer(doc, ref) === undefined) bad.push(ref);
    Object.values(n).forEach(walk);
  };
  walk(doc);
  return bad;
}

describe('conversion to OpenAPI 3.1', () => {
  test('Swagger 2.0 (JSON) becomes 3.1 pointed at the sandbox and the authorization server', async () => {
    const r = await processOpenApi(example('2.0/json/petstore.json'), opts);
    expect(r.sourceFormat).toBe('json');
    expect(r.sourceSpecVersion).toBe('swagger 2.0');
    expect(r.converted.openapi).toBe('3.1.0');
    expect(r.converted.servers).toEqual([
      { url: 'https://portal.test/sandbox/pets', description: 'Sandbox' },
    ]);
    const schemes = (r.converted.components as Obj).securitySchemes as Obj;
    expect(schemes.petstore_auth).toMatchObject({
      type: 'oauth2',
      flows: { implicit: { authorizationUrl: 'https://portal.test/oauth/auth' } },
    });
    expect(r.operationIndex.operationCount).toBe(20);
    expect(r.contentHash).toMatch(/^[0-9a-f]{64}$/);
    // Dereferenced: the body schema is inline.
    const body = (await operationDetail(r.converted, 'addPet'))!.requestBody!;
    expect((body.content['application/json']!.schema as Obj).properties).toHaveProperty('photoUrls');
  });

  test('Swagger 2.0 YAML with a circular schema keeps the cycle as a finite $ref', async () => {
    const r = await processOpenApi(example('2.0/yaml/schema-circular.yaml'), opts);
    expect(r.sourceFormat).toBe('yaml');
    const text = JSON.stringify(r.converted);
    expect(text).toContain('"$ref":"#/components/schemas/');
    expect(danglingRefs(r.converted)).toEqual([]);
  });

  test('OpenAPI 3.0 with circular schemas: nullable becomes a type list, refs stay resolvable', async () => {
    const r = await processOpenApi(example('3.0/json/circular.json'), opts);
    expect(r.sourceSpecVersion).toBe('openapi 3.0.1');
    expect(r.converted.openapi).toBe('3.1.0');
    const schema = ((r.converted.components as Obj).schemas as Obj).ErrorMessage as Obj;
    expect((schema.properties as Obj).error).toEqual({ type: ['string', 'null'] });
    expect((schema.properties as Obj).inner).toEqual({ $ref: '#/components/schemas/ErrorMessage' });
    expect(danglingRefs(r.converted)).toEqual([]);
    const op = locateOperations(r.converted)[0]!;
    const detail = (await operationDetail(r.converted, op.key))!;
    expect(Object.keys(detail.refs)).toContain('#/components/schemas/ErrorMessage');
  });

  test("an operation's details resolve components that only the document's tags reference", async () => {
    // APIs.guru's apideck documents: `tags[].x-apideck-model` is a `$ref` to a schema no operation
    // of the tag uses; the operation's slice carries the tags, so it must carry that schema too.
    const source = JSON.stringify({
      openapi: '3.0.0',
      info: { title: 'Shop', version: '1' },
      tags: [{ name: 'Orders', 'x-model': { $ref: '#/components/schemas/Order' } }],
      paths: {
        '/orders': {
          get: {
            operationId: 'listOrders',
            tags: ['Orders'],
            responses: {
              '200': {
                description: 'Orders',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/List' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Order: { type: 'object', properties: { id: { type: 'string' } } },
          List: { type: 'array', items: { type: 'string' } },
        },
      },
    });
    const r = await processOpenApi(source, opts);
    const detail = (await operationDetail(r.converted, 'listOrders'))!;
    expect(detail.responses.map((x) => x.status)).toEqual(['200']);
    const slice = cutOperationSlice(r.converted, 'get', '/orders');
    expect(Object.keys(((slice.components as Obj).schemas as Obj) ?? {}).sort()).toEqual(['List', 'Order']);
    await expect(operationSlice(r.converted, 'get', '/orders')).resolves.toBeTruthy();
  });

  test('OpenAPI 3.1 is kept as written (apart from servers and OAuth URLs)', async () => {
    const r = await processOpenApi(example('3.1/json/train-travel.json'), opts);
    expect(r.sourceSpecVersion).toMatch(/^openapi 3\.1\./);
    expect(r.operationIndex.tags.map((t) => t.name)).toEqual(expect.arrayContaining(['Stations', 'Trips']));
    const schemes = (r.converted.components as Obj).securitySchemes as Obj;
    expect(JSON.stringify(schemes)).toContain('https://portal.test/oauth/token');
    expect(danglingRefs(r.converted)).toEqual([]);
  });

  test('operations located in turns of the event loop are those located at once, keys included', async () => {
    for (const version of ['2.0', '3.0', '3.1']) {
      for (const file of fs.readdirSync(path.join(examples, version, 'json'))) {
        if (!file.endsWith('.json')) continue;
        // Two parsed copies: a document's operations are remembered once located.
        const text = example(`${version}/json/${file}`);
        const inTurns = await locateOperationsInTurns(JSON.parse(text) as Obj);
        const atOnce = locateOperations(JSON.parse(text) as Obj);
        expect(
          inTurns.map((o) => [o.key, o.method, o.path]),
          file,
        ).toEqual(atOnce.map((o) => [o.key, o.method, o.path]));
        expect(inTurns, file).toEqual(atOnce);
      }
    }
  });

  test('every sample document of @readme/oas-examples imports, and every operation has details', async () => {
    for (const version of ['2.0', '3.0', '3.1']) {
      for (const file of fs.readdirSync(path.join(examples, version, 'json'))) {
        if (!file.endsWith('.json')) continue;
        const r = await processOpenApi(example(`${version}/json/${file}`), opts);
        expect(r.converted.openapi, file).toBe('3.1.0');
        expect(danglingRefs(r.converted), file).toEqual([]);
        for (const op of locateOperations(r.converted)) {
          const detail = (await operationDetail(r.converted, op.key))!;
          expect(
            detail.samples.map((s) => s.id),
            `${file} ${op.key}`,
          ).toEqual(['curl', 'javascript', 'python', 'java', 'node']);
        }
      }
    }
  }, 60_000);

  test('the 3.0 → 3.1 upgrade rewrites the 3.0 schema dialect', () => {
    const doc = upgrade30To31({
      openapi: '3.0.3',
      components: {
        schemas: {
          A: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
          B: { type: 'string', enum: ['x'], nullable: true, example: 'x' },
          C: { allOf: [{ $ref: '#/components/schemas/A' }], nullable: true },
          D: { oneOf: [{ type: 'string' }], nullable: true },
          F: { type: 'string', format: 'binary' },
        },
      },
    });
    const s = (doc.components as Obj).schemas as Obj;
    expect(doc.openapi).toBe('3.1.0');
    expect(s.A).toEqual({ type: 'integer', exclusiveMinimum: 1, maximum: 9 });
    expect(s.B).toEqual({ type: ['string', 'null'], enum: ['x', null], example: 'x', examples: ['x'] });
    expect(s.C).toEqual({ anyOf: [{ allOf: [{ $ref: '#/components/schemas/A' }] }, { type: 'null' }] });
    expect(s.D).toEqual({ oneOf: [{ type: 'string' }, { type: 'null' }] });
    expect(s.F).toEqual({ type: 'string', contentMediaType: 'application/octet-stream' });
  });
});

describe('broken documents are rejected with what and where', () => {
  test('invalid YAML gives the line', async () => {
    const err = await importError('openapi: 3.0.3\ninfo:\n  title: "x\n  version: 1\n');
    expect(err.message).toMatch(/not valid YAML/);
    expect(err.problems[0]!.line).toBeGreaterThan(0);
  });

  test('invalid JSON gives line and column', async () => {
    const err = await importError('{\n  "openapi": "3.0.3",\n  "info": {,}\n}');
    expect(err.message).toMatch(/not valid JSON/);
    expect(err.problems[0]).toMatchObject({ line: 3 });
  });

  test('an unsupported version', async () => {
    const err = await importError('{"openapi": "4.0.0", "info": {}, "paths": {}}');
    expect(err.problems).toEqual([expect.objectContaining({ path: '/openapi' })]);
  });

  test('schema errors name the path, the problem and the line', async () => {
    const yaml = [
      'openapi: 3.0.3',
      'info:',
      '  title: Broken',
      'paths:',
      '  /accounts:',
      '    get:',
      '      parameters:',
      '        - name: limit',
      '          in: querystring',
      '          schema: { type: integer }',
      '      responses:',
      "        '200':",
      '          descriptio: OK',
    ].join('\n');
    const err = await importError(yaml);
    expect(err.problems).toEqual(
      expect.arrayContaining([
        { path: '/info', message: "must have required property 'version'", line: 2, column: 1 },
        expect.objectContaining({
          path: '/paths/~1accounts/get/parameters/0/in',
          message: 'must be one of: "path", "query", "header", "cookie"',
          line: 9,
        }),
        expect.objectContaining({
          path: '/paths/~1accounts/get/responses/200/descriptio',
          message: "unknown property 'descriptio'",
          line: 13,
        }),
      ]),
    );
    // The noise of failed oneOf alternatives is gone.
    expect(err.problems.some((p) => /oneOf|'\$ref'/.test(p.message))).toBe(false);
    expect(err.message).toContain(
      "line 13:11, /paths/~1accounts/get/responses/200/descriptio: unknown property 'descriptio'",
    );
  });

  test('a missing path parameter and a dangling $ref point at their operation', async () => {
    const missing = await importError(
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'x', version: '1' },
        paths: { '/accounts/{id}': { get: { responses: { '200': { description: 'OK' } } } } },
      }),
    );
    expect(missing.problems[0]).toMatchObject({ path: '/paths/~1accounts~1{id}/get' });
    expect(missing.problems[0]!.message).toMatch(/missing path parameter/);

    const dangling = await importError(
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: {
          '/a': {
            get: {
              responses: {
                '200': {
                  description: 'OK',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Nope' } } },
                },
              },
            },
          },
        },
      }),
    );
    expect(dangling.problems[0]!.path).toBe(
      '/paths/~1a/get/responses/200/content/application~1json/schema/$ref',
    );
  });

  test('external references are never fetched', async () => {
    const err = await importError(
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'x', version: '1' },
        paths: { '/a': { $ref: 'file:///etc/passwd' } },
      }),
    ).catch((e: unknown) => e);
    // Either rejected or imported with the reference untouched: never the file's content.
    expect(JSON.stringify(err)).not.toContain('root:');
  });
});
