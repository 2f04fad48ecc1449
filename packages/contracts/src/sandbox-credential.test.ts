import { describe, expect, it } from 'vitest';
import { credentialPlace, parameterInPlace, sandboxCredential } from './catalog.ts';

describe('sandboxCredential (decision 016)', () => {
  it('names the application credential each security scheme takes in the sandbox', () => {
    expect(sandboxCredential({ type: 'apiKey' })).toBe('clientId');
    expect(sandboxCredential({ type: 'http', scheme: 'Basic' })).toBe('clientIdAndSecret');
    expect(sandboxCredential({ type: 'http', scheme: 'bearer' })).toBe('accessToken');
    expect(sandboxCredential({ type: 'oauth2' })).toBe('accessToken');
    expect(sandboxCredential({ type: 'openIdConnect' })).toBe('accessToken');
  });
});

describe('credentialPlace and parameterInPlace (decision 016, amended)', () => {
  it('says where each credential travels, header names without case', () => {
    expect(credentialPlace({ type: 'http', scheme: 'basic' })).toBe('header:authorization');
    expect(credentialPlace({ type: 'oauth2' })).toBe('header:authorization');
    expect(credentialPlace({ type: 'apiKey', in: 'header', name: 'Authorization' })).toBe(
      'header:authorization',
    );
    expect(credentialPlace({ type: 'apiKey', in: 'header', name: 'X-API-Key' })).toBe('header:x-api-key');
    expect(credentialPlace({ type: 'apiKey', in: 'query', name: 'Key' })).toBe('query:Key');
    expect(credentialPlace({ type: 'apiKey', in: 'cookie', name: 'session' })).toBe('cookie:session');
    // An API key without a name is read as a token.
    expect(credentialPlace({ type: 'apiKey', in: 'query' })).toBe('header:authorization');
  });

  it('finds the parameter a credential stands for', () => {
    expect(parameterInPlace({ in: 'query', name: 'key' }, 'query:key')).toBe(true);
    expect(parameterInPlace({ in: 'header', name: 'x-API-key' }, 'header:x-api-key')).toBe(true);
    expect(parameterInPlace({ in: 'query', name: 'Key' }, 'query:key')).toBe(false);
    expect(parameterInPlace({ in: 'header', name: 'key' }, 'query:key')).toBe(false);
  });
});
