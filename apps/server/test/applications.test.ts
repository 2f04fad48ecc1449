import type { Application } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './http-client.ts';
import {
  ACTORS,
  GO_LIVE,
  VALID_APP,
  appDocument,
  clientCredentials,
  createApp,
  getApp,
  goLive,
  insertProduct,
  makeWorld,
  sandbox,
  subscription,
  type Actor,
  type AppResource,
  type World,
} from './applications-fixtures.ts';
import { body, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

const M = en.applications;

// One portal and one organization for the whole file.
// Demo content is left out: the tests insert the catalog rows they need (and start much faster).
let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
});
afterAll(async () => {
  await t?.close();
});

describe('applications: authorization matrix', () => {
  let shared: Application;
  let product: { uuid: string };
  beforeAll(async () => {
    product = await insertProduct(t.app.db, { alias: 'matrix-api', scope: 'accounts:read' });
    shared = await createApp(w.c.creator, w.org.id);
  });

  /** A fresh DEVELOPMENT application subscribed to the product, for calls that change its state. */
  async function freshApp(): Promise<Application> {
    const a = await createApp(w.c.creator, w.org.id, { title: `Fresh ${Math.random()}` });
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
    return a;
  }
  /** A PRODUCTION (pending review) application, for analytics. */
  let production: Application | undefined;
  async function productionApp(): Promise<Application> {
    if (!production) {
      production = await freshApp();
      expect((await goLive(w.c.creator, production.uuid)).status).toBe(201);
    }
    return production;
  }

  const member = (ok: number, denied = 403) => ({
    anonymous: 401,
    stranger: 404,
    creator: ok,
    owner: ok,
    developer: ok,
    financial: denied,
    legal: denied,
    pending: denied,
  });
  const everyMember = (ok: number) => ({ ...member(ok), financial: ok, legal: ok, pending: 403 });

  const calls: Record<string, { expect: Record<Actor, number>; run: (cl: TestClient) => Promise<Response> }> =
    {
      'POST /phpsdk/organization/apps/create': {
        expect: member(201),
        run: (cl) =>
          cl.send(
            'POST',
            `/phpsdk/organization/apps/create?ORGANIZATION=${w.org.id}`,
            appDocument(VALID_APP),
          ),
      },
      'POST /api/application (create)': {
        expect: member(200),
        run: (cl) =>
          cl.send(
            'POST',
            '/api/application',
            {
              title: 'Terminal app',
              organization: w.org.id,
              description: 'Made in the terminal',
              allowedGrantTypes: ['client_credentials'],
              oAuthRedirectUri: [],
              postLogoutRedirectUri: [],
            },
            'application/json',
          ),
      },
      'GET /jsonapi/node/application/{id}': {
        expect: everyMember(200),
        run: (cl) =>
          cl.get(`/jsonapi/node/application/${shared.uuid}?include=field_application_subscriptions`),
      },
      'GET /phpsdk/organization/apps?organization=': {
        expect: everyMember(200),
        run: (cl) => cl.get(`/phpsdk/organization/apps?organization=${w.org.id}`),
      },
      'PATCH /jsonapi/node/application/{uuid}/edit_app_custom': {
        expect: member(200),
        run: (cl) =>
          cl.send(
            'PATCH',
            `/jsonapi/node/application/${shared.uuid}/edit_app_custom`,
            appDocument({ title: 'Renamed' }),
          ),
      },
      'DELETE /jsonapi/node/application/{id}': {
        expect: { ...member(204), developer: 403 },
        run: async (cl) => cl.send('DELETE', `/jsonapi/node/application/${(await freshApp()).uuid}`),
      },
      'POST /api/application (subscribe)': {
        expect: member(200),
        run: (cl) => subscription(cl, 'subscribe', shared.uuid, product.uuid),
      },
      'POST /api/application (unsubscribe)': {
        expect: member(200),
        run: async (cl) => subscription(cl, 'unsubscribe', (await freshApp()).uuid, product.uuid),
      },
      'POST /secret/reset': {
        expect: member(200),
        run: (cl) =>
          cl.send(
            'POST',
            '/secret/reset',
            { application: shared.uuid, environment: 'DEVELOPMENT' },
            'application/json',
          ),
      },
      'POST /secret/delete': {
        expect: member(200),
        run: async (cl) =>
          cl.send('POST', '/secret/delete', { application: (await freshApp()).uuid }, 'application/json'),
      },
      'GET /phpsdk/certificates/{id}/validate': {
        expect: member(200),
        run: (cl) => cl.get(`/phpsdk/certificates/${shared.uuid}/validate?_format=json`),
      },
      'POST /jsonapi/node/go_live_form': {
        expect: member(201),
        run: async (cl) => goLive(cl, (await freshApp()).uuid, GO_LIVE),
      },
      'GET /phpsdk/app-analytics/aggregates': {
        expect: { ...everyMember(200), legal: 403 },
        run: async (cl) =>
          cl.get(
            `/phpsdk/app-analytics/aggregates?application=${(await productionApp()).uuid}&fromDate=2026-01-01&toDate=2026-01-31`,
          ),
      },
      'GET /phpsdk/app-analytics/sumAggregates': {
        expect: { ...everyMember(200), legal: 403 },
        run: async (cl) =>
          cl.get(`/phpsdk/app-analytics/sumAggregates?application=${(await productionApp()).uuid}`),
      },
      'GET /admin-api/go-live': {
        expect: {
          anonymous: 401,
          stranger: 403,
          creator: 403,
          owner: 403,
          developer: 403,
          financial: 403,
          legal: 403,
          pending: 403,
        },
        run: (cl) => cl.get('/admin-api/go-live'),
      },
      'PUT /admin-api/app-analytics': {
        expect: {
          anonymous: 401,
          stranger: 403,
          creator: 403,
          owner: 403,
          developer: 403,
          financial: 403,
          legal: 403,
          pending: 403,
        },
        run: (cl) => cl.send('PUT', '/admin-api/app-analytics', { enabled: true }, 'application/json'),
      },
    };

  for (const [name, call] of Object.entries(calls)) {
    it(name, async () => {
      const got: Record<string, number> = {};
      for (const actor of ACTORS) got[actor] = (await call.run(w.c[actor])).status;
      expect(got).toEqual(call.expect);
    });
  }

  it('answers a signed-in non-member of an unknown application like an unknown one (404)', async () => {
    const res = await w.c.stranger.get('/jsonapi/node/application/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect((await w.c.creator.get('/jsonapi/node/application/999999')).status).toBe(404);
  });

  it('shows client secrets only to members who may change the application', async () => {
    const seen: Record<string, string | null> = {};
    for (const actor of ['creator', 'owner', 'developer', 'financial', 'legal'] as const) {
      const a = await getApp(w.c[actor], shared.uuid);
      seen[actor] = a.clientSecret;
      expect(a.clientId.development).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(seen.creator).toEqual(expect.any(String));
    expect(seen.developer).toBe(seen.creator);
    expect(seen.owner).toBe(seen.creator);
    expect(seen.financial).toBeNull();
    expect(seen.legal).toBeNull();
    const financial = await getApp(w.c.financial, shared.uuid);
    expect(financial.permissions).toEqual({
      update: false,
      delete: false,
      goLive: false,
      viewSecret: false,
      viewAnalytics: true,
    });
  });

  it('lets administrators use the review endpoints', async () => {
    expect((await w.admin.get('/admin-api/go-live')).status).toBe(200);
    const res = await w.admin.send('PUT', '/admin-api/app-analytics', { enabled: true }, 'application/json');
    expect(res.status).toBe(200);
  });
});

describe('applications: OAuth clients follow the application', () => {
  it('creates a development client whose credentials get a client_credentials token', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    expect(a.applicationStatus).toBe('DEVELOPMENT');
    expect(a.clientId.production).toBeNull();
    const client = await t.app.oauthClients.getClient(a.clientId.development!);
    expect(client).toMatchObject({
      applicationUuid: a.uuid,
      environment: 'DEVELOPMENT',
      grantTypes: ['client_credentials'],
    });
    const token = await clientCredentials(t, a.clientId.development!, a.clientSecret!);
    expect(token.status).toBe(200);
    expect(token.body.access_token).toEqual(expect.any(String));
    // Stored sealed, never in clear.
    const row = await t.app.db
      .selectFrom('oauth_clients')
      .select('secret')
      .where('client_id', '=', a.clientId.development!)
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(a.clientSecret!);
  });

  it('copies grant types and redirect URIs to the client on edit', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await w.c.developer.send(
      'PATCH',
      `/jsonapi/node/application/${a.uuid}/edit_app_custom`,
      appDocument({
        field_allowed_grant_types: ['authorization_code'],
        field_oauth_redirect_uri: [
          'https://app.example/callback',
          `${t.config.publicUrl}/oauth2/redoc-callback`,
        ],
        field_postlogout_redirect_uri: ['https://app.example/bye'],
      }),
    );
    expect(res.status).toBe(200);
    const edited = (await body<{ data: AppResource }>(res)).data.meta.application;
    expect(edited.title).toBe(VALID_APP.title);
    expect(edited.allowedGrantTypes).toEqual(['authorization_code']);
    const client = await t.app.oauthClients.getClient(a.clientId.development!);
    expect(client).toMatchObject({
      grantTypes: ['authorization_code'],
      redirectUris: ['https://app.example/callback', `${t.config.publicUrl}/oauth2/redoc-callback`],
      postLogoutRedirectUris: ['https://app.example/bye'],
    });
    // client_credentials is no longer allowed for this client.
    const token = await clientCredentials(t, a.clientId.development!, a.clientSecret!);
    expect(token.status).toBe(400);
    expect(token.body).toMatchObject({
      error: 'invalid_request',
      error_description: 'requested grant type is not allowed for this client',
    });
  });

  it('removes the client on delete: the credentials and an earlier token stop working', async () => {
    const product = await insertProduct(t.app.db, {
      alias: 'delete-api-v1',
      scope: 'accounts:read',
      documentation: 'delete-bank',
    });
    const a = await createApp(w.c.creator, w.org.id);
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
    const before = await clientCredentials(t, a.clientId.development!, a.clientSecret!);
    expect(before.status).toBe(200);
    expect((await sandbox(t, 'delete-bank/accounts', before.body.access_token!)).status).toBe(200);
    const res = await w.c.creator.send('DELETE', `/jsonapi/node/application/${a.uuid}`);
    expect(res.status).toBe(204);
    expect(await t.app.oauthClients.getClient(a.clientId.development!)).toBeUndefined();
    const after = await clientCredentials(t, a.clientId.development!, a.clientSecret!);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('invalid_client');
    expect(await t.app.oauthClients.clientAccess(a.clientId.development!)).toBeUndefined();
    const gone = await sandbox(t, 'delete-bank/accounts', before.body.access_token!);
    expect(gone).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect((await w.c.creator.get(`/jsonapi/node/application/${a.uuid}`)).status).toBe(404);
  });

  it('resets the secret: the old one fails at once, the new one works', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await w.c.developer.send(
      'POST',
      '/secret/reset',
      { application: a.uuid, environment: 'DEVELOPMENT' },
      'application/json',
    );
    expect(res.status).toBe(200);
    const reset = await body<{ secret: string; clientId: string; environment: string; message: string }>(res);
    expect(reset).toMatchObject({
      clientId: a.clientId.development,
      environment: 'DEVELOPMENT',
      message: M.copySecret,
    });
    expect(reset.secret).not.toBe(a.clientSecret);
    expect((await clientCredentials(t, a.clientId.development!, a.clientSecret!)).status).toBe(401);
    expect((await clientCredentials(t, a.clientId.development!, reset.secret)).status).toBe(200);
    expect((await getApp(w.c.developer, a.uuid)).clientSecret).toBe(reset.secret);
  });

  it('deletes the secret: it stops working and shows as null until a reset', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await w.c.developer.send(
      'POST',
      '/secret/delete',
      { application: a.uuid },
      'application/json',
    );
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({
      clientId: a.clientId.development,
      environment: 'DEVELOPMENT',
      deleted: true,
    });
    expect((await clientCredentials(t, a.clientId.development!, a.clientSecret!)).status).toBe(401);
    expect((await getApp(w.c.developer, a.uuid)).clientSecret).toBeNull();
    const reset = await w.c.developer.send(
      'POST',
      '/secret/reset',
      { application: a.uuid },
      'application/json',
    );
    const { secret } = await body<{ secret: string }>(reset);
    expect((await clientCredentials(t, a.clientId.development!, secret)).status).toBe(200);
    expect((await getApp(w.c.developer, a.uuid)).clientSecret).toBe(secret);
  });

  it('refuses a production secret before the application has a production client', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await w.c.developer.send(
      'POST',
      '/secret/reset',
      { application: a.uuid, environment: 'PRODUCTION' },
      'application/json',
    );
    expect(res.status).toBe(409);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(M.noProductionClient);
    const bad = await w.c.developer.send(
      'POST',
      '/secret/reset',
      { application: a.uuid, environment: 'STAGING' },
      'application/json',
    );
    expect(bad.status).toBe(422);
    expect((await body<JsonApiErrorBody>(bad)).errors[0]!.title).toBe(M.unknownEnvironment);
  });

  it('lists applications in the spec shape, of one organization or of all of the caller', async () => {
    const other = await createApp(w.c.creator, w.org.id, { title: 'Listed app' });
    const res = await w.c.financial.get(`/phpsdk/organization/apps?organization=${w.org.id}&page[limit]=2`);
    expect(res.status).toBe(200);
    const list = await body<{ data: Application[]; meta: { count: number }; links: { next?: unknown } }>(res);
    expect(list.data).toHaveLength(2);
    expect(list.meta.count).toBeGreaterThan(2);
    expect(list.links.next).toBeDefined();
    expect(list.data[0]!.uuid).toBe(other.uuid);
    expect(Object.keys(list.data[0]!).sort()).toEqual(
      [
        'uuid',
        'nid',
        'title',
        'description',
        'descriptionProcessed',
        'created',
        'changed',
        'allowedGrantTypes',
        'oauthRedirectUri',
        'postLogoutRedirectUri',
        'imageUrl',
        'clientId',
        'clientSecret',
        'clientSecrets',
        'applicationStatus',
        'goLive',
        'subscriptionIds',
        'subscriptions',
        'organizationId',
        'organization',
        'permissions',
        // Issue 28: how its OAuth clients authenticate (decision 049).
        'clientAuthentication',
      ].sort(),
    );
    const all = await body<{ data: Application[] }>(
      await w.c.creator.get('/phpsdk/organization/apps?page[limit]=50'),
    );
    expect(all.data.map((a) => a.organizationId)).toEqual(all.data.map(() => w.org.id));
    const none = await body<{ data: Application[] }>(await w.c.stranger.get('/phpsdk/organization/apps'));
    expect(none.data).toEqual([]);
  });

  it('includes the organization, subscriptions with their documentations and the credentials', async () => {
    const product = await insertProduct(t.app.db, {
      alias: 'include-api-v1',
      title: 'Include API',
      scope: 'accounts:read',
      scopeProduction: 'accounts:read:prod',
      documentation: 'include-v1',
    });
    const a = await createApp(w.c.creator, w.org.id);
    expect((await subscription(w.c.creator, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
    const res = await w.c.creator.get(
      `/jsonapi/node/application/${a.uuid}?include=field_image,field_organization,field_application_subscriptions,field_application_subscriptions.field_endpoints,field_credentials&organization=${w.org.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
    const doc = await body<{
      data: AppResource;
      included: { type: string; id: string; attributes: Record<string, unknown> }[];
    }>(res);
    expect(doc.data.relationships.field_application_subscriptions!.data).toEqual([
      { type: 'node--api_product', id: product.uuid },
    ]);
    expect(doc.included.map((i) => i.type).sort()).toEqual([
      'group--organization',
      'node--api_documentation',
      'node--api_product',
      'oauth_client--oauth_client',
    ]);
    const credential = doc.included.find((i) => i.type === 'oauth_client--oauth_client')!;
    expect(credential.attributes).toMatchObject({
      environment: 'DEVELOPMENT',
      client_secret: a.clientSecret,
    });
    expect(doc.data.meta.application.subscriptions[0]).toMatchObject({
      uuid: product.uuid,
      title: 'Include API',
      alias: '/include-api-v1',
      scope: 'accounts:read',
      scopeProduction: 'accounts:read:prod',
      apiEndpoints: [
        {
          title: 'Include API documentation',
          scope: 'accounts:read',
          scope_production: 'accounts:read:prod',
        },
      ],
    });
    const wrongOrg = await w.c.creator.get(`/jsonapi/node/application/${a.uuid}?organization=12345`);
    expect(wrongOrg.status).toBe(404);
    const badInclude = await w.c.creator.get(`/jsonapi/node/application/${a.uuid}?include=uid`);
    expect(badInclude.status).toBe(400);
  });
});

describe('applications: validation (spec A 5 and 8)', () => {
  async function createErrors(attributes: Record<string, unknown>) {
    const res = await w.c.creator.send(
      'POST',
      `/phpsdk/organization/apps/create?ORGANIZATION=${w.org.id}`,
      appDocument(attributes),
    );
    expect(res.status).toBe(422);
    return (await body<JsonApiErrorBody>(res)).errors.map((e) => [e.title, e.source?.pointer]);
  }

  it('requires a title, a description and a grant type', async () => {
    expect(await createErrors({})).toEqual([
      [M.required, '/data/attributes/title'],
      [M.required, '/data/attributes/field_description'],
      [M.grantTypeRequired, '/data/attributes/field_allowed_grant_types'],
    ]);
    expect(await createErrors({ ...VALID_APP, title: '   ' })).toEqual([
      [M.required, '/data/attributes/title'],
    ]);
  });

  it('limits the description to 1000 characters and wants more than 1 character of text', async () => {
    expect(await createErrors({ ...VALID_APP, field_description: `<p>${'x'.repeat(1000)}</p>` })).toEqual([
      [M.descriptionTooLong, '/data/attributes/field_description'],
    ]);
    expect(await createErrors({ ...VALID_APP, field_description: '<p>a</p>' })).toEqual([
      [M.required, '/data/attributes/field_description'],
    ]);
    // Nothing but a script is nothing once sanitized.
    expect(await createErrors({ ...VALID_APP, field_description: '<script>alert(1)</script>' })).toEqual([
      [M.required, '/data/attributes/field_description'],
    ]);
  });

  it('requires at least one grant type and a redirect URI for the code grant', async () => {
    expect(await createErrors({ ...VALID_APP, field_allowed_grant_types: [] })).toEqual([
      [M.grantTypeRequired, '/data/attributes/field_allowed_grant_types'],
    ]);
    expect(await createErrors({ ...VALID_APP, field_allowed_grant_types: ['authorization_code'] })).toEqual([
      [M.redirectUriRequired, '/data/attributes/field_oauth_redirect_uri'],
    ]);
    expect(
      await createErrors({
        ...VALID_APP,
        field_oauth_redirect_uri: ['not a url', 'https://ok.example/cb#frag'],
      }),
    ).toEqual([[M.invalidUrl, '/data/attributes/field_oauth_redirect_uri/0']]);
    expect(
      await createErrors({ ...VALID_APP, field_oauth_redirect_uri: ['https://ok.example/cb#frag'] }),
    ).toEqual([[M.redirectUriFragment, '/data/attributes/field_oauth_redirect_uri']]);
  });

  it('sanitizes the description HTML', async () => {
    const a = await createApp(w.c.creator, w.org.id, {
      field_description:
        '<p onclick="steal()">Hello <strong>world</strong><script>bad()</script> <a href="javascript:alert(1)">x</a> <a href="https://docs.example">docs</a></p><img src=x onerror=alert(1)>',
    });
    expect(a.description).toBe(
      '<p>Hello <strong>world</strong> <a rel="noopener noreferrer nofollow">x</a> <a href="https://docs.example" rel="noopener noreferrer nofollow">docs</a></p>',
    );
  });

  it('validates the edit call the same way, keeping what is not sent', async () => {
    const a = await createApp(w.c.creator, w.org.id);
    const res = await w.c.creator.send(
      'PATCH',
      `/jsonapi/node/application/${a.uuid}/edit_app_custom`,
      appDocument({ title: '', field_allowed_grant_types: [] }),
    );
    expect(res.status).toBe(422);
    expect((await body<JsonApiErrorBody>(res)).errors.map((e) => e.title)).toEqual([
      M.required,
      M.grantTypeRequired,
    ]);
    const unknown = await w.c.creator.send(
      'PATCH',
      `/jsonapi/node/application/${a.uuid}/edit_app_custom`,
      appDocument({ field_application_status: 'PRODUCTION' }),
    );
    // An attribute the application does not take is a 400 naming it (docs/security.md, Input).
    expect(unknown.status).toBe(400);
    expect((await unknown.json()) as unknown).toMatchObject({
      errors: [{ code: 'unknown_field', source: { pointer: '/data/attributes/field_application_status' } }],
    });
    const mismatch = await w.c.creator.send('PATCH', `/jsonapi/node/application/${a.uuid}/edit_app_custom`, {
      data: {
        type: 'node--application',
        id: '00000000-0000-4000-8000-000000000000',
        attributes: { title: 'x' },
      },
    });
    expect(mismatch.status).toBe(409);
    expect((await getApp(w.c.creator, a.uuid)).title).toBe(VALID_APP.title);
  });

  it('validates the create payload of POST /api/application', async () => {
    const res = await w.c.creator.send(
      'POST',
      '/api/application',
      { organization: w.org.id, title: '', description: 'x'.repeat(1001), allowedGrantTypes: [] },
      'application/json',
    );
    expect(res.status).toBe(422);
    expect((await body<JsonApiErrorBody>(res)).errors.map((e) => [e.title, e.source?.pointer])).toEqual([
      [M.required, '/title'],
      [M.descriptionTooLong, '/description'],
      [M.grantTypeRequired, '/allowedGrantTypes'],
    ]);
    const noOrg = await w.c.creator.send('POST', '/api/application', { title: 'x' }, 'application/json');
    expect(noOrg.status).toBe(422);
    expect((await body<JsonApiErrorBody>(noOrg)).errors[0]!.title).toBe(M.organizationRequired);
    const ok = await w.c.creator.send(
      'POST',
      '/api/application',
      {
        title: 'From the terminal',
        organization: String(w.org.attributes.drupal_internal__id),
        description: '<p>Terminal</p>',
        allowedGrantTypes: ['client_credentials', 'authorization_code'],
        oAuthRedirectUri: ['https://t.example/cb'],
        postLogoutRedirectUri: [],
      },
      'application/json',
    );
    expect(ok.status).toBe(200);
    const created = (await body<{ data: Application }>(ok)).data;
    expect(created).toMatchObject({
      title: 'From the terminal',
      organizationId: w.org.id,
      applicationStatus: 'DEVELOPMENT',
    });
    expect(created.clientSecret).toEqual(expect.any(String));
  });

  it('names the organization on create', async () => {
    const res = await w.c.creator.send('POST', '/phpsdk/organization/apps/create', appDocument(VALID_APP));
    expect(res.status).toBe(400);
    expect((await body<JsonApiErrorBody>(res)).errors[0]!.title).toBe(M.organizationRequired);
  });
});
