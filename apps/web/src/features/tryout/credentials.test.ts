import { describe, expect, it } from 'vitest';
import type { OperationDetail, SecuritySchemeSummary } from '@portico/contracts/catalog';
import { credentialOptions, withoutCredentialParameters, type RequiredScheme } from './credentials';

const app = { clientId: 'client-1', secret: 's3cret' };
const token = { accessToken: 'tok', tokenType: 'Bearer', expiresAt: Date.now() + 60_000, scopes: [] };

function required(scheme: SecuritySchemeSummary): RequiredScheme {
  return { requirement: { scheme: scheme.name, type: scheme.type, scopes: [] }, scheme };
}
const queryKey = required({ name: 'key', type: 'apiKey', in: 'query', paramName: 'key', description: null });
const cookieKey = required({
  name: 'session',
  type: 'apiKey',
  in: 'cookie',
  paramName: 'session_id',
  description: null,
});
const basic = required({ name: 'basic', type: 'http', scheme: 'basic', description: null });
const authorizationKey = required({
  name: 'registry_oauth2',
  type: 'apiKey',
  in: 'header',
  paramName: 'Authorization',
  description: null,
});
const oauth = required({ name: 'oauth', type: 'oauth2', description: null });

describe('the try-out sends the credentials the sandbox reads', () => {
  it('maps each scheme to the application: client id as key, id and secret as Basic, the token', () => {
    expect(credentialOptions([queryKey], app, null)).toMatchObject({
      extraQuery: { key: 'client-1' },
      places: ['query:key'],
    });
    expect(credentialOptions([cookieKey], app, null)).toMatchObject({
      extraCookies: [['session_id', 'client-1']],
      extraHeaders: [],
      places: ['cookie:session_id'],
    });
    expect(credentialOptions([basic], app, null).authorization).toBe(`Basic ${btoa('client-1:s3cret')}`);
    expect(credentialOptions([oauth], app, token).authorization).toBe('Bearer tok');
    // Nothing to send yet: no place is taken.
    expect(credentialOptions([oauth, queryKey], null, null).places).toEqual([]);
  });

  it('sends the first of two schemes in one header (Azure Container Registry), not both', () => {
    const options = credentialOptions([basic, authorizationKey], app, null);
    expect(options.authorization).toBe(`Basic ${btoa('client-1:s3cret')}`);
    expect(options.extraHeaders).toEqual([]);
    expect(options.places).toEqual(['header:authorization']);
  });

  it('leaves out a parameter a credential stands for (spinbot.net declares its key as one)', () => {
    const op = {
      parameters: [
        { name: 'key', in: 'query', required: true, deprecated: false, description: null, schema: null },
        { name: 'text', in: 'query', required: true, deprecated: false, description: null, schema: null },
      ],
    } as Pick<OperationDetail, 'parameters'>;
    expect(withoutCredentialParameters(op, ['query:key']).parameters.map((p) => p.name)).toEqual(['text']);
    expect(withoutCredentialParameters(op, [])).toBe(op);
  });
});
