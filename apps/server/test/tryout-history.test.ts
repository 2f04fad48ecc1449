import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRYOUT_HISTORY_LIMIT, TRYOUT_RESPONSE_MAX_CHARS } from '@portico/contracts/tryout';
import { TestClient } from './http-client.ts';
import { signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/** The try-out console's stored history (issue 12; spec B 3, 4): owner-only, limited, validated. */

function item(overrides: Record<string, unknown> = {}) {
  return {
    uuid: randomUUID(),
    documentationId: 'accounts-v1',
    method: 'get',
    path: '/accounts/{accountId}',
    description: 'Get an account',
    form: { header: {}, query: { limit: '10' }, path: { accountId: 'acc-1' }, body: '' },
    response: { status: 200, data: { id: 'acc-1' } },
    created: Date.now(),
    favorite: false,
    imported: false,
    fromTour: false,
    ...overrides,
  };
}

interface ListBody {
  data: {
    uuid: string;
    favorite: boolean;
    imported: boolean;
    fromTour: boolean;
    response: { data: unknown } | null;
  }[];
}

describe('try-out history', () => {
  let t: TestApp;
  let alice: TestClient;
  let bob: TestClient;
  beforeAll(async () => {
    t = await startTestApp();
    alice = await signedInUser(t, 'tryout.alice@example.com');
    bob = await signedInUser(t, 'tryout.bob@example.com');
  });
  afterAll(async () => {
    await t.close();
  });

  /** A DELETE as the web app sends it: the CSRF token, no body. */
  const del = async (client: TestClient, url: string) => {
    client.csrfToken ??= await (await client.get('/session/token')).text();
    return client.request(url, { method: 'DELETE', headers: { 'x-csrf-token': client.csrfToken } });
  };

  const list = async (client: TestClient, doc = 'accounts-v1') =>
    (await (await client.get(`/api/tryout/history?documentationId=${doc}`)).json()) as ListBody;

  it('stores an item for its owner only, and lists favorites first', async () => {
    const first = item({ created: 1000 });
    const second = item({ created: 2000 });
    const favorite = item({ created: 500, favorite: true });
    for (const i of [first, second, favorite]) {
      expect((await alice.send('PUT', `/api/tryout/history/${i.uuid}`, i, 'application/json')).status).toBe(
        200,
      );
    }
    expect((await list(alice)).data.map((i) => i.uuid)).toEqual([favorite.uuid, second.uuid, first.uuid]);
    // Another user sees nothing and can neither delete nor overwrite it.
    expect((await list(bob)).data).toEqual([]);
    expect((await del(bob, `/api/tryout/history/${first.uuid}`)).status).toBe(404);
    expect(
      (await bob.send('PUT', `/api/tryout/history/${first.uuid}`, first, 'application/json')).status,
    ).toBe(200);
    expect((await list(alice)).data).toHaveLength(3);
    expect((await list(bob)).data).toHaveLength(1);
    // Anonymous callers get 401.
    const anonymous = new TestClient(t.baseUrl);
    expect((await anonymous.get('/api/tryout/history')).status).toBe(401);
    expect(
      (await anonymous.send('PUT', `/api/tryout/history/${first.uuid}`, first, 'application/json')).status,
    ).toBe(401);
  });

  it('updates an item in place, deletes one, and Delete All keeps favorites', async () => {
    const doc = 'payments-v1';
    const a = item({ documentationId: doc });
    const b = item({ documentationId: doc, favorite: true });
    const c = item({ documentationId: doc });
    for (const i of [a, b, c])
      await alice.send('PUT', `/api/tryout/history/${i.uuid}`, i, 'application/json');
    await alice.send('PUT', `/api/tryout/history/${a.uuid}`, { ...a, favorite: true }, 'application/json');
    expect((await list(alice, doc)).data.filter((i) => i.favorite)).toHaveLength(2);
    expect((await del(alice, `/api/tryout/history/${a.uuid}`)).status).toBe(204);
    expect((await del(alice, `/api/tryout/history/${a.uuid}`)).status).toBe(404);
    const res = await del(alice, `/api/tryout/history?documentationId=${doc}`);
    expect(await res.json()).toEqual({ deleted: 1 });
    expect((await list(alice, doc)).data.map((i) => i.uuid)).toEqual([b.uuid]);
  });

  it("keeps the 'tour' and 'imported' badges of an item and gives them back", async () => {
    const doc = 'fx-rates-v2';
    const tour = item({ documentationId: doc, fromTour: true });
    const imported = item({ documentationId: doc, imported: true });
    for (const i of [tour, imported]) {
      const res = await alice.send('PUT', `/api/tryout/history/${i.uuid}`, i, 'application/json');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { fromTour: boolean } }).data.fromTour).toBe(i.fromTour);
    }
    const badges = (await list(alice, doc)).data.map(({ uuid, fromTour, imported }) => ({
      uuid,
      fromTour,
      imported,
    }));
    expect(badges).toEqual(
      expect.arrayContaining([
        { uuid: tour.uuid, fromTour: true, imported: false },
        { uuid: imported.uuid, fromTour: false, imported: true },
      ]),
    );
    expect(badges).toHaveLength(2);
    // A flag that is not a boolean is refused, not read as false.
    const bad = item({ documentationId: doc, fromTour: 'yes' });
    expect((await alice.send('PUT', `/api/tryout/history/${bad.uuid}`, bad, 'application/json')).status).toBe(
      400,
    );
  });

  it("keeps an item's cookie parameters, and reads an item without them", async () => {
    const doc = 'cookie-api';
    const withCookies = item({
      documentationId: doc,
      form: { header: {}, query: {}, path: {}, cookie: { session: 's-1' }, body: '' },
    });
    const without = item({ documentationId: doc });
    for (const i of [withCookies, without])
      expect((await alice.send('PUT', `/api/tryout/history/${i.uuid}`, i, 'application/json')).status).toBe(
        200,
      );
    const forms = Object.fromEntries(
      ((await list(alice, doc)).data as unknown as { uuid: string; form: { cookie?: unknown } }[]).map(
        (i) => [i.uuid, i.form.cookie],
      ),
    );
    expect(forms).toEqual({ [withCookies.uuid]: { session: 's-1' }, [without.uuid]: undefined });
    const bad = item({ documentationId: doc, form: { ...without.form, cookie: { session: 1 } } });
    expect((await alice.send('PUT', `/api/tryout/history/${bad.uuid}`, bad, 'application/json')).status).toBe(
      400,
    );
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const bad = item({ method: 'fetch' });
    const res = await alice.send('PUT', `/api/tryout/history/${bad.uuid}`, bad, 'application/json');
    expect(res.status).toBe(400);
    const body = (await res.json()) as JsonApiErrorBody;
    expect(body.errors[0]?.source?.pointer).toBe('/method');
    const other = item();
    const mismatch = await alice.send(
      'PUT',
      `/api/tryout/history/${randomUUID()}`,
      other,
      'application/json',
    );
    expect(mismatch.status).toBe(400);
    expect(
      (await alice.send('PUT', '/api/tryout/history/not-a-uuid', other, 'application/json')).status,
    ).toBe(400);
    expect((await alice.get('/api/tryout/history?documentationId=')).status).toBe(400);
    expect((await del(alice, '/api/tryout/history')).status).toBe(400);
    const noPath = item({ path: '' });
    expect(
      (await alice.send('PUT', `/api/tryout/history/${noPath.uuid}`, noPath, 'application/json')).status,
    ).toBe(400);
  });

  it('limits sizes: a too large item is refused, a long response is cut, old items go first', async () => {
    const huge = item({ form: { header: {}, query: {}, path: {}, body: 'x'.repeat(300_000) } });
    const tooLarge = await alice.send('PUT', `/api/tryout/history/${huge.uuid}`, huge, 'application/json');
    expect(tooLarge.status).toBe(413);
    const longBody = item({ documentationId: 'long', response: { status: 200, data: 'y'.repeat(50_000) } });
    expect(
      (await alice.send('PUT', `/api/tryout/history/${longBody.uuid}`, longBody, 'application/json')).status,
    ).toBe(200);
    const [stored] = (await list(alice, 'long')).data;
    expect(String(stored?.response?.data).length).toBeLessThanOrEqual(TRYOUT_RESPONSE_MAX_CHARS + 1);

    const carol = await signedInUser(t, 'tryout.carol@example.com');
    const pinned = item({ documentationId: 'many', created: 1, favorite: true });
    await carol.send('PUT', `/api/tryout/history/${pinned.uuid}`, pinned, 'application/json');
    for (let i = 0; i < TRYOUT_HISTORY_LIMIT + 2; i++) {
      const next = item({ documentationId: 'many', created: 10 + i });
      expect(
        (await carol.send('PUT', `/api/tryout/history/${next.uuid}`, next, 'application/json')).status,
      ).toBe(200);
    }
    const kept = (await list(carol, 'many')).data;
    expect(kept).toHaveLength(TRYOUT_HISTORY_LIMIT);
    expect(kept[0]?.uuid).toBe(pinned.uuid);
  });
});

describe('try-out console redirect URI (decision 020)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is accepted for DEVELOPMENT authorization_code clients only', async () => {
    const consoleUri = `${t.config.publicUrl}/oauth2/redoc-callback`;
    const create = (environment: 'DEVELOPMENT' | 'PRODUCTION') =>
      t.app.oauthClients.createClient({
        environment,
        grantTypes: ['authorization_code', 'client_credentials'],
        redirectUris: ['https://app.example/callback'],
        scopes: ['accounts:read'],
      });
    const open = async (clientId: string, redirectUri: string) => {
      const browser = new TestClient(t.baseUrl);
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: 'accounts:read',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      return browser.follow(`/authorize?${query}`);
    };
    const development = await create('DEVELOPMENT');
    const accepted = await open(development.clientId, consoleUri);
    expect(new URL(accepted.url).pathname).toMatch(/^\/oauth\/interaction\//);
    // Still exact: another path of the portal is refused.
    const other = await open(development.clientId, `${consoleUri}/x`);
    expect(other.res.status).toBe(400);
    // The console asks for tokens from the portal's own origin (CORS); another origin is refused.
    const token = (origin: string) =>
      fetch(`${t.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: development.clientId,
          client_secret: development.clientSecret!,
        }),
      });
    const fromPortal = await token(new URL(t.config.publicUrl).origin);
    expect(fromPortal.status).toBe(200);
    expect(fromPortal.headers.get('access-control-allow-origin')).toBe(new URL(t.config.publicUrl).origin);
    expect((await token('https://evil.example')).status).toBe(400);
    const production = await create('PRODUCTION');
    const refused = await open(production.clientId, consoleUri);
    expect(refused.res.status).toBe(400);
    expect(await refused.res.text()).toContain('redirect_uri');
  });
});
