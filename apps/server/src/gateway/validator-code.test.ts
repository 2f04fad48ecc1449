import { describe, expect, it } from 'vitest';
import { CompiledApi, type IncomingRequest, type MatchedOperation } from './compiled-api.ts';
import { mockResponse } from './mock.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { operationValidatorCode } from './validator-code.ts';

/** Validators generated as standalone code (decision 032) answer as those compiled on first use. */
describe('validators generated as standalone code', () => {
  const line = {
    type: 'object',
    required: ['sku'],
    properties: {
      sku: { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' },
      qty: { type: 'integer', minimum: 1 },
    },
  };
  const slice: OpenApiDocument = {
    openapi: '3.1.0',
    paths: {
      '/orders/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        put: {
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'boolean' } } },
            {
              name: 'filter',
              in: 'query',
              content: { 'application/json': { schema: { type: 'object', required: ['a'] } } },
            },
          ],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
          responses: {
            '200': {
              description: 'OK',
              headers: { 'X-Rate': { schema: { type: 'integer', minimum: 5 } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Order: {
          type: 'object',
          required: ['status'],
          properties: {
            status: { enum: ['new', 'paid'] },
            placed: { type: 'string', format: 'date-time' },
            lines: { type: 'array', items: line, minItems: 1 },
            payment: {
              type: 'object',
              oneOf: [
                { required: ['card'], properties: { card: { type: 'string', minLength: 4 } } },
                { required: ['iban'], properties: { iban: { type: 'string', minLength: 15 } } },
              ],
            },
            parent: { $ref: '#/components/schemas/Order' },
          },
        },
      },
    },
  };
  const id = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
  const requests: [string, string, unknown][] = [
    [id, 'limit=5&tags=true&tags=false', { status: 'new' }],
    [id, 'limit=abc', undefined],
    [id, 'limit=500', undefined],
    [id, 'tags=maybe', undefined],
    [id, 'filter={"b":1}', undefined],
    ['not-a-uuid', '', undefined],
    [id, '', { status: 'lost' }],
    [id, '', { status: 'new', lines: [{ sku: 'x' }] }],
    [id, '', { status: 'new', placed: 'yesterday' }],
    [id, '', { status: 'new', parent: { status: 'new', lines: [] } }],
    [id, '', { status: 'new', payment: { card: '1234', iban: 'DE89370400440532013000' } }],
  ];

  function answers(api: CompiledApi) {
    return requests.map(([orderId, query, body]) => {
      const path = `/orders/${orderId}`;
      const matched = api.match('PUT', path) as MatchedOperation;
      const request: IncomingRequest = {
        method: 'PUT',
        path,
        query: new URLSearchParams(query),
        headers: {},
        contentType: 'application/json',
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      };
      return api.validate(matched, request) ?? mockResponse(matched.operation, api.doc, { check: api.check });
    });
  }

  it('answers every request as the validators compiled on first use do', async () => {
    const compiledHere = new CompiledApi(structuredClone(slice));
    const generated = new CompiledApi(structuredClone(slice));
    await generated.adopt(structuredClone(operationValidatorCode(structuredClone(slice))));
    const expected = answers(compiledHere);
    expect(expected.filter((a) => 'description' in a)).toHaveLength(requests.length - 1);
    expect(answers(generated)).toEqual(expected);
  });

  it('leaves nothing to compile on the main thread', async () => {
    const code = operationValidatorCode(structuredClone(slice));
    expect(code.entries.every((e) => e.exportName && 'path' in e.at)).toBe(true);
    const api = new CompiledApi(structuredClone(slice));
    await api.adopt(structuredClone(code));
    answers(api);
    // Ajv instances of CompiledApi are created only to compile on first use.
    expect((api as unknown as { bodyAjv?: unknown; paramsAjv?: unknown }).bodyAjv).toBeUndefined();
    expect((api as unknown as { bodyAjv?: unknown; paramsAjv?: unknown }).paramsAjv).toBeUndefined();
  });

  describe('a big operation', () => {
    // 400 described properties, some nested: a request body much like Kubernetes' resources.
    const described = (i: number) => `Property ${i} of the resource. `.repeat(12);
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 400; i++) {
      properties[`p${i}`] =
        i % 10 === 0
          ? {
              description: described(i),
              type: 'object',
              properties: { inner: { description: described(i), type: 'integer', minimum: i } },
            }
          : { description: described(i), type: 'string', maxLength: 10 + i };
    }
    const big = (extra: Record<string, unknown>): OpenApiDocument => ({
      openapi: '3.1.0',
      paths: {
        '/resources': {
          post: {
            requestBody: {
              content: {
                'application/json': { schema: { type: 'object', properties: { ...properties, ...extra } } },
              },
            },
            responses: {
              '201': {
                description: 'Created',
                content: { 'application/json': { schema: { type: 'object', properties } } },
              },
            },
          },
        },
      },
    });
    const post = (api: CompiledApi, body: unknown) => {
      const matched = api.match('POST', '/resources') as MatchedOperation;
      return api.validate(matched, {
        method: 'POST',
        path: '/resources',
        query: new URLSearchParams(),
        headers: {},
        contentType: 'application/json',
        body: Buffer.from(JSON.stringify(body)),
      });
    };
    const bodies: unknown[] = [
      { p1: 'short' },
      { p1: 'x'.repeat(12) },
      { p10: { inner: 9 } },
      { p10: { inner: 10 } },
      { p399: 'y'.repeat(409) },
      { p399: 'y'.repeat(410) },
      { kind: { a: 1 } },
      { kind: { a: 2 } },
      { shape: { round: true } },
      { shape: { round: 'no' } },
    ];

    it('is generated in modules of at most 128 K characters, without the schemas as data', async () => {
      const doc = big({});
      const code = operationValidatorCode(structuredClone(doc));
      const modules = [...code.modules.param, ...code.modules.schema];
      const total = modules.reduce((sum, m) => sum + m.length, 0);
      // Ajv declares every compiled schema as data (descriptions and all), used or not: unused
      // ones are left out of the code.
      expect(modules.join('')).not.toContain(described(1));
      expect(code.modules.schema.length).toBeGreaterThan(1);
      expect(total).toBeGreaterThan(128 * 1024);
      for (const module of modules) {
        // An export larger than a module's size is alone in its module.
        const exports = module.match(/exports\.s\d+ = /g) ?? [];
        expect(module.length <= 128 * 1024 || exports.length === 1).toBe(true);
      }
      const generated = new CompiledApi(structuredClone(doc));
      await generated.adopt(structuredClone(code));
      const compiledHere = new CompiledApi(structuredClone(doc));
      expect(bodies.map((b) => post(generated, b))).toEqual(bodies.map((b) => post(compiledHere, b)));
      expect(bodies.map((b) => post(generated, b)).filter(Boolean)).toHaveLength(3);
    });

    it('keeps the schemas its validators read at run time (objects in const and enum)', async () => {
      const doc = big({
        kind: { const: { a: 1 } },
        shape: { enum: [{ round: true }, { round: false }] },
      });
      const code = operationValidatorCode(structuredClone(doc));
      const generated = new CompiledApi(structuredClone(doc));
      await generated.adopt(structuredClone(code));
      const compiledHere = new CompiledApi(structuredClone(doc));
      const answers = bodies.map((b) => post(generated, b));
      expect(answers).toEqual(bodies.map((b) => post(compiledHere, b)));
      expect(answers.filter(Boolean)).toHaveLength(5);
      // Nothing was left to compile on first use.
      expect((generated as unknown as { bodyAjv?: unknown }).bodyAjv).toBeUndefined();
    });
  });
});
