import { randomBytes } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import http from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from './org-fixtures.ts';
import { startTestApp, startTwoInstances, testDbKind, type TestApp, type TwoInstances } from './test-app.ts';

/**
 * ETags, 304s and the cache of public answers (plugins/http-cache.ts, decision 018): the product
 * list as the web app asks for it, anonymously and signed in, a change of the catalog seen at once
 * on the same instance and, on PostgreSQL, through a second instance on the same database.
 */

const LIST =
  '/jsonapi/node/api_product?sort=-changed&include=field_image&fields%5Bfile--file%5D=uri,url' +
  '&filter%5Bdeprecated%5D%5Bgroup%5D%5Bconjunction%5D=OR' +
  '&filter%5Bnd%5D%5Bcondition%5D%5Bpath%5D=field_deprecated&filter%5Bnd%5D%5Bcondition%5D%5Bvalue%5D=0' +
  '&filter%5Bnd%5D%5Bcondition%5D%5BmemberOf%5D=deprecated' +
  '&filter%5Bnf%5D%5Bcondition%5D%5Bpath%5D=field_deprecated' +
  '&filter%5Bnf%5D%5Bcondition%5D%5Boperator%5D=IS%20NULL' +
  '&filter%5Bnf%5D%5Bcondition%5D%5BmemberOf%5D=deprecated';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw HTTP GET: no automatic decompression, every header as sent. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const titles = (a: Answer) =>
  (JSON.parse(a.body.toString()) as { data: { attributes: { title: string } }[] }).data.map(
    (p) => p.attributes.title,
  );

async function renameFirstProduct(t: TestApp, suffix: string): Promise<string> {
  const { rows } = await sql<{ title: string }>`
    update api_products set title = title || ${suffix}
    where id = (select id from api_products where not deprecated order by weight, title, id limit 1)
    returning title`.execute(t.app.db);
  return rows[0]!.title;
}

describe('ETags and the cache of public answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ LOGIN_RATE_LIMIT: '1000' }, (app) => {
      // An API answer that did not opt in to the cache and sets no Cache-Control of its own.
      app.get('/api/test-http-cache', async (request) => ({ user: request.user?.email ?? null }));
    });
  });
  afterAll(() => t?.close());

  it('answers an unchanged list from memory with the same strong ETag, and 304 to If-None-Match', async () => {
    const first = await get(t.baseUrl, LIST);
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');

    const second = await get(t.baseUrl, LIST);
    expect(second.status).toBe(200);
    expect(second.headers['x-portico-cache']).toBe('hit');
    expect(second.headers.etag).toBe(etag);
    expect(second.body.equals(first.body)).toBe(true);
    // Sent by the early path (before the other hooks): the same security headers, its own id.
    for (const name of ['content-security-policy', 'x-content-type-options', 'content-type'])
      expect(second.headers[name], name).toBe(first.headers[name]);
    expect(second.headers['cache-control']).toBe('public, no-cache');
    expect(second.headers['request-id']).toBeTruthy();
    expect(second.headers['request-id']).not.toBe(first.headers['request-id']);

    // The embedded database has no other writer: unchanged counters are not read again.
    const reads = t.app.publicAnswerCache.versions.reads();
    expect((await get(t.baseUrl, LIST)).headers['x-portico-cache']).toBe('hit');
    if (testDbKind() === 'pglite') expect(t.app.publicAnswerCache.versions.reads()).toBe(reads);

    const revalidated = await get(t.baseUrl, LIST, { 'If-None-Match': `"other", ${etag}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(etag);

    // A browser's request: the cached answer compressed once, the same bytes once decompressed.
    const compressed = await get(t.baseUrl, LIST, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(compressed.body).equals(first.body)).toBe(true);
  });

  it('says that a cached anonymous answer depends on the cookie, merged with Accept-Encoding', async () => {
    const varyOf = (a: Answer) =>
      String(a.headers.vary ?? '')
        .split(',')
        .map((v) => v.trim().toLowerCase())
        .sort();
    // A fresh answer: the catalog changes, the next request computes it.
    await renameFirstProduct(t, ' (vary)');
    const computed = await get(t.baseUrl, LIST, { 'Accept-Encoding': 'br' });
    expect(computed.headers['x-portico-cache']).toBeUndefined();
    expect(varyOf(computed)).toEqual(['accept-encoding', 'cookie']);
    const uncompressed = await get(t.baseUrl, LIST);
    expect(varyOf(uncompressed)).toEqual(['accept-encoding', 'cookie']);
    // Hits of the early path, compressed or not, and their 304.
    const hit = await get(t.baseUrl, LIST, { 'Accept-Encoding': 'gzip' });
    expect(hit.headers['x-portico-cache']).toBe('hit');
    expect(varyOf(hit)).toEqual(['accept-encoding', 'cookie']);
    const plain = await get(t.baseUrl, LIST);
    expect(plain.headers['x-portico-cache']).toBe('hit');
    expect(varyOf(plain)).toEqual(['accept-encoding', 'cookie']);
    const notModified = await get(t.baseUrl, LIST, { 'If-None-Match': hit.headers.etag! });
    expect(notModified.status).toBe(304);
    expect(varyOf(notModified)).toEqual(['accept-encoding', 'cookie']);

    // A user's hit through the session plugin (a session this process has not loaded yet).
    const user = await signedInUser(t, `vary-${randomBytes(4).toString('hex')}@example.com`);
    expect((await user.get(LIST)).headers.get('vary')).toMatch(/cookie/i);
    // The sessions change (not the users): the session is loaded again, the answer comes from memory.
    await sql`update sessions set expires_at = expires_at`.execute(t.app.db);
    const userHit = await user.get(LIST);
    expect(userHit.headers.get('x-portico-cache')).toBe('hit');
    expect(userHit.headers.get('vary')).toMatch(/cookie/i);
  });

  it('sees a change of the catalog at once: a new answer and a new ETag', async () => {
    const before = await get(t.baseUrl, LIST);
    await get(t.baseUrl, LIST); // cached now
    const renamed = await renameFirstProduct(t, ' (renamed)');
    const after = await get(t.baseUrl, LIST, { 'If-None-Match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers['x-portico-cache']).toBeUndefined();
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(titles(after)).toContain(renamed);
    expect(titles(before)).not.toContain(renamed);
  });

  it('never hands a signed-in user the shared answer: private, no-store, cached for that user', async () => {
    const client = await signedInUser(t, `cache-${randomBytes(4).toString('hex')}@example.com`);
    await get(t.baseUrl, LIST);
    const res = await client.get(LIST);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-portico-cache')).toBeNull();
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await client.get(LIST, { 'If-None-Match': etag })).status).toBe(304);
    // Then from the user's own entry (decision 028; test/answer-cache.test.ts).
    const hit = await client.get(LIST);
    expect(hit.headers.get('x-portico-cache')).toBe('hit');
    expect(hit.headers.get('cache-control')).toBe('private, no-store');
  });

  it('marks anonymous answers of other API routes as depending on the cookie', async () => {
    const res = await get(t.baseUrl, '/api/test-http-cache');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toContain('Cookie');
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['x-portico-cache']).toBeUndefined();
    expect(
      (await get(t.baseUrl, '/api/test-http-cache', { 'If-None-Match': res.headers.etag! })).status,
    ).toBe(304);
  });

  it('does not cache errors', async () => {
    const missing = '/jsonapi/node/api_product/00000000-0000-4000-8000-000000000000';
    expect((await get(t.baseUrl, missing)).status).toBe(404);
    const again = await get(t.baseUrl, missing);
    expect(again.status).toBe(404);
    expect(again.headers['x-portico-cache']).toBeUndefined();
    expect(again.headers.etag).toBeUndefined();
  });
});

// An embedded database belongs to one process: several instances need PostgreSQL.
describe.skipIf(testDbKind() !== 'postgres')('the cache of two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let instances: TwoInstances | undefined;
  beforeAll(async () => {
    instances = await startTwoInstances();
    ({ a, b } = instances);
  });
  afterAll(() => instances?.close());

  it('a change written through one instance is answered at once by the other', async () => {
    await get(b.baseUrl, LIST);
    const cached = await get(b.baseUrl, LIST);
    expect(cached.headers['x-portico-cache']).toBe('hit');
    const renamed = await renameFirstProduct(a, ' (through A)');
    const after = await get(b.baseUrl, LIST, { 'If-None-Match': cached.headers.etag! });
    expect(after.status).toBe(200);
    expect(titles(after)).toContain(renamed);
    expect(after.headers.etag).not.toBe(cached.headers.etag);
    // And B's new answer is cached again until the next change.
    expect((await get(b.baseUrl, LIST)).headers['x-portico-cache']).toBe('hit');
  });
});
