import { describe, expect, it } from 'vitest';
import { CompiledApi } from './compiled-api.ts';
import type { OpenApiDocument, Operation } from '../openapi/document.ts';
import { exampleFromSchema } from '../openapi/schema-example.ts';
import { mockResponse, mockResponseInTurns } from './mock.ts';

/** An answer of 1,500 properties, each made from a pattern, an enum, a oneOf or an allOf. */
function bigAnswer(): OpenApiDocument {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 1500; i++) {
    properties[`p${i}`] = [
      { type: 'string', pattern: `^AC[0-9a-f]{${8 + (i % 24)}}$` },
      { type: 'string', enum: ['new', 'paid'] },
      {
        oneOf: [
          { type: 'integer', minimum: i },
          { type: 'string', format: 'uuid' },
        ],
      },
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } } },
          { $ref: '#/components/schemas/Part' },
        ],
      },
    ][i % 4];
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Big answer', version: '1' },
    paths: {
      '/big': {
        get: {
          responses: {
            '200': {
              description: 'OK',
              headers: { 'X-Request-Id': { schema: { type: 'string', pattern: '^req-[0-9]{6}$' } } },
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['p0'], properties },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: { Part: { type: 'object', properties: { b: { type: 'integer', minimum: 3 } } } },
    },
  } as unknown as OpenApiDocument;
}

describe('generated answers in turns of the event loop', () => {
  it('are the answers made at once, and let the event loop turn while they are made', async () => {
    const doc = bigAnswer();
    const api = new CompiledApi(doc);
    const operation = (doc.paths!['/big'] as { get: Operation }).get;
    const atOnce = mockResponse(operation, doc, { check: api.check });

    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = turns;
    const inTurns = await mockResponseInTurns(operation, doc, { check: api.check });
    const during = turns - before;
    counting = false;

    expect(inTurns).toEqual(atOnce);
    const body = inTurns.body as Record<string, unknown>;
    expect(Object.keys(body)).toHaveLength(1500);
    expect(body.p0).toMatch(/^AC[0-9a-f]{8}$/);
    expect(body.p3).toEqual({ a: 'string', b: 3 });
    expect(inTurns.headers['X-Request-Id']).toMatch(/^req-[0-9]{6}$/);
    // Made at once, the answer took one turn; here the loop turned while it was made (slices of
    // 8 ms: how many depends on the machine's speed, at least one pause for 1,500 patterns).
    expect(during).toBeGreaterThanOrEqual(1);
    // 1,500 values made and checked twice: about 2.5 s on a quiet machine, past the default 5 s
    // on a busy one (timed out at load average 8 beside a CI run).
  }, 30_000);
});

/** One GET /thing answered 200 with these media types. */
function answering(content: Record<string, unknown>): { doc: OpenApiDocument; operation: Operation } {
  const doc = {
    openapi: '3.1.0',
    info: { title: 'Answers', version: '1' },
    paths: { '/thing': { get: { responses: { '200': { description: 'OK', content } } } } },
    components: {
      examples: { Truncated: { value: { certificate: 'MTTC3TCCAcWgAwIBAgIQEj9h+ZLlXK9KrqZX9UkAn' } } },
    },
  } as unknown as OpenApiDocument;
  return { doc, operation: (doc.paths!['/thing'] as { get: Operation }).get };
}

describe("the documents' own examples", () => {
  const schema = {
    type: 'object',
    required: ['certificate'],
    properties: { certificate: { type: 'string', format: 'byte' } },
  };

  it('answer as written when valid for the schema, and are generated over when not', () => {
    const { doc, operation } = answering({
      'application/json': {
        schema,
        examples: {
          broken: { $ref: '#/components/examples/Truncated' },
          fine: { value: { certificate: 'U2FuZGJveA==' } },
        },
      },
    });
    const { check } = new CompiledApi(doc);
    // The first named example is not valid base64: the next valid one is answered.
    expect(mockResponse(operation, doc, { check }).body).toEqual({ certificate: 'U2FuZGJveA==' });
    // A client that asks for one by name gets it as written.
    expect(mockResponse(operation, doc, { check, preferExample: 'broken' }).body).toEqual({
      certificate: 'MTTC3TCCAcWgAwIBAgIQEj9h+ZLlXK9KrqZX9UkAn',
    });

    const onlyBroken = answering({
      'application/json': { schema, examples: { broken: { $ref: '#/components/examples/Truncated' } } },
    });
    const answer = mockResponse(onlyBroken.operation, onlyBroken.doc, {
      check: new CompiledApi(onlyBroken.doc).check,
    });
    expect(answer.body).toEqual({ certificate: 'U2FuZGJveA==' });
  });

  it('are not taken for a value of another type, even without a full check (request samples)', () => {
    const { doc, operation } = answering({
      'application/json': {
        schema: {
          type: 'object',
          required: ['phone', 'count'],
          properties: {
            phone: { type: 'string', example: 5555551234, maxLength: 20 },
            count: { type: 'number', example: 3 },
          },
        },
      },
    });
    const body = mockResponse(operation, doc, {}).body as { phone: unknown; count: unknown };
    expect(typeof body.phone).toBe('string');
    expect(body.count).toBe(3);
  });

  it('answer in the documented media type that the client accepts, whatever its parameters', () => {
    const { doc, operation } = answering({
      'application/json': { schema: { type: 'string' } },
      'text/csv; charset=utf-8': { schema: { type: 'string' }, example: 'a,b' },
    });
    const answer = mockResponse(operation, doc, { accept: 'text/csv' });
    expect(answer.contentType).toBe('text/csv; charset=utf-8');
    expect(answer.body).toBe('a,b');
  });
});

describe('documented response headers', () => {
  it("are answered, but not the transport's, nor those acting on the portal's origin", () => {
    const example = (value: string) => ({ schema: { type: 'string' }, example: value });
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Headers', version: '1' },
      paths: {
        '/thing': {
          get: {
            responses: {
              '200': {
                description: 'OK',
                headers: {
                  'X-Rate-Limit': example('50'),
                  Location: example('/things/1'),
                  'content-encoding': example('gzip'),
                  'Content-Length': example('41043'),
                  'set-cookie': example('session=stolen; path=/'),
                  'Access-Control-Allow-Origin': example('*'),
                  'Content-Security-Policy': example('default-src *'),
                  'report-to': example('{"group":"cf-nel"}'),
                  'Keep-Alive': example('timeout=72'),
                },
                content: { 'application/json': { schema: { type: 'object' } } },
              },
            },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const operation = (doc.paths!['/thing'] as { get: Operation }).get;
    expect(mockResponse(operation, doc, {}).headers).toEqual({ 'X-Rate-Limit': '50', Location: '/things/1' });
  });
});

describe('generated values deep in a schema', () => {
  it('leave out what cannot be made there, never an empty list or an object of another type', () => {
    // Levels of required objects, the last with an optional list of at least one tag and a kind,
    // written as AWS documents write every property: an allOf of a $ref and a description.
    for (const levels of [5, 6]) {
      let level: Record<string, unknown> = {
        type: 'object',
        properties: {
          Tags: { allOf: [{ $ref: '#/components/schemas/TagList' }, { description: 'The tags.' }] },
          Kind: { allOf: [{ $ref: '#/components/schemas/Kind' }, { description: 'The kind.' }] },
        },
      };
      for (let i = 0; i < levels; i++)
        level = { type: 'object', required: ['next'], properties: { next: level } };
      const { doc, operation } = answering({ 'application/json': { schema: level } });
      Object.assign(doc, {
        components: {
          schemas: {
            TagList: { type: 'array', minItems: 1, items: { type: 'string' } },
            Kind: { type: 'string', enum: ['a', 'b'] },
          },
        },
      });
      const body = mockResponse(operation, doc, {}).body;
      expect(new CompiledApi(doc).check(level as never, body), JSON.stringify(body)).toBe(true);
    }
  });
});

describe('required values far down a schema', () => {
  it('are made past the depth where optional ones stop, and a required circular chain ends', () => {
    // Amazon EMR on EKS: twelve levels of required objects written as AWS writes every property (an
    // allOf of a $ref and a description), each with an optional sibling, the last a required list.
    const schemas: Record<string, unknown> = {
      Level12: {
        type: 'object',
        required: ['ids'],
        properties: { ids: { type: 'array', minItems: 1, items: { type: 'string' } } },
      },
    };
    for (let i = 11; i >= 0; i--) {
      schemas[`Level${i}`] = {
        type: 'object',
        required: ['next'],
        properties: {
          next: { allOf: [{ $ref: `#/components/schemas/Level${i + 1}` }, { description: 'Next.' }] },
          note: { type: 'string' },
        },
      };
    }
    // A circular schema whose property is required: no finite value exists, generation ends.
    schemas.Loop = {
      type: 'object',
      required: ['loop'],
      properties: { loop: { $ref: '#/components/schemas/Loop' } },
    };
    const { doc, operation } = answering({
      'application/json': { schema: { $ref: '#/components/schemas/Level0' } },
    });
    Object.assign(doc, { components: { schemas } });
    const api = new CompiledApi(doc);
    const body = mockResponse(operation, doc, { check: api.check }).body;
    expect(api.check({ $ref: '#/components/schemas/Level0' } as never, body), JSON.stringify(body)).toBe(
      true,
    );
    // Optional properties stop where they did: the answer stays small.
    expect(JSON.stringify(body).match(/"note"/g)?.length).toBeLessThan(8);
    expect(() => exampleFromSchema({ $ref: '#/components/schemas/Loop' }, doc)).not.toThrow();
  });
});

describe('an allOf part that re-describes a property', () => {
  it("keeps the value another part makes (Vonage's messages: text described again)", () => {
    const schema = {
      allOf: [
        { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 1000 } } },
        { properties: { text: { description: 'The text of the message.' } } },
      ],
    };
    const value = exampleFromSchema(schema, {}) as Record<string, unknown>;
    expect(typeof value.text).toBe('string');
    expect(new CompiledApi(answering({}).doc).check(schema as never, value)).toBe(true);
  });
});

describe('a required property the schema does not describe', () => {
  it('gets a value its additionalProperties allow (Vonage requires `message` and lists only `client_ref`)', () => {
    const loose = { type: 'object', required: ['to', 'message'], properties: { to: { type: 'string' } } };
    expect(exampleFromSchema(loose, {})).toEqual({ to: 'string', message: 'string' });
    const numbers = { ...loose, additionalProperties: { type: 'integer', minimum: 3 } };
    expect(exampleFromSchema(numbers, {})).toEqual({ to: 'string', message: 3 });
    // None is allowed: nothing to make (no value satisfies the schema).
    expect(exampleFromSchema({ ...loose, additionalProperties: false }, {})).toEqual({ to: 'string' });
    // A pattern of patternProperties that names it describes it, whatever additionalProperties say.
    const patterned = {
      ...loose,
      additionalProperties: false,
      patternProperties: { '^mess': { type: 'boolean' } },
    };
    expect(exampleFromSchema(patterned, {})).toEqual({ to: 'string', message: true });
    // Another part of an allOf describes it, before or after: its value, not the placeholder.
    const phone = { properties: { message: { type: 'string', pattern: '^[0-9]{7}$' } } };
    for (const allOf of [
      [loose, phone],
      [phone, loose],
    ]) {
      const value = exampleFromSchema({ allOf }, {}) as Record<string, unknown>;
      expect(value.message).toMatch(/^[0-9]{7}$/);
    }
  });
});

describe('a pattern with lookaheads', () => {
  it('gives a value the pattern matches (QLDB ledger names)', () => {
    const pattern = '(?!^.*--)(?!^[0-9]+$)(?!^-)(?!.*-$)^[A-Za-z0-9-]+$';
    for (const lengths of [{ minLength: 1, maxLength: 32 }, {}, { minLength: 3, maxLength: 5 }]) {
      const value = exampleFromSchema({ type: 'string', pattern, ...lengths }, {});
      expect(typeof value).toBe('string');
      expect(new RegExp(pattern).test(value as string), String(value)).toBe(true);
    }
  });
});

describe('an allOf beside properties of its own', () => {
  it("takes the schema's own properties and leaves out what its additionalProperties refuses", () => {
    // Azure's Data Factory: a factory is an allOf of a resource (eTag, name: strings) with its own
    // identity, and `additionalProperties: { type: object }` applies to the resource's properties too.
    const schema = {
      type: 'object',
      additionalProperties: { type: 'object' },
      allOf: [{ $ref: '#/components/schemas/Resource' }],
      properties: {
        identity: { type: 'object', properties: { type: { type: 'string', enum: ['SystemAssigned'] } } },
      },
    };
    const { doc, operation } = answering({ 'application/json': { schema } });
    Object.assign(doc, {
      components: {
        schemas: {
          Resource: {
            properties: {
              eTag: { type: 'string', readOnly: true },
              tags: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
        },
      },
    });
    const api = new CompiledApi(doc);
    const body = mockResponse(operation, doc, { check: api.check }).body as Record<string, unknown>;
    expect(body.identity).toEqual({ type: 'SystemAssigned' });
    expect(body).not.toHaveProperty('eTag');
    expect(api.check(schema as never, body)).toBe(true);
  });
});
