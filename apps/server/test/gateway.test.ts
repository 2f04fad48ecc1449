import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { importJWK, SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { loadOrCreateSigningKeys } from '../src/oidc/keys.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { clientCredentialsToken, examplesApi, insertDocument } from './applications-fixtures.ts';

/** A tiny bank API, as the catalog stores it: OpenAPI 3.1, dereferenced, circular schemas as $ref. */
const NODE_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', example: 'root' },
    children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
  },
};
export const ACCOUNTS_API = {
  openapi: '3.1.0',
  info: { title: 'Accounts API', version: '1.0.0' },
  servers: [{ url: 'https://api.bank.example/v1' }],
  security: [{ bankOAuth: ['accounts:read'] }],
  components: {
    securitySchemes: {
      bankOAuth: {
        type: 'oauth2',
        flows: {
          clientCredentials: {
            tokenUrl: 'https://bank.example/oauth/token',
            scopes: { 'accounts:read': 'Read accounts', 'payments:write': 'Make payments' },
          },
        },
      },
    },
    schemas: { Node: NODE_SCHEMA },
  },
  paths: {
    '/accounts': {
      get: {
        operationId: 'listAccounts',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'status', in: 'query', schema: { type: 'string', enum: ['OPEN', 'CLOSED'] } },
        ],
        responses: {
          '200': {
            description: 'Accounts',
            headers: { 'X-RateLimit-Remaining': { schema: { type: 'integer', example: 99 } } },
            content: {
              'application/json': {
                example: { data: [{ accountId: 'acc-1', iban: 'DE89370400440532013000', currency: 'EUR' }] },
              },
            },
          },
        },
      },
    },
    '/accounts/{accountId}': {
      parameters: [
        { name: 'accountId', in: 'path', required: true, schema: { type: 'string', pattern: '^acc-' } },
      ],
      get: {
        operationId: 'getAccount',
        responses: {
          '200': {
            description: 'One account',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['accountId'],
                  properties: {
                    accountId: { type: 'string', example: 'acc-1' },
                    balance: { type: 'number', minimum: 0 },
                    opened: { type: 'string', format: 'date' },
                    owner: { type: 'object', properties: { name: { type: 'string' } } },
                  },
                },
              },
            },
          },
          '404': { description: 'Not found' },
        },
      },
    },
    '/accounts/me': {
      get: {
        operationId: 'myAccount',
        responses: {
          '200': { description: 'Mine', content: { 'application/json': { example: { accountId: 'me' } } } },
        },
      },
    },
    '/payments': {
      post: {
        operationId: 'createPayment',
        security: [{ bankOAuth: ['payments:write'] }],
        parameters: [{ name: 'X-Request-ID', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['amount', 'creditorIban'],
                properties: {
                  amount: { type: 'number', exclusiveMinimum: 0 },
                  creditorIban: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Accepted',
            content: {
              'application/json': {
                examples: { accepted: { value: { paymentId: 'pay-1', status: 'ACCEPTED' } } },
              },
            },
          },
        },
      },
    },
    '/tree': {
      get: {
        operationId: 'tree',
        responses: {
          '200': {
            description: 'A circular schema',
            content: { 'application/json': { schema: NODE_SCHEMA } },
          },
        },
      },
    },
    '/status': {
      get: {
        operationId: 'status',
        security: [],
        parameters: [
          { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
          // Not a valid regular expression: the document's fault, never the caller's.
          { name: 'q', in: 'query', schema: { type: 'string', pattern: '(?<=[' } },
        ],
        responses: {
          '200': { description: 'Up', content: { 'application/json': { example: { status: 'up' } } } },
        },
      },
    },
  },
};

async function call(t: TestApp, path: string, token?: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  const res = await fetch(`${t.baseUrl}${path}`, { ...init, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, unknown> };
}

describe('sandbox gateway', () => {
  let t: TestApp;
  let reader: { token: string; clientId: string };
  beforeAll(async () => {
    t = await startTestApp();
    await insertDocument(t.app.db, 'accounts-api', ACCOUNTS_API, 'hash-1');
    reader = await clientCredentialsToken(t, ['accounts:read']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers an operation with its documented example for a valid token', async () => {
    const res = await call(t, '/sandbox/accounts-api/accounts?limit=5&status=OPEN', reader.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(
      ACCOUNTS_API.paths['/accounts'].get.responses['200'].content['application/json'].example,
    );
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
    // The documented server's base path may be part of the URL.
    expect((await call(t, '/sandbox/accounts-api/v1/accounts', reader.token)).status).toBe(200);
    // A literal path wins over a templated one.
    expect((await call(t, '/sandbox/accounts-api/accounts/me', reader.token)).body).toEqual({
      accountId: 'me',
    });
  });

  it('generates a body from the schema when there is no example, circular schemas included', async () => {
    const account = await call(t, '/sandbox/accounts-api/accounts/acc-42', reader.token);
    expect(account.status).toBe(200);
    expect(account.body).toEqual({
      accountId: 'acc-1',
      balance: 0,
      opened: '2026-01-15',
      owner: { name: 'string' },
    });
    const tree = await call(t, '/sandbox/accounts-api/tree', reader.token);
    expect(tree.status).toBe(200);
    let node = tree.body as { name: string; children?: unknown[] };
    let depth = 0;
    while (node.children?.length) {
      node = node.children[0] as typeof node;
      depth++;
    }
    expect(node.name).toBe('root');
    expect(depth).toBeGreaterThan(1);
    expect(depth).toBeLessThan(10);
    // Prefer: code=404 picks another documented response.
    const missing = await call(t, '/sandbox/accounts-api/accounts/acc-42', reader.token, {
      headers: { prefer: 'code=404' },
    });
    expect(missing.status).toBe(404);
  });

  it('asks for a token with 401 and WWW-Authenticate when it is missing or bad', async () => {
    const none = await call(t, '/sandbox/accounts-api/accounts');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    expect(none.body).toMatchObject({ error: 'invalid_token' });
    const forged = reader.token.slice(0, -4) + (reader.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const bad = await call(t, '/sandbox/accounts-api/accounts', forged);
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ error: 'invalid_token' });
    const garbage = await call(t, '/sandbox/accounts-api/accounts', 'not-a-jwt');
    expect(garbage.status).toBe(401);
    const basic = await call(t, '/sandbox/accounts-api/accounts', undefined, {
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.status).toBe(401);
  });

  it('refuses expired tokens, tokens for another audience or issuer, and tokens of deleted clients', async () => {
    const [key] = await loadOrCreateSigningKeys(t.app.db, t.app.secretBox, 'oauth');
    const privateKey = await importJWK(key!, 'RS256');
    const sign = (claims: { iss?: string; aud?: string }, exp = '1h') =>
      new SignJWT({ client_id: reader.clientId, scope: 'accounts:read' })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: key!.kid! })
        .setIssuer(claims.iss ?? t.app.oauthServer.issuer)
        .setAudience(claims.aud ?? t.app.oauthServer.resource)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(privateKey);
    expect((await call(t, '/sandbox/accounts-api/accounts', await sign({}))).status).toBe(200);
    const expired = await call(t, '/sandbox/accounts-api/accounts', await sign({}, '-1m'));
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      error: 'invalid_token',
      error_description: 'the access token has expired',
    });
    const audience = await call(
      t,
      '/sandbox/accounts-api/accounts',
      await sign({ aud: 'https://elsewhere.example' }),
    );
    expect(audience.status).toBe(401);
    const issuer = await call(
      t,
      '/sandbox/accounts-api/accounts',
      await sign({ iss: 'https://evil.example' }),
    );
    expect(issuer.status).toBe(401);

    const gone = await clientCredentialsToken(t, ['accounts:read']);
    await t.app.oauthClients.deleteClient(gone.clientId);
    t.app.oauthClients.clearAccessCache(gone.clientId);
    const deleted = await call(t, '/sandbox/accounts-api/accounts', gone.token);
    expect(deleted.status).toBe(401);
    expect(deleted.body).toMatchObject({ error: 'invalid_token' });
  });

  it('refuses a token without the operation scope with 403 insufficient_scope', async () => {
    const res = await call(t, '/sandbox/accounts-api/payments', reader.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
      body: JSON.stringify({ amount: 10, creditorIban: 'DE00' }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'insufficient_scope', scope: 'payments:write' });
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
  });

  it('validates the request and names the failing parameter', async () => {
    const limit = await call(t, '/sandbox/accounts-api/accounts?limit=abc', reader.token);
    expect(limit.status).toBe(400);
    expect(limit.body).toEqual({
      error: 'invalid_request',
      error_description: "query parameter 'limit' must be integer",
      parameter: 'limit',
    });
    const tooBig = await call(t, '/sandbox/accounts-api/accounts?limit=500', reader.token);
    expect(tooBig.body).toMatchObject({
      parameter: 'limit',
      error_description: "query parameter 'limit' must be <= 100",
    });
    const status = await call(t, '/sandbox/accounts-api/accounts?status=FROZEN', reader.token);
    expect(status.body).toMatchObject({ parameter: 'status' });
    expect(String(status.body.error_description)).toContain('"OPEN", "CLOSED"');
    const path = await call(t, '/sandbox/accounts-api/accounts/xyz', reader.token);
    expect(path.body).toMatchObject({ parameter: 'accountId' });

    const payer = await clientCredentialsToken(t, ['payments:write']);
    const post = (headers: Record<string, string>, body?: string) =>
      call(t, '/sandbox/accounts-api/payments', payer.token, {
        method: 'POST',
        headers,
        ...(body ? { body } : {}),
      });
    const json = { 'content-type': 'application/json', 'x-request-id': 'r1' };
    const ok = await post(json, JSON.stringify({ amount: 10.5, creditorIban: 'DE00' }));
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ paymentId: 'pay-1', status: 'ACCEPTED' });
    const noHeader = await post(
      { 'content-type': 'application/json' },
      JSON.stringify({ amount: 1, creditorIban: 'x' }),
    );
    expect(noHeader.body).toMatchObject({
      parameter: 'X-Request-ID',
      error_description: "header parameter 'X-Request-ID' is required",
    });
    const missing = await post(json, JSON.stringify({ amount: 1 }));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      error: 'invalid_request',
      error_description: "request body must have required property 'creditorIban'",
      parameter: 'body',
      pointer: '/creditorIban',
    });
    const wrongType = await post(json, JSON.stringify({ amount: 'ten', creditorIban: 'x' }));
    expect(wrongType.body).toMatchObject({
      error_description: "request body property 'amount' must be number",
    });
    expect((await post(json, '{not json')).body).toMatchObject({
      error_description: 'request body is not valid JSON',
    });
    expect((await post(json)).body).toMatchObject({ error_description: 'request body is required' });
    const text = await post({ 'content-type': 'text/plain', 'x-request-id': 'r1' }, 'hello');
    expect(text.status).toBe(415);
  });

  it('answers 404 for an unknown alias or path and 405 for an undocumented method', async () => {
    const alias = await call(t, '/sandbox/no-such-api/accounts', reader.token);
    expect(alias.status).toBe(404);
    expect(alias.body).toMatchObject({ error: 'not_found' });
    expect(String(alias.body.error_description)).toContain("'no-such-api'");
    expect((await call(t, '/sandbox/accounts-api/nothing/here', reader.token)).status).toBe(404);
    const method = await call(t, '/sandbox/accounts-api/accounts', reader.token, { method: 'DELETE' });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET');
    // A method no route takes: the portal's 404 document, with the security headers.
    const unrouted = await call(t, '/sandbox/accounts-api/accounts', reader.token, { method: 'PROPFIND' });
    expect(unrouted.status).toBe(404);
    expect(unrouted.headers.get('content-type')).toMatch(/^application\/vnd\.api\+json/);
    expect(unrouted.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lets browser apps of any origin call it (CORS, no cookies)', async () => {
    const preflight = await fetch(`${t.baseUrl}/sandbox/accounts-api/accounts`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:8080',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization');
    const res = await call(t, '/sandbox/accounts-api/accounts', reader.token, {
      headers: { origin: 'http://localhost:8080' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it("answers in an instance of its own with the portal's security headers, request id and error language (decision 075)", async () => {
    const health = await fetch(`${t.baseUrl}/healthz`);
    const security = [
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ];
    for (const name of security) expect(health.headers.get(name), name).not.toBeNull();
    const ok = await call(t, '/sandbox/accounts-api/accounts', reader.token, {
      headers: { 'request-id': 'sandbox-call-1' },
    });
    const refused = await call(t, '/sandbox/accounts-api/accounts', undefined, {
      headers: { 'accept-language': 'de', cookie: `${t.app.sessionCookieName}=not-a-session` },
    });
    const preflight = await fetch(`${t.baseUrl}/sandbox/accounts-api/accounts`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'GET' },
    });
    const nul = await call(t, '/sandbox/accounts-api/%00', reader.token);
    expect([ok.status, refused.status, preflight.status, nul.status]).toEqual([200, 401, 204, 400]);
    for (const res of [ok, refused, { headers: preflight.headers }, nul])
      for (const name of security) expect(res.headers.get(name), name).toBe(health.headers.get(name));
    expect(ok.headers.get('request-id')).toBe('sandbox-call-1');
    // Bearer tokens only: a cookie changes nothing, and none is set.
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect(refused.headers.get('vary')).toMatch(/Accept-Language/);
    expect((nul.body as { errors: { code: string }[] }).errors[0]?.code).toBe('invalid_text');
  });

  it("keeps an operation's answer per Accept and Prefer, and answers each as documented", async () => {
    const path = '/sandbox/accounts-api/accounts/acc-7';
    const first = await call(t, path, reader.token);
    const missing = await call(t, path, reader.token, { headers: { prefer: 'code=404' } });
    const again = await call(t, path, reader.token);
    const missingAgain = await call(t, path, reader.token, { headers: { prefer: 'code=404' } });
    expect([first.status, missing.status, again.status, missingAgain.status]).toEqual([200, 404, 200, 404]);
    expect(again.body).toEqual(first.body);
    expect(missingAgain.body).toEqual(missing.body);
    const head = await fetch(`${t.baseUrl}${path}`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('sends a long answer compressed as the client accepts, each encoding made once', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({
      id: `line-${i}`,
      text: `Statement line ${i} of the account, with a remittance text long enough to count`,
    }));
    const small = { status: 'ok' };
    const doc = examplesApi('Statements API', { '/statement': { lines }, '/small': small });
    await insertDocument(t.app.db, 'statements-api', doc, 'statements-1');
    /** The answer's bytes as they came (fetch would decode them). */
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = httpRequest(`${t.baseUrl}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    const text = JSON.stringify({ lines });
    expect(Buffer.byteLength(text)).toBeGreaterThan(1024);

    const plain = await raw('/sandbox/statements-api/statement', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.body.toString()).toBe(text);

    const br = await raw('/sandbox/statements-api/statement', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(Buffer.byteLength(text) / 2);
    expect(brotliDecompressSync(br.body).toString()).toBe(text);
    const brAgain = await raw('/sandbox/statements-api/statement', { 'accept-encoding': 'br' });
    expect(brAgain.body.equals(br.body)).toBe(true);

    const gz = await raw('/sandbox/statements-api/statement', { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(text);

    const declined: Record<string, string>[] = [
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br', 'x-no-compression': '1' },
    ];
    for (const headers of declined) {
      const sent = await raw('/sandbox/statements-api/statement', headers);
      expect(sent.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(sent.body.toString()).toBe(text);
    }
    // An answer under 1 KB goes as it is, as the rest of the portal sends it.
    const short = await raw('/sandbox/statements-api/small', { 'accept-encoding': 'br' });
    expect(short.headers['content-encoding']).toBeUndefined();
    expect(short.headers.vary ?? '').not.toMatch(/Accept-Encoding/);
    expect(JSON.parse(short.body.toString())).toEqual(small);
  });

  it('reads a compressed request body', async () => {
    const writer = await clientCredentialsToken(t, ['payments:write']);
    const body = gzipSync(JSON.stringify({ amount: 12.5, creditorIban: 'DE89370400440532013000' }));
    const headers = {
      authorization: `Bearer ${writer.token}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'x-request-id': 'req-1',
    };
    const res = await call(t, '/sandbox/accounts-api/payments', undefined, { method: 'POST', headers, body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ paymentId: 'pay-1', status: 'ACCEPTED' });
    const invalid = await call(t, '/sandbox/accounts-api/payments', undefined, {
      method: 'POST',
      headers,
      body: gzipSync(JSON.stringify({ amount: -1, creditorIban: 'DE89' })),
    });
    expect(invalid.status).toBe(400);
  });

  it('needs no token for operations without security', async () => {
    const res = await call(t, '/sandbox/accounts-api/status?verbose=true');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'up' });
    expect((await call(t, '/sandbox/accounts-api/status?verbose=maybe')).status).toBe(400);
    expect((await call(t, '/sandbox/accounts-api/status?q=anything')).status).toBe(200);
  });

  it('serves the new document as soon as its content hash changes', async () => {
    const changed = structuredClone(ACCOUNTS_API);
    changed.paths['/accounts'].get.responses['200'].content['application/json'].example = {
      data: [{ accountId: 'acc-2', iban: 'NL91ABNA0417164300', currency: 'EUR' }],
    };
    await insertDocument(t.app.db, 'accounts-api', changed, 'hash-2');
    const res = await call(t, '/sandbox/accounts-api/accounts', reader.token);
    expect((res.body as { data: { accountId: string }[] }).data[0]?.accountId).toBe('acc-2');
    await insertDocument(t.app.db, 'accounts-api', ACCOUNTS_API, 'hash-1');
  });

  it('revokes access within 5 seconds when a scope is removed from the client', async () => {
    const own = await clientCredentialsToken(t, ['accounts:read']);
    expect((await call(t, '/sandbox/accounts-api/accounts', own.token)).status).toBe(200);
    await t.app.db.deleteFrom('oauth_client_scopes').where('client_id', '=', own.clientId).execute();
    // Every call made 5 s or more after the change is refused. What counts is when a call was
    // made, not when its answer came back (a busy machine may take seconds to answer).
    const started = Date.now();
    for (;;) {
      const madeAfter = Date.now() - started;
      const { status } = await call(t, '/sandbox/accounts-api/accounts', own.token);
      if (status === 403) break;
      expect(status).toBe(200);
      expect(madeAfter, 'a call made 5 s after the change was still allowed').toBeLessThan(5_000);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  it('accepts tokens from a scope resolver (subscriptions) and follows it at call time', async () => {
    const subscribed = new Set<string>();
    t.app.oauthClients.registerScopeResolver(async (client) =>
      subscribed.has(client.clientId) ? ['accounts:read'] : [],
    );
    const { clientId, clientSecret } = await t.app.oauthClients.createClient({
      applicationUuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      environment: 'PRODUCTION',
      grantTypes: ['client_credentials'],
    });
    subscribed.add(clientId);
    const res = await fetch(`${t.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret!,
      }),
    });
    const { access_token: token, scope } = (await res.json()) as { access_token: string; scope: string };
    expect(scope).toBe('accounts:read');
    expect((await call(t, '/sandbox/accounts-api/accounts', token)).status).toBe(200);
    subscribed.delete(clientId);
    t.app.oauthClients.clearAccessCache(clientId);
    expect((await call(t, '/sandbox/accounts-api/accounts', token)).status).toBe(403);
  });

  it('records calls in api_calls and the daily rollup', async () => {
    const rec = await clientCredentialsToken(t, ['accounts:read']);
    for (let i = 0; i < 3; i++) await call(t, '/sandbox/accounts-api/accounts/acc-7', rec.token);
    await call(t, '/sandbox/accounts-api/accounts/bad', rec.token);
    await call(t, '/sandbox/accounts-api/accounts?limit=2', rec.token);
    await call(t, '/sandbox/accounts-api/status'); // anonymous: no client to attribute it to
    await t.app.flushCallRecorder();
    const calls = await t.app.db
      .selectFrom('api_calls')
      .selectAll()
      .where('client_id', '=', rec.clientId)
      .orderBy('id')
      .execute();
    expect(calls.map((c) => [c.endpoint, c.status])).toEqual([
      ['GET /accounts-api/accounts/{accountId}', 200],
      ['GET /accounts-api/accounts/{accountId}', 200],
      ['GET /accounts-api/accounts/{accountId}', 200],
      ['GET /accounts-api/accounts/{accountId}', 400],
      ['GET /accounts-api/accounts', 200],
    ]);
    expect(calls[0]).toMatchObject({ environment: 'DEVELOPMENT', api_alias: 'accounts-api', method: 'GET' });
    expect(calls.every((c) => c.duration_ms > 0)).toBe(true);
    const daily = await t.app.db
      .selectFrom('api_call_daily')
      .select([
        'endpoint',
        'calls',
        'success_calls',
        'failed_calls',
        'min_ms',
        'max_ms',
        'sum_ms',
        sql<string>`day::text`.as('day'),
      ])
      .where('client_id', '=', rec.clientId)
      .orderBy('endpoint')
      .execute();
    const today = new Date().toISOString().slice(0, 10);
    expect(daily.map((d) => [d.day, d.endpoint, d.calls, d.success_calls, d.failed_calls])).toEqual([
      [today, 'GET /accounts-api/accounts', 1, 1, 0],
      [today, 'GET /accounts-api/accounts/{accountId}', 4, 3, 1],
    ]);
    const byId = daily[1]!;
    const durations = calls.slice(0, 4).map((c) => c.duration_ms);
    expect(byId.min_ms).toBeCloseTo(Math.min(...durations), 3);
    expect(byId.max_ms).toBeCloseTo(Math.max(...durations), 3);
    expect(byId.sum_ms).toBeCloseTo(
      durations.reduce((a, b) => a + b, 0),
      2,
    );

    // A second flush adds to the same rollup row.
    await call(t, '/sandbox/accounts-api/accounts/acc-8', rec.token);
    await t.app.flushCallRecorder();
    const again = await t.app.db
      .selectFrom('api_call_daily')
      .select(['calls', 'success_calls'])
      .where('client_id', '=', rec.clientId)
      .where('endpoint', '=', 'GET /accounts-api/accounts/{accountId}')
      .executeTakeFirstOrThrow();
    expect(again).toEqual({ calls: 5, success_calls: 4 });
  });
});

describe('sandbox gateway apart from the portal (decision 075)', () => {
  it("runs none of the portal's hooks, those its plugins add after the sandbox's routes included", async () => {
    const seen: string[] = [];
    // Added to the portal last, as its plugins add theirs: a Fastify scope of the portal's would
    // run it too (Fastify passes a hook added later to the scopes made before).
    const t = await startTestApp({}, (app) =>
      app.addHook('onRequest', (request, _reply, done) => {
        seen.push(request.url);
        done();
      }),
    );
    try {
      await insertDocument(t.app.db, 'accounts-api', ACCOUNTS_API, 'hash-1');
      const rec = await clientCredentialsToken(t, ['accounts:read']);
      seen.length = 0;
      const ok = await call(t, '/sandbox/accounts-api/accounts', rec.token, {
        headers: { cookie: `${t.app.sessionCookieName}=not-a-session` },
      });
      const refused = await call(t, '/sandbox/accounts-api/accounts');
      const unknown = await call(t, '/sandbox/no-such-api/accounts', rec.token);
      const health = await fetch(`${t.baseUrl}/healthz`);
      expect([ok.status, refused.status, unknown.status, health.status]).toEqual([200, 401, 404, 200]);
      expect(ok.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen).toEqual(['/healthz']);
    } finally {
      await t.close();
    }
  });
});

describe('sandbox gateway shutdown', () => {
  it('writes buffered call records when the app closes', async () => {
    const t = await startTestApp();
    try {
      await insertDocument(t.app.db, 'accounts-api', ACCOUNTS_API, 'hash-1');
      const rec = await clientCredentialsToken(t, ['accounts:read']);
      for (let i = 0; i < 7; i++) await call(t, '/sandbox/accounts-api/accounts', rec.token);
      await t.app.close();
      const handle = await openDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.config.dataDir });
      try {
        const row = await handle.db
          .selectFrom('api_call_daily')
          .select('calls')
          .where('client_id', '=', rec.clientId)
          .executeTakeFirstOrThrow();
        expect(row.calls).toBe(7);
        const raw = await handle.db
          .selectFrom('api_calls')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('client_id', '=', rec.clientId)
          .executeTakeFirstOrThrow();
        expect(Number(raw.n)).toBe(7);
      } finally {
        await handle.close();
      }
    } finally {
      await t.close();
    }
  });
});
