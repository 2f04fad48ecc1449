import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { clientSecretsRepo } from '../src/authz-server/secret-rotation.ts';
import { clientCredentials } from './applications-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** One operation per security scheme the sandbox maps to an application's credentials (decision 016). */
const ok = { '200': { description: 'OK', content: { 'application/json': { example: { ok: true } } } } };
const SCHEMES_API = {
  openapi: '3.1.0',
  info: { title: 'Schemes API', version: '1.0.0' },
  components: {
    securitySchemes: {
      headerKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
      cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
      basic: { type: 'http', scheme: 'basic' },
      authorizationKey: { type: 'apiKey', in: 'header', name: 'Authorization' },
      oauthImplicit: {
        type: 'oauth2',
        flows: {
          implicit: { authorizationUrl: 'https://x.example/authorize', scopes: { 'things:write': 'Write' } },
        },
      },
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      oauth: {
        type: 'oauth2',
        flows: {
          clientCredentials: { tokenUrl: 'https://x.example/token', scopes: { 'things:read': 'Read' } },
        },
      },
    },
  },
  paths: {
    '/header-key': { get: { security: [{ headerKey: [] }], responses: ok } },
    '/query-key': { get: { security: [{ queryKey: [] }], responses: ok } },
    '/cookie-key': { get: { security: [{ cookieKey: [] }], responses: ok } },
    '/basic': { get: { security: [{ basic: [] }], responses: ok } },
    '/bearer': { get: { security: [{ bearer: [] }], responses: ok } },
    '/oauth': { get: { security: [{ oauth: ['things:read'] }], responses: ok } },
    '/either': { get: { security: [{ headerKey: [] }, { oauth: ['things:read'] }], responses: ok } },
    '/both': { get: { security: [{ headerKey: [], oauth: ['things:read'] }], responses: ok } },
    // Azure Container Registry: Basic and an API key named Authorization in one requirement.
    '/one-header': { get: { security: [{ basic: [], authorizationKey: [] }], responses: ok } },
    // Google's documents: two OAuth 2 schemes in each requirement, met by one token.
    '/two-oauth': {
      get: { security: [{ oauth: ['things:read'], oauthImplicit: ['things:write'] }], responses: ok },
    },
    // A cookie parameter beside an API key in a cookie: both in one Cookie header.
    '/cookie-parameter': {
      get: {
        security: [{ cookieKey: [] }],
        parameters: [
          { name: 'lang', in: 'cookie', required: true, schema: { type: 'string', maxLength: 5 } },
        ],
        responses: ok,
      },
    },
    // spinbot.net: the API key is also declared as a required query parameter.
    '/key-parameter': {
      get: {
        security: [{ queryKey: [] }],
        parameters: [{ name: 'api_key', in: 'query', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
  },
};

async function call(t: TestApp, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}/sandbox/schemes${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
});

describe('sandbox: every security scheme maps to the application credentials', () => {
  let t: TestApp;
  let client: { clientId: string; clientSecret: string };
  let token: string;
  let unscopedToken: string;

  async function tokenFor(clientId: string, secret: string): Promise<string> {
    const { status, body } = await clientCredentials(t, clientId, secret);
    expect(status).toBe(200);
    return body.access_token!;
  }

  beforeAll(async () => {
    t = await startTestApp();
    await sql`insert into api_documentations (alias, title, version, source, source_format, converted, content_hash)
      values ('schemes', 'Schemes API', '1.0.0', ${JSON.stringify(SCHEMES_API)}, 'json',
        ${JSON.stringify(SCHEMES_API)}::jsonb, 'schemes-1')`.execute(t.app.db);
    const created = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
      scopes: ['things:read'],
    });
    client = { clientId: created.clientId, clientSecret: created.clientSecret! };
    token = await tokenFor(client.clientId, client.clientSecret);
    const other = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
    });
    unscopedToken = await tokenFor(other.clientId, other.clientSecret!);
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes the client id as API key in a header, a query parameter or a cookie', async () => {
    expect((await call(t, '/header-key', { 'x-api-key': client.clientId })).status).toBe(200);
    expect((await call(t, `/query-key?api_key=${client.clientId}`)).status).toBe(200);
    expect((await call(t, '/cookie-key', { cookie: `a=b; session=${client.clientId}` })).status).toBe(200);
  });

  it('reads cookies percent-decoded, and a malformed one as it came, never failing on it', async () => {
    const cookie = (lang: string) => ({
      cookie: `session=${encodeURIComponent(client.clientId)}; lang=${lang}`,
    });
    expect((await call(t, '/cookie-parameter', cookie('en%2DGB'))).status).toBe(200);
    // 'en GB x' decoded is 7 characters: longer than the schema allows.
    const long = await call(t, '/cookie-parameter', cookie('en%20GB%20x'));
    expect(long.status).toBe(400);
    // A malformed escape is kept as it came (5 characters here): valid, not a server error.
    expect((await call(t, '/cookie-parameter', cookie('%E0%A'))).status).toBe(200);
    expect((await call(t, '/cookie-parameter', cookie('%E0%A4%A'))).status).toBe(400);
    expect((await call(t, '/cookie-parameter', { cookie: 'session=%E0%A' })).status).toBe(401);
    expect((await call(t, '/cookie-parameter', { cookie: `session=${client.clientId}` })).status).toBe(400);
  });

  it('refuses a missing or unknown API key with 401 and says where the key goes', async () => {
    const missing = await call(t, '/query-key');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: 'invalid_token' });
    expect(missing.body.error_description).toMatch(/query parameter 'api_key'.*client id/);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer realm="sandbox", error="invalid_token"/);
    const unknown = await call(t, '/header-key', { 'x-api-key': 'no-such-client' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error_description).toBe('the API key is not the client id of any application');
    // The key must be where the scheme says: a client id in another header does not count.
    expect((await call(t, '/cookie-key', { 'x-api-key': client.clientId })).status).toBe(401);
  });

  it('takes the client id and secret as HTTP Basic credentials, checked against the stored secret', async () => {
    expect((await call(t, '/basic', basic(client.clientId, client.clientSecret))).status).toBe(200);
    const wrong = await call(t, '/basic', basic(client.clientId, 'not-the-secret'));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_token' });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer /); // no browser login dialog
    expect((await call(t, '/basic', basic('no-such-client', 'x'))).status).toBe(401);
    const none = await call(t, '/basic', { authorization: `Bearer ${token}` });
    expect(none.status).toBe(401);
    expect(none.body.error_description).toMatch(/Basic base64\(<client id>:<client secret>\)/);
    // A public client has no secret: nothing matches.
    const pub = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['authorization_code'],
      redirectUris: ['https://app.example/cb'],
      public: true,
    });
    expect((await call(t, '/basic', basic(pub.clientId, ''))).status).toBe(401);
    // A reset secret replaces the old one at once.
    const other = await t.app.oauthClients.createClient({
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
    });
    const fresh = await t.app.oauthClients.resetSecret(other.clientId);
    expect((await call(t, '/basic', basic(other.clientId, other.clientSecret!))).status).toBe(401);
    expect((await call(t, '/basic', basic(other.clientId, fresh!))).status).toBe(200);
    // A rotated secret keeps working during its grace period, not after it (issue 28).
    const rotated = await clientSecretsRepo(t.app.db, t.app.secretBox).rotate(other.clientId, 3600);
    expect((await call(t, '/basic', basic(other.clientId, fresh!))).status).toBe(200);
    expect((await call(t, '/basic', basic(other.clientId, rotated!.secret))).status).toBe(200);
    await sql`update oauth_client_secrets set expires_at = now() - interval '1 minute'
      where client_id = ${other.clientId} and expires_at is not null`.execute(t.app.db);
    expect((await call(t, '/basic', basic(other.clientId, fresh!))).status).toBe(401);
    expect((await call(t, '/basic', basic(other.clientId, rotated!.secret))).status).toBe(200);
  });

  it('takes an access token for bearer and OAuth 2 schemes, with the scopes as today', async () => {
    expect((await call(t, '/bearer', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call(t, '/oauth', { authorization: `Bearer ${token}` })).status).toBe(200);
    const noScope = await call(t, '/oauth', { authorization: `Bearer ${unscopedToken}` });
    expect(noScope.status).toBe(403);
    expect(noScope.body).toMatchObject({ error: 'insufficient_scope', scope: 'things:read' });
    // A client id is not an access token.
    expect((await call(t, '/bearer', { authorization: `Bearer ${client.clientId}` })).status).toBe(401);
    expect((await call(t, '/oauth', { 'x-api-key': client.clientId })).status).toBe(401);
  });

  it('accepts any one alternative, and needs every scheme of an alternative', async () => {
    expect((await call(t, '/either', { 'x-api-key': client.clientId })).status).toBe(200);
    expect((await call(t, '/either', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call(t, '/either')).status).toBe(401);
    expect((await call(t, '/both', { 'x-api-key': client.clientId })).status).toBe(401);
    expect(
      (await call(t, '/both', { 'x-api-key': client.clientId, authorization: `Bearer ${token}` })).status,
    ).toBe(200);
    // Both credentials must name the same client.
    const mixed = await call(t, '/both', { 'x-api-key': 'x'.repeat(32), authorization: `Bearer ${token}` });
    expect(mixed.status).toBe(401);
    expect(mixed.body.error_description).toBe('the credentials of this request name different clients');
  });

  it('takes either of two schemes of one requirement that share a header, which no request can send both of', async () => {
    expect((await call(t, '/one-header', basic(client.clientId, client.clientSecret))).status).toBe(200);
    expect((await call(t, '/one-header', { authorization: client.clientId })).status).toBe(200);
    expect((await call(t, '/one-header', basic(client.clientId, 'not-the-secret'))).status).toBe(401);
    const none = await call(t, '/one-header');
    expect(none.status).toBe(401);
    expect(none.body.error_description).toMatch(/Basic base64\(<client id>:<client secret>\)/);
  });

  it('takes one token for two OAuth 2 schemes of one requirement, with the scopes of both', async () => {
    const refused = await call(t, '/two-oauth', { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'insufficient_scope', scope: 'things:read things:write' });
  });

  it('takes an API key declared as a query parameter too, sent once', async () => {
    expect((await call(t, `/key-parameter?api_key=${client.clientId}`)).status).toBe(200);
    expect((await call(t, '/key-parameter?api_key=not-a-client')).status).toBe(401);
  });

  it('records API-key and Basic calls under the client and its environment', async () => {
    const prod = await t.app.oauthClients.createClient({
      environment: 'PRODUCTION',
      grantTypes: ['client_credentials'],
    });
    expect((await call(t, '/header-key', { 'x-api-key': prod.clientId })).status).toBe(200);
    expect((await call(t, '/basic', basic(prod.clientId, prod.clientSecret!))).status).toBe(200);
    await t.app.flushCallRecorder();
    const calls = await t.app.db
      .selectFrom('api_calls')
      .select(['endpoint', 'environment', 'status'])
      .where('client_id', '=', prod.clientId)
      .orderBy('id')
      .execute();
    expect(calls).toEqual([
      { endpoint: 'GET /schemes/header-key', environment: 'PRODUCTION', status: 200 },
      { endpoint: 'GET /schemes/basic', environment: 'PRODUCTION', status: 200 },
    ]);
  });
});
