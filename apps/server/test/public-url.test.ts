import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Absolute links and issuer URLs come from PUBLIC_URL, never from the request: a Host (or
 * X-Forwarded-Host) a client makes up never comes back, in a body or a header, and a shared cache
 * cannot keep a poisoned answer for everyone.
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET over plain HTTP with headers fetch would not let us set (Host). */
function get(t: TestApp, path: string, headers: Record<string, string>): Promise<Answer> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const EVIL = 'evil.example';

/** Public lists (links.self, links.next with page[limit]=1) and both issuers' documents. */
const LISTS = [
  '/jsonapi/node/api_product?page[limit]=1',
  '/jsonapi/node/api_documentation?page[limit]=1',
  '/jsonapi/node/article?page[limit]=1',
  '/jsonapi/taxonomy_term/product_categories?page[limit]=1',
  '/jsonapi/node/forum?page[limit]=1',
];
const ISSUERS = ['/idp', '/oauth'];

/** Every URL-looking string in a JSON value. */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

function expectNoEvil(answer: Answer, what: string) {
  expect(answer.body, what).not.toContain(EVIL);
  for (const [name, value] of Object.entries(answer.headers)) {
    expect(String(value), `${what}: ${name}`).not.toContain(EVIL);
  }
}

/** On the origin asked for, or on PUBLIC_URL (which some resources' links always use). */
function ours(t: TestApp, origin: string, url: string): boolean {
  return [origin, t.config.publicUrl].some((o) => url.startsWith(`${o}/`));
}

/** Asks every list and discovery document with `headers`; all links must be on `origin`. */
async function expectLinksOn(t: TestApp, headers: Record<string, string>, origin: string) {
  for (const path of LISTS) {
    const answer = await get(t, path, headers);
    expect(answer.status, path).toBe(200);
    expectNoEvil(answer, path);
    const doc = JSON.parse(answer.body) as { links: { self: { href: string }; next?: { href: string } } };
    expect(new URL(doc.links.self.href).origin, path).toBe(origin);
    expect(new URL(doc.links.self.href).pathname, path).toBe(path.split('?')[0]);
    for (const url of urlsIn(doc)) expect(ours(t, origin, url), `${path}: ${url}`).toBe(true);
  }
  // A list of many rows gets a next link too (checked above with the others).
  const products = await get(t, '/jsonapi/node/api_product?page[limit]=1', headers);
  expect((JSON.parse(products.body) as { links: Record<string, unknown> }).links.next).toBeDefined();

  for (const prefix of ISSUERS) {
    const path = `${prefix}/.well-known/openid-configuration`;
    const answer = await get(t, path, headers);
    expect(answer.status, path).toBe(200);
    expectNoEvil(answer, path);
    const meta = JSON.parse(answer.body) as Record<string, unknown>;
    expect(meta.issuer).toBe(`${t.config.publicUrl}${prefix}`);
    expect(meta.authorization_endpoint).toBe(`${origin}${prefix}/auth`);
    expect(meta.token_endpoint).toBe(`${origin}${prefix}/token`);
    expect(meta.jwks_uri).toBe(`${origin}${prefix}/jwks`);
    for (const url of urlsIn(meta)) expect(ours(t, origin, url), `${path}: ${url}`).toBe(true);
  }

  // The sign-in's redirects and pages: the identity provider's authorization request.
  const auth = await get(
    t,
    `/idp/auth?${new URLSearchParams({
      client_id: 'portico-portal',
      response_type: 'code',
      scope: 'openid email',
      redirect_uri: `${t.config.publicUrl}/oauth2/callback`,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`,
    headers,
  );
  expect(auth.status).toBeGreaterThanOrEqual(300);
  expect(auth.status).toBeLessThan(400);
  expectNoEvil(auth, '/idp/auth');
  const location = new URL(String(auth.headers.location), origin);
  expect(location.origin).toBe(origin);
}

describe('absolute URLs with PUBLIC_URL set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://portal.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('ignore a Host header of another site', async () => {
    await expectLinksOn(t, { host: EVIL }, 'https://portal.example');
  });

  it('ignore X-Forwarded-Host and -Proto when the proxy is not trusted', async () => {
    await expectLinksOn(
      t,
      { host: EVIL, 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'http' },
      'https://portal.example',
    );
  });
});

describe('absolute URLs with PUBLIC_URL set behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://portal.example', TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('ignore X-Forwarded-Host even from the trusted proxy', async () => {
    await expectLinksOn(
      t,
      { host: EVIL, 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'https' },
      'https://portal.example',
    );
    await expectLinksOn(
      t,
      { 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'http' },
      'https://portal.example',
    );
  });
});

describe('absolute URLs without PUBLIC_URL (a developer portal on loopback)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('stay on the loopback alias asked for, and on PUBLIC_URL for any other host', async () => {
    const { port } = new URL(t.baseUrl);
    await expectLinksOn(t, { host: `127.0.0.1:${port}` }, `http://127.0.0.1:${port}`);
    await expectLinksOn(t, { host: `localhost:${port}` }, `http://localhost:${port}`);
    await expectLinksOn(t, { host: EVIL }, t.config.publicUrl);
    await expectLinksOn(t, { host: `${EVIL}:${port}` }, t.config.publicUrl);
  });
});
