import { describe, expect, it } from 'vitest';
import { harRequest } from './samples.ts';

const base = {
  method: 'get',
  server: 'http://localhost:3000/sandbox/x',
  path: '/things',
  parameters: [],
  requestBody: null,
  accept: null,
  schemes: {
    headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
    cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
    basic: { type: 'http', scheme: 'basic' },
    oauth: { type: 'oauth2', flows: {} },
  },
};
const scheme = (name: string, type: string) => [{ scheme: name, type, scopes: [] }];

describe('code samples name the credentials the sandbox takes (decision 016)', () => {
  it('the client id as API key, client id and secret for Basic, an access token otherwise', () => {
    expect(harRequest({ ...base, security: [scheme('headerKey', 'apiKey')] }, {}).headers).toContainEqual({
      name: 'X-API-Key',
      value: '<CLIENT_ID>',
    });
    expect(harRequest({ ...base, security: [scheme('queryKey', 'apiKey')] }, {}).queryString).toContainEqual({
      name: 'api_key',
      value: '<CLIENT_ID>',
    });
    expect(harRequest({ ...base, security: [scheme('cookieKey', 'apiKey')] }, {}).cookies).toContainEqual({
      name: 'session',
      value: '<CLIENT_ID>',
    });
    expect(harRequest({ ...base, security: [scheme('basic', 'http')] }, {}).headers).toContainEqual({
      name: 'Authorization',
      value: 'Basic <BASE64(CLIENT_ID:CLIENT_SECRET)>',
    });
    expect(harRequest({ ...base, security: [scheme('oauth', 'oauth2')] }, {}).headers).toContainEqual({
      name: 'Authorization',
      value: 'Bearer <ACCESS_TOKEN>',
    });
  });
});

describe('code samples send each credential once, in its place', () => {
  const param = (name: string, where: 'query' | 'header') => ({
    name,
    in: where,
    required: true,
    deprecated: false,
    description: null,
    schema: { type: 'string' },
  });

  it('an API key also declared as a required parameter is sent once, as the credential (spinbot.net)', () => {
    const query = harRequest(
      { ...base, parameters: [param('api_key', 'query')], security: [scheme('queryKey', 'apiKey')] },
      {},
    ).queryString;
    expect(query).toEqual([{ name: 'api_key', value: '<CLIENT_ID>' }]);
    const headers = harRequest(
      { ...base, parameters: [param('x-api-key', 'header')], security: [scheme('headerKey', 'apiKey')] },
      {},
    ).headers;
    expect(headers.filter((h) => h.name.toLowerCase() === 'x-api-key')).toEqual([
      { name: 'X-API-Key', value: '<CLIENT_ID>' },
    ]);
  });

  it('two schemes of one requirement in one header: the first is sent (Azure Container Registry)', () => {
    const har = harRequest(
      {
        ...base,
        schemes: {
          ...base.schemes,
          authorizationKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
        },
        security: [[...scheme('basic', 'http'), ...scheme('authorizationKey', 'apiKey')]],
      },
      {},
    );
    expect(har.headers.filter((h) => h.name.toLowerCase() === 'authorization')).toEqual([
      { name: 'Authorization', value: 'Basic <BASE64(CLIENT_ID:CLIENT_SECRET)>' },
    ]);
  });

  it('header parameters named Authorization, Accept or Content-Type are not sent (OpenAPI ignores them)', () => {
    const har = harRequest(
      {
        ...base,
        accept: 'application/json',
        parameters: [param('Authorization', 'header'), param('Accept', 'header')],
        security: [scheme('oauth', 'oauth2')],
      },
      {},
    );
    expect(har.headers).toEqual([
      { name: 'Authorization', value: 'Bearer <ACCESS_TOKEN>' },
      { name: 'Accept', value: 'application/json' },
    ]);
  });
});
