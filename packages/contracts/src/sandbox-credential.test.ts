import { describe, expect, it } from 'vitest';
import { sandboxCredential } from './catalog.ts';

describe('sandboxCredential (decision 016)', () => {
  it('names the application credential each security scheme takes in the sandbox', () => {
    expect(sandboxCredential({ type: 'apiKey' })).toBe('clientId');
    expect(sandboxCredential({ type: 'http', scheme: 'Basic' })).toBe('clientIdAndSecret');
    expect(sandboxCredential({ type: 'http', scheme: 'bearer' })).toBe('accessToken');
    expect(sandboxCredential({ type: 'oauth2' })).toBe('accessToken');
    expect(sandboxCredential({ type: 'openIdConnect' })).toBe('accessToken');
  });
});
