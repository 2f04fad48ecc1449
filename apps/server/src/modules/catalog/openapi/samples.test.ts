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
