import type { Application } from '@portico/contracts/applications';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_ALG } from '../src/authz-server/registration.ts';
import { appDb } from '../src/modules/applications/tables.ts';
import {
  clientCredentials,
  createApp,
  insertProduct,
  makeWorld,
  subscription,
  type World,
} from './applications-fixtures.ts';
import { TestClient } from './http-client.ts';
import { body } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Dynamic client registration (issue 28): the software statement downloaded from an application,
 * RFC 7591 registration with it through a real client library (openid-client), the registered
 * client as an application of the organization, RFC 7592 read, update and delete, and the precise
 * refusals that store nothing.
 */
let t: TestApp;
let w: World;
let source: Application;
let issuer: string;
const REDIRECT = 'https://tpp.example/callback';

beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  issuer = `${t.baseUrl}/oauth`;
  const product = await insertProduct(t.app.db, { alias: 'dcr-accounts', scope: 'accounts:read' });
  source = await createApp(w.c.creator, w.org.id, {
    title: 'Budget Buddy',
    field_allowed_grant_types: ['client_credentials', 'authorization_code'],
    field_oauth_redirect_uri: [REDIRECT],
  });
  expect((await subscription(w.c.creator, 'subscribe', source.uuid, product.uuid)).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const statementUrl = (uuid: string) => `/api/application/${uuid}/software-statement`;

async function statementOf(client: TestClient, uuid = source.uuid): Promise<string> {
  const res = await client.get(statementUrl(uuid));
  expect(res.status).toBe(200);
  return res.text();
}

/** POST /oauth/reg with a JSON body; the status and the parsed answer. */
async function register(metadata: Record<string, unknown>) {
  const res = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function applicationCount(): Promise<number> {
  const row = await appDb(t.app.db)
    .selectFrom('applications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('software statements', () => {
  it('are signed by the portal with the application, its organization and redirect URIs', async () => {
    const res = await w.c.creator.get(statementUrl(source.uuid));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwt/);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="budget-buddy-software-statement.jwt"',
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const jwt = await res.text();
    const keys = await fetch(`${t.baseUrl}/oauth/software-statement-keys`);
    expect(keys.status).toBe(200);
    const jwks = (await keys.json()) as { keys: JWK[] };
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(jwks), {
      issuer: t.app.config.publicUrl,
    });
    expect(protectedHeader.alg).toBe(STATEMENT_ALG);
    expect(payload).toMatchObject({
      software_id: source.uuid,
      software_client_id: source.clientId.development,
      software_client_name: 'Budget Buddy',
      software_redirect_uris: [REDIRECT],
      software_environment: 'sandbox',
      org_id: w.org.id,
    });
    expect(payload.exp! - payload.iat!).toBe(90 * 24 * 3600);
  });

  it('are given only to members who may create applications and change this one', async () => {
    expect((await w.c.owner.get(statementUrl(source.uuid))).status).toBe(200);
    expect((await w.c.anonymous.get(statementUrl(source.uuid))).status).toBe(401);
    expect((await w.c.stranger.get(statementUrl(source.uuid))).status).toBe(404);
    expect((await w.c.financial.get(statementUrl(source.uuid))).status).toBe(403);
    expect((await w.c.legal.get(statementUrl(source.uuid))).status).toBe(403);
    expect((await w.c.creator.get(statementUrl('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
  });
});

describe('dynamic client registration (RFC 7591) and management (RFC 7592)', () => {
  it('is advertised in discovery', async () => {
    const res = await fetch(`${issuer}/.well-known/openid-configuration`);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta.registration_endpoint).toBe(`${issuer}/reg`);
  });

  it('registers a client with openid-client that gets tokens and shows in the organization', async () => {
    const statement = await statementOf(w.c.creator);
    // The issuer identifier is PUBLIC_URL's (localhost), as a TPP's tooling would be configured.
    const config = await oidc.dynamicClientRegistration(
      new URL(t.app.oauthServer.issuer),
      {
        software_statement: statement,
        client_name: 'Budget Buddy (TPP tooling)',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      undefined,
      { execute: [oidc.allowInsecureRequests] },
    );
    const registered = config.clientMetadata();
    expect(registered.client_id).toEqual(expect.any(String));
    expect(registered.client_secret).toEqual(expect.any(String));
    expect(registered.registration_access_token).toEqual(expect.any(String));
    expect(registered.software_id).toBe(source.uuid);

    // The same limits as the application the statement names: its subscription's scopes.
    const token = await oidc.clientCredentialsGrant(config);
    expect(token.scope).toBe('accounts:read');
    expect(decodeJwt(token.access_token).client_id).toBe(registered.client_id);

    // An application of the organization like any other, created by the statement's application's creator.
    const list = await body<{ data: Application[] }>(
      await w.c.developer.get(`/phpsdk/organization/apps?organization=${w.org.id}&page[limit]=50`),
    );
    const app = list.data.find((a) => a.clientId.development === registered.client_id);
    expect(app).toMatchObject({ title: 'Budget Buddy (TPP tooling)', applicationStatus: 'DEVELOPMENT' });
    const row = await appDb(t.app.db)
      .selectFrom('applications')
      .select(['registered_from', 'created_by'])
      .where('uuid', '=', app!.uuid)
      .executeTakeFirstOrThrow();
    expect(row.registered_from).toBe(source.uuid);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('target_id', '=', app!.uuid)
      .execute();
    expect(audit).toEqual([{ action: 'application.registered', actor_id: null }]);
  });

  it('reads, updates (rotating the registration access token) and deletes the client', async () => {
    const created = await register({
      software_statement: await statementOf(w.c.creator),
      grant_types: ['authorization_code', 'client_credentials'],
      redirect_uris: [REDIRECT],
    });
    expect(created.status).toBe(201);
    const clientId = String(created.body.client_id);
    const uri = String(created.body.registration_client_uri);
    expect(uri).toBe(`${issuer}/reg/${clientId}`);
    expect(created.body.client_name).toBe('Budget Buddy');
    const auth = (token: unknown) => ({ authorization: `Bearer ${String(token)}` });

    const read = await fetch(uri, { headers: auth(created.body.registration_access_token) });
    expect(read.status).toBe(200);
    const record = (await read.json()) as { client_id: string; redirect_uris: string[] };
    expect(record.client_id).toBe(clientId);
    expect(record.redirect_uris).toContain(REDIRECT);

    const updated = await fetch(uri, {
      method: 'PUT',
      headers: { ...auth(created.body.registration_access_token), 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: clientId,
        client_name: 'Renamed by the TPP',
        grant_types: ['client_credentials', 'authorization_code'],
        redirect_uris: record.redirect_uris,
      }),
    });
    expect(updated.status).toBe(200);
    const next = (await updated.json()) as Record<string, unknown>;
    expect(next.registration_access_token).not.toBe(created.body.registration_access_token);
    const client = await t.app.oauthClients.getClient(clientId);
    expect(client?.grantTypes).toEqual(['client_credentials', 'authorization_code']);
    // The try-out console's own callback (added for every development client) is not stored as theirs.
    expect(client?.redirectUris).toEqual([REDIRECT]);
    const appRow = await appDb(t.app.db)
      .selectFrom('applications')
      .select(['title', 'uuid'])
      .where('uuid', '=', client!.applicationUuid!)
      .executeTakeFirstOrThrow();
    expect(appRow.title).toBe('Renamed by the TPP');
    // The old registration access token was rotated away.
    expect((await fetch(uri, { headers: auth(created.body.registration_access_token) })).status).toBe(401);

    const secret = String(created.body.client_secret);
    expect((await clientCredentials(t, clientId, secret)).status).toBe(200);
    const removed = await fetch(uri, { method: 'DELETE', headers: auth(next.registration_access_token) });
    expect(removed.status).toBe(204);
    expect(await t.app.oauthClients.getClient(clientId)).toBeUndefined();
    const gone = await appDb(t.app.db)
      .selectFrom('applications')
      .select('id')
      .where('uuid', '=', appRow.uuid)
      .execute();
    expect(gone).toEqual([]);
    expect((await clientCredentials(t, clientId, secret)).body.error).toBe('invalid_client');
  });

  it('refuses a registration precisely and stores nothing', async () => {
    const statement = await statementOf(w.c.creator);
    const before = await applicationCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { grant_types: ['client_credentials'], response_types: [] },
        'invalid_software_statement',
        'software_statement is required: download it from the application page on the portal',
      ],
      [
        { software_statement: 'not-a-jwt', grant_types: ['client_credentials'], response_types: [] },
        'invalid_software_statement',
        'software_statement is not a signed JWT',
      ],
      [
        {
          software_statement: `${statement.slice(0, -4)}AAAA`,
          grant_types: ['client_credentials'],
          response_types: [],
        },
        'invalid_software_statement',
        'software_statement signature is not valid',
      ],
      [
        { software_statement: statement, redirect_uris: ['https://evil.example/cb'] },
        'invalid_redirect_uri',
        "redirect URI 'https://evil.example/cb' is not among the software statement's software_redirect_uris",
      ],
      [
        {
          software_statement: statement,
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'none',
        },
        'invalid_client_metadata',
        'token_endpoint_auth_method must be one of client_secret_basic, client_secret_post',
      ],
    ];
    for (const [metadata, error, description] of cases) {
      const res = await register(metadata);
      expect(res.status, description).toBe(400);
      expect(res.body).toEqual({ error, error_description: description });
    }
    expect(await applicationCount()).toBe(before);
  });

  it('refuses an expired statement and one whose application was deleted', async () => {
    const claims = decodeJwt(await statementOf(w.c.creator));
    const old = await t.app.softwareStatements.sign(
      {
        software_id: String(claims.software_id),
        software_client_id: '',
        software_client_name: 'Budget Buddy',
        software_client_description: '',
        software_version: '1',
        software_environment: 'sandbox',
        software_mode: 'Test',
        software_redirect_uris: [],
        software_roles: [],
        org_id: w.org.id,
        org_name: '',
        org_status: 'Active',
      },
      new Date(Date.now() - 91 * 24 * 3600 * 1000),
    );
    const expired = await register({
      software_statement: old,
      grant_types: ['client_credentials'],
      response_types: [],
    });
    expect(expired.body).toEqual({
      error: 'invalid_software_statement',
      error_description:
        'software_statement expired: download a new one from the application page on the portal',
    });

    const doomed = await createApp(w.c.creator, w.org.id, { title: 'Short-lived' });
    const statement = await statementOf(w.c.creator, doomed.uuid);
    const del = await w.c.creator.send('DELETE', `/jsonapi/node/application/${doomed.uuid}`);
    expect(del.status).toBeLessThan(300);
    const before = await applicationCount();
    const res = await register({
      software_statement: statement,
      grant_types: ['client_credentials'],
      response_types: [],
    });
    expect(res.body).toEqual({
      error: 'invalid_software_statement',
      error_description:
        'software_statement names an application that no longer exists in its organization (software_id, org_id)',
    });
    expect(await applicationCount()).toBe(before);
  });
});
