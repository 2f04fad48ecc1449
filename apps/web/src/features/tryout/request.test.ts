import { describe, expect, it } from 'vitest';
import type { OperationDetail, ParameterDetail } from '@portico/contracts/catalog';
import { buildRequest, describeRequest, initialForm, requiredErrors, toCurl } from './request';

const op: Pick<OperationDetail, 'method' | 'path' | 'server' | 'parameters' | 'requestBody'> = {
  method: 'post',
  path: '/accounts/{accountId}/payments',
  server: 'https://portal.example/sandbox/payments-v1',
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
      name: 'status',
      in: 'query',
      required: false,
      deprecated: false,
      description: null,
      schema: { type: 'string', enum: ['booked', 'pending'], default: 'booked' },
    },
    {
      name: 'ids',
      in: 'query',
      required: false,
      deprecated: false,
      description: null,
      schema: { type: 'array', items: { type: 'string' } },
    },
    {
      name: 'X-Request-ID',
      in: 'header',
      required: true,
      deprecated: false,
      description: null,
      schema: { type: 'string' },
    },
    { name: 'session', in: 'cookie', required: true, deprecated: false, description: null, schema: null },
  ],
  requestBody: {
    description: null,
    required: true,
    content: { 'application/json': { schema: { type: 'object' }, example: { amount: 10 } } },
  },
};

describe('try-out request', () => {
  it('pre-fills defaults and the body example', () => {
    const form = initialForm(op);
    expect(form.query.status).toBe('booked');
    expect(form.path.accountId).toBe('');
    expect(JSON.parse(form.body)).toEqual({ amount: 10 });
  });

  it("pre-fills named examples, but not one that the parameter's enum refuses", () => {
    const param = (name: string, extra: Partial<ParameterDetail>): ParameterDetail => ({
      name,
      in: 'query',
      required: true,
      deprecated: false,
      description: null,
      schema: { type: 'string' },
      ...extra,
    });
    const form = initialForm({
      ...op,
      parameters: [
        param('lang', { examples: { english: 'en', german: 'de' } }),
        // Azure's network-vmssPublicIpAddress: the examples name a version the enum does not list.
        param('api-version', {
          schema: { type: 'string', enum: ['2017-03-30'] },
          examples: { ListVMSSPublicIP: '2018-10-01' },
        }),
        param('version', { schema: { type: 'string', enum: ['v1', 'v2'] }, example: 'v3' }),
      ],
    });
    expect(form.query).toEqual({ lang: 'en', 'api-version': '2017-03-30', version: 'v1' });
  });

  it("sends what a path's pseudo-fragment names, and leaves the fragment out of the URL", () => {
    const bare = { ...op, method: 'get' as const, requestBody: null, parameters: [] };
    const form = { path: {}, query: {}, header: {}, body: '' };
    // S3: a query key that only has to be there; Box: a label that no parameter declares.
    expect(
      buildRequest({ ...bare, path: '/{Bucket}#notification' }, { ...form, path: { Bucket: 'b' } }).url,
    ).toBe('https://portal.example/sandbox/payments-v1/b?notification=');
    // AWS: a value; one that a parameter already sends is not sent twice.
    const aws = buildRequest(
      {
        ...bare,
        path: '/#Action=AttachInstances&Version',
        parameters: [
          { name: 'Action', in: 'query', required: true, deprecated: false, description: null, schema: null },
        ],
      },
      { ...form, query: { Action: 'AttachInstances' } },
    );
    expect(aws.url).toBe('https://portal.example/sandbox/payments-v1/?Action=AttachInstances&Version=');
  });

  it('lists empty required parameters by location and name', () => {
    const form = initialForm(op);
    expect(requiredErrors(op, form)).toEqual([
      { location: 'path', name: 'accountId' },
      { location: 'header', name: 'X-Request-ID' },
      { location: 'cookie', name: 'session' },
    ]);
    form.body = ' ';
    form.path.accountId = 'acc 1';
    form.header['X-Request-ID'] = 'r1';
    form.cookie!.session = 's1';
    expect(requiredErrors(op, form)).toEqual([{ location: 'body', name: 'body' }]);
  });

  it('builds URL, query, headers and body as the spec says', () => {
    const form = initialForm(op);
    form.path.accountId = 'acc 1/2';
    form.query.ids = 'a, b';
    form.header['X-Request-ID'] = 'r1';
    const req = buildRequest(op, form, { authorization: 'Bearer tok' });
    expect(req.method).toBe('POST');
    expect(req.url).toBe(
      'https://portal.example/sandbox/payments-v1/accounts/acc%201%2F2/payments?status=booked&ids=a&ids=b',
    );
    expect(req.headers).toEqual([
      ['Accept', 'application/json'],
      ['Content-Type', 'application/json'],
      ['X-Request-ID', 'r1'],
      ['Authorization', 'Bearer tok'],
    ]);
    expect(JSON.parse(req.body!)).toEqual({ amount: 10 });
    // The required cookie was left empty: none is sent.
    expect(req.cookies).toEqual([]);
  });

  it('sends cookie parameters and a cookie API key, encoded in the curl copy and the text', () => {
    const get = { ...op, method: 'get' as const };
    const form = initialForm(get);
    form.path.accountId = 'a1';
    form.cookie!.session = 'one two;three';
    const req = buildRequest(get, form, { extraCookies: [['api_key', 'client-1']] });
    expect(req.cookies).toEqual([
      ['session', 'one two;three'],
      ['api_key', 'client-1'],
    ]);
    expect(req.headers).toEqual([['Accept', 'application/json']]);
    expect(toCurl(req)).toContain("-b 'session=one%20two%3Bthree; api_key=client-1'");
    expect(describeRequest(req)).toContain('\nCookie: session=one%20two%3Bthree; api_key=client-1');
  });

  it('reads a form saved before cookies were asked (no cookie part)', () => {
    const saved = { header: { 'X-Request-ID': 'r1' }, query: {}, path: { accountId: 'a1' }, body: '{}' };
    expect(requiredErrors(op, saved)).toEqual([{ location: 'cookie', name: 'session' }]);
    expect(buildRequest(op, saved).cookies).toEqual([]);
  });

  it('sends no body for GET and quotes curl safely', () => {
    const get = { ...op, method: 'get' as const };
    const form = initialForm(get);
    expect(form.body).toBe('');
    form.path.accountId = "o'neil";
    const req = buildRequest(get, form);
    expect(req.body).toBeNull();
    expect(req.headers).toEqual([['Accept', 'application/json']]);
    expect(toCurl(req)).toBe(
      "curl -X GET 'https://portal.example/sandbox/payments-v1/accounts/o'\\''neil/payments?status=booked' \\\n  -H 'Accept: application/json'",
    );
  });
});
