import { describe, expect, it } from 'vitest';
import { CompiledApi } from './compiled-api.ts';
import { mockResponse, mockResponseInTurns } from './mock.ts';
import type { OpenApiDocument, Operation } from './openapi.ts';

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
  });
});
