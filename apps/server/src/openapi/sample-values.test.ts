import { describe, expect, it } from 'vitest';
import { harRequest } from './samples.ts';
import { sampleValue } from './sample-values.ts';

const param = (name: string, schema: unknown, extra: Record<string, unknown> = {}) =>
  sampleValue({ name, schema: schema as never, ...extra }, {});

describe('the value a request sample puts for a parameter', () => {
  it("takes the parameter's example, then its examples, then the schema's example, default, enum", () => {
    expect(param('accountId', { type: 'string', example: 'b' }, { example: 'a' })).toBe('a');
    expect(param('accountId', { type: 'string' }, { examples: { one: 'DE-1', two: 'DE-2' } })).toBe('DE-1');
    expect(param('limit', { type: 'integer', example: 25, default: 10 })).toBe(25);
    expect(param('limit', { type: 'integer', examples: [30], default: 10 })).toBe(30);
    expect(param('limit', { type: 'integer', default: 10, minimum: 1 })).toBe(10);
    expect(param('status', { type: 'string', enum: ['booked', 'pending'] })).toBe('booked');
    expect(param('status', { type: ['string', 'null'], enum: [null, 'active'] })).toBe('active');
  });

  it("passes over an example that the schema's enum refuses (the sandbox would refuse it too)", () => {
    // Azure's network-vmssPublicIpAddress: the examples name an api-version the enum does not list.
    const apiVersion = { type: 'string', enum: ['2017-03-30'] };
    expect(param('api-version', apiVersion, { examples: { ListVMSSPublicIP: '2018-10-01' } })).toBe(
      '2017-03-30',
    );
    expect(param('api-version', apiVersion, { example: '2018-10-01' })).toBe('2017-03-30');
    expect(param('api-version', { ...apiVersion, example: '2018-10-01', default: '2019-01-01' })).toBe(
      '2017-03-30',
    );
    // Through a $ref, as the document writes shared parameters' schemas.
    const doc = { components: { schemas: { Version: apiVersion } } };
    expect(
      sampleValue(
        { name: 'api-version', schema: { $ref: '#/components/schemas/Version' }, example: '2018-10-01' },
        doc,
      ),
    ).toBe('2017-03-30');
  });

  it('generates format-aware values, never a type name', () => {
    expect(param('id', { type: 'string', format: 'uuid' })).toBe('3fa85f64-5717-4562-b3fc-2c963f66afa6');
    expect(param('from', { type: 'string', format: 'date' })).toBe('2026-01-15');
    expect(param('at', { type: 'string', format: 'date-time' })).toBe('2026-01-15T09:30:00Z');
    expect(param('to', { type: 'string', format: 'email' })).toBe('customer@example.com');
    expect(param('accountId', { type: 'string' })).toBe('12345');
    expect(param('currency', { type: 'string' })).toBe('EUR');
    for (const schema of [
      { type: 'string' },
      {},
      { type: 'integer' },
      { type: 'number' },
      { type: 'boolean' },
    ]) {
      expect(['string', 'integer', 'number', 'boolean', 'object']).not.toContain(String(param('x', schema)));
    }
  });

  it('keeps integers within their range and step', () => {
    expect(param('page', { type: 'integer' })).toBe(1);
    expect(param('page', { type: 'integer', minimum: 3, maximum: 9 })).toBe(3);
    expect(param('offset', { type: 'integer', minimum: 0 })).toBe(0);
    expect(param('n', { type: 'integer', exclusiveMinimum: 5 })).toBe(6);
    expect(param('n', { type: 'integer', maximum: -4 })).toBe(-4);
    expect(param('n', { type: 'integer', exclusiveMaximum: 1 })).toBe(0);
    expect(param('n', { type: 'integer', minimum: 7, multipleOf: 5 })).toBe(10);
    expect(param('amount', { type: 'number', minimum: 0.5 })).toBe(0.5);
  });

  it('matches a pattern and respects lengths', () => {
    const sid = param('AccountSid', { type: 'string', pattern: '^AC[0-9a-fA-F]{32}$', minLength: 34 });
    expect(sid).toMatch(/^AC[0-9a-fA-F]{32}$/);
    expect(param('code', { type: 'string', pattern: '^[A-Z]{3}$' })).toMatch(/^[A-Z]{3}$/);
    expect(String(param('q', { type: 'string', minLength: 12 })).length).toBeGreaterThanOrEqual(12);
    expect(String(param('accountId', { type: 'string', maxLength: 3 })).length).toBeLessThanOrEqual(3);
    // A name hint ('Jane Doe' for a name) never stands in for a pattern's match (AWS FinSpace).
    const database = param('databaseName', {
      type: 'string',
      pattern: '^[a-zA-Z0-9][a-zA-Z0-9-_]*[a-zA-Z0-9]$',
      minLength: 3,
      maxLength: 63,
    });
    expect(database).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9-_]*[a-zA-Z0-9]$/);
    expect(String(database).length).toBeGreaterThanOrEqual(3);
  });

  it('follows $ref, oneOf and arrays', () => {
    const doc = { components: { schemas: { Id: { type: 'string', format: 'uuid' } } } };
    expect(sampleValue({ name: 'x', schema: { $ref: '#/components/schemas/Id' } }, doc)).toBe(
      '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    );
    expect(param('x', { oneOf: [{ type: 'null' }, { type: 'integer', minimum: 2 }] })).toBe(2);
    expect(param('ids', { type: 'array', items: { type: 'string', format: 'uuid' } })).toEqual([
      '3fa85f64-5717-4562-b3fc-2c963f66afa6',
    ]);
  });

  it('a path sample reads /accounts/12345/transactions, not /accounts/string/transactions', () => {
    const har = harRequest(
      {
        method: 'get',
        server: 'https://portal.example/sandbox/a',
        path: '/accounts/{accountId}/transactions',
        parameters: [
          {
            name: 'accountId',
            in: 'path',
            required: true,
            deprecated: false,
            description: null,
            schema: { type: 'string' },
          },
          {
            name: 'limit',
            in: 'query',
            required: true,
            deprecated: false,
            description: null,
            schema: { type: 'integer', maximum: 100 },
          },
        ],
        requestBody: null,
        security: [],
        accept: null,
        schemes: {},
      },
      {},
    );
    expect(har.url).toBe('https://portal.example/sandbox/a/accounts/12345/transactions');
    expect(har.queryString).toEqual([{ name: 'limit', value: '1' }]);
  });

  it("leaves a path's pseudo-fragment out of the URL ('/#Action=AttachInstances', AWS)", () => {
    const har = harRequest(
      {
        method: 'get',
        server: 'https://portal.example/sandbox/aws',
        path: '/#Action=AttachInstances',
        parameters: [
          {
            name: 'Action',
            in: 'query',
            required: true,
            deprecated: false,
            description: null,
            schema: { type: 'string', enum: ['AttachInstances'] },
          },
        ],
        requestBody: null,
        security: [],
        accept: null,
        schemes: {},
      },
      {},
    );
    expect(har.url).toBe('https://portal.example/sandbox/aws/');
    expect(har.queryString).toEqual([{ name: 'Action', value: 'AttachInstances' }]);
  });
});
