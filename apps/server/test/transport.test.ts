import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import { createOrg, createUser, signedInUser } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** A browser behind a TLS-terminating proxy: every request arrives with X-Forwarded-Proto: https. */
class ProxiedClient extends TestClient {
  readonly setCookies: string[] = [];
  override async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-proto', 'https');
    const res = await super.request(url, { ...init, headers });
    this.setCookies.push(...res.headers.getSetCookie());
    return res;
  }
}

describe('behind a TLS proxy with TRUST_PROXY=true and a plain PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', IMPORT_CONTENT: 'false' }, (app) => {
      app.get<{ Params: { id: string } }>('/test/start-session/:id', async (request, reply) => {
        await app.startSession(request, reply, Number(request.params.id), null);
        return reply.status(204).send();
      });
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends HSTS and Secure session cookies over TLS, neither over plain http', async () => {
    expect(t.config.publicUrl.startsWith('http:')).toBe(true);
    const proxied = new ProxiedClient(t.baseUrl);
    expect((await proxied.get('/healthz')).headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const plain = new TestClient(t.baseUrl);
    expect((await plain.get('/healthz')).headers.get('strict-transport-security')).toBeNull();

    // A session started over TLS gets a Secure cookie; one started over plain http cannot.
    const user = await createUser(t, 'tls.user@example.com');
    const started = await proxied.get(`/test/start-session/${user.id}`);
    expect(started.status).toBe(204);
    expect(proxied.setCookies.find((c) => c.startsWith(t.app.sessionCookieName))).toMatch(/;\s*Secure/i);
    const direct = await plain.get(`/test/start-session/${user.id}`);
    expect(direct.headers.getSetCookie().find((c) => c.startsWith(t.app.sessionCookieName))).not.toMatch(
      /;\s*Secure/i,
    );
  });
});

describe('Cache-Control of answers that depend on the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CONTENT: 'false' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('marks signed-in API answers private, no-store, and leaves routes that chose their own', async () => {
    const user = await signedInUser(t, 'cache.user@example.com');
    const org = await createOrg(user, 'Cached Ltd');
    for (const url of [
      '/jsonapi/group/organization',
      `/jsonapi/group/organization/${org.id}`,
      '/jsonapi/group_content/organization-group_membership?filter[gid]=' + org.id,
      '/jsonapi/user/user',
    ]) {
      const res = await user.get(url);
      expect(res.headers.get('cache-control'), `${url} ${res.status}`).toBe('private, no-store');
    }
    // A route's own choice stands.
    expect((await user.get('/block-layout')).headers.get('cache-control')).toBe('public, max-age=60');
    // Anonymous public answers may be stored by anyone and are revalidated with their ETag
    // (decision 018).
    const anon = new TestClient(t.baseUrl);
    expect((await anon.get('/jsonapi/node/api_product')).headers.get('cache-control')).toBe(
      'public, no-cache',
    );
  });
});
