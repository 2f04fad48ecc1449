import type { Application } from '@portico/contracts/applications';
import { X509Certificate } from 'node:crypto';
import { CLIENT_AUTH_ATTRIBUTES as A } from '@portico/contracts/client-auth';
import {
  SignJWT,
  createLocalJWKSet,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JWK,
} from 'jose';
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
import { selfSignedCertificate } from '../src/lib/self-signed-certificate.ts';

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
let product: { uuid: string };
let publishedKeys: { keys: JWK[] } = { keys: [] };

beforeAll(async () => {
  t = await startTestApp({ LOGIN_RATE_LIMIT: '1000', IMPORT_CONTENT: 'false' }, (app) => {
    // A TPP's published keys (an application's jwks_uri).
    app.get('/test/tpp-jwks', async () => publishedKeys);
  });
  w = await makeWorld(t, new TestClient(t.baseUrl));
  issuer = `${t.baseUrl}/oauth`;
  product = await insertProduct(t.app.db, { alias: 'dcr-accounts', scope: 'accounts:read' });
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
        'token_endpoint_auth_method must be one of client_secret_basic, client_secret_post, private_key_jwt, tls_client_auth, self_signed_tls_client_auth',
      ],
      [
        {
          software_statement: statement,
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'private_key_jwt',
        },
        'invalid_client_metadata',
        'jwks: Signed JWT authentication needs the public keys: paste a JWKS or give a JWKS URL',
      ],
      [
        {
          software_statement: statement,
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] },
        },
        'invalid_client_metadata',
        'jwks: JWKS /keys/0/kty: symmetric keys ("oct") are not allowed; paste public RSA, EC or OKP keys',
      ],
      [
        {
          software_statement: statement,
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'private_key_jwt',
          jwks_uri: 'http://tpp.example/jwks',
        },
        'invalid_client_metadata',
        'jwks_uri: The JWKS URL must be https (http only on localhost outside production)',
      ],
      [
        {
          software_statement: statement,
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'tls_client_auth',
        },
        'invalid_client_metadata',
        "tls_client_auth_subject_dn: The certificate's subject DN is required for mutual TLS",
      ],
      [
        {
          software_statement: statement,
          grant_types: ['client_credentials'],
          response_types: [],
          token_endpoint_auth_method: 'tls_client_auth',
          tls_client_auth_subject_dn: 'tpp',
        },
        'invalid_client_metadata',
        "tls_client_auth_subject_dn: The subject DN must be attribute=value pairs separated by commas, e.g. 'CN=tpp.example,O=Example TPP,C=NL'",
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

/** The client row's authentication method and keys, as the token endpoint reads them. */
async function authOf(clientId: string) {
  return t.app.db
    .selectFrom('oauth_clients')
    .select(['auth_method', 'jwks', 'jwks_uri', 'tls_subject_dn', 'secret'])
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow();
}

describe("client authentication of registered clients (the form's methods and checks)", () => {
  it('registers a private_key_jwt client with its JWKS; openid-client gets a token with a signed assertion', async () => {
    const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'tpp-signing-1', use: 'sig', alg: 'PS256' };
    const config = await oidc.dynamicClientRegistration(
      new URL(t.app.oauthServer.issuer),
      {
        software_statement: await statementOf(w.c.creator),
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
      },
      oidc.PrivateKeyJwt({ key: privateKey, kid: 'tpp-signing-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
    const registered = config.clientMetadata();
    expect(registered.token_endpoint_auth_method).toBe('private_key_jwt');
    expect(registered.client_secret).toBeUndefined();
    const row = await authOf(registered.client_id);
    expect(row.auth_method).toBe('private_key_jwt');
    expect(row.secret).not.toBeNull(); // confidential, its unused secret never answered
    const token = await oidc.clientCredentialsGrant(config);
    expect(decodeJwt(token.access_token)).toMatchObject({
      client_id: registered.client_id,
      scope: 'accounts:read',
    });
    // A client secret does not authenticate it.
    const bySecret = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: registered.client_id }),
    });
    expect(bySecret.status).toBe(401);
  });

  it('registers tls_client_auth with the subject DN and self_signed_tls_client_auth with the certificate', async () => {
    const statement = await statementOf(w.c.creator);
    const tls = await register({
      software_statement: statement,
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: 'CN=tpp.example,O=Example TPP,C=NL',
    });
    expect(tls.status).toBe(201);
    expect(tls.body).toMatchObject({
      token_endpoint_auth_method: 'tls_client_auth',
      tls_client_auth_subject_dn: 'CN=tpp.example,O=Example TPP,C=NL',
      tls_client_certificate_bound_access_tokens: true,
    });
    expect(await authOf(String(tls.body.client_id))).toMatchObject({
      auth_method: 'tls_client_auth',
      tls_subject_dn: 'CN=tpp.example,O=Example TPP,C=NL',
    });

    const mine = await selfSignedCertificate({ subject: [['CN', 'self.example']] });
    const cert = new X509Certificate(mine.cert);
    const jwk = { ...(await exportJWK(cert.publicKey)), x5c: [cert.raw.toString('base64')] };
    const self = await register({
      software_statement: statement,
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'self_signed_tls_client_auth',
      jwks: { keys: [jwk] },
    });
    expect(self.status).toBe(201);
    expect((await authOf(String(self.body.client_id))).auth_method).toBe('self_signed_tls_client_auth');

    // Without the certificate in x5c, the JWKS cannot register a self-signed client.
    const { x5c: _x5c, ...bare } = jwk;
    const refused = await register({
      software_statement: statement,
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'self_signed_tls_client_auth',
      jwks: { keys: [bare] },
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        error: 'invalid_client_metadata',
        error_description:
          'jwks: JWKS /keys/0/x5c: must hold the client certificate (base64 DER) for self-signed mutual TLS',
      },
    });
  });

  it('an RFC 7592 update changes the method, and a FAPI 2.0 application keeps a signed JWT', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1' }] };
    const created = await register({
      software_statement: await statementOf(w.c.creator),
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks,
    });
    expect(created.status).toBe(201);
    const clientId = String(created.body.client_id);
    const uri = String(created.body.registration_client_uri);
    const app = await t.app.oauthClients.getClient(clientId);
    // FAPI 2.0 on: the application's owner sets it on the portal.
    const fapi = await w.c.creator.send('PUT', `/api/applications/${app!.applicationUuid}/token-security`, {
      dpopBoundAccessTokens: false,
      fapi: true,
    });
    expect(fapi.status).toBe(200);
    const update = (token: string, metadata: Record<string, unknown>) =>
      fetch(uri, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: clientId,
          grant_types: ['client_credentials'],
          response_types: [],
          ...metadata,
        }),
      });
    const toSecret = await update(String(created.body.registration_access_token), {
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(toSecret.status).toBe(400);
    expect(await toSecret.json()).toEqual({
      error: 'invalid_client_metadata',
      error_description:
        'token_endpoint_auth_method: FAPI 2.0 requires signed JWT or mutual TLS client authentication',
    });
    expect((await authOf(clientId)).auth_method).toBe('private_key_jwt');
  });
});

describe('signed registration requests (application/jwt, the UK Open Banking shape)', () => {
  let signing: { privateKey: CryptoKey; jwk: JWK };
  let keyed: Application;

  beforeAll(async () => {
    const pair = await generateKeyPair('PS256', { extractable: true });
    signing = {
      privateKey: pair.privateKey,
      jwk: { ...(await exportJWK(pair.publicKey)), kid: 'tpp-dcr-1', alg: 'PS256', use: 'sig' },
    };
    // The application the statement is for authenticates with a signed JWT: its JWKS verifies
    // the TPP's registration requests.
    keyed = await createApp(w.c.creator, w.org.id, {
      title: 'Keyed Tooling',
      field_allowed_grant_types: ['client_credentials'],
      [A.method]: 'private_key_jwt',
      [A.jwks]: JSON.stringify({ keys: [signing.jwk] }),
    });
    expect((await subscription(w.c.creator, 'subscribe', keyed.uuid, product.uuid)).status).toBe(200);
  });

  const signed = async (
    claims: Record<string, unknown>,
    options: { key?: CryptoKey; iss?: string; aud?: string; kid?: string } = {},
  ) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'PS256', kid: options.kid ?? 'tpp-dcr-1', typ: 'JWT' })
      .setIssuer(options.iss ?? keyed.uuid)
      .setAudience(options.aud ?? t.app.oauthServer.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(crypto.randomUUID())
      .sign(options.key ?? signing.privateKey);

  const post = async (jwt: string) => {
    const res = await fetch(`${issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/jwt' },
      body: jwt,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("registers the client its claims describe, verified with a key of the statement's application", async () => {
    const jwt = await signed({
      software_statement: await statementOf(w.c.creator, keyed.uuid),
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [signing.jwk] },
      client_name: 'Keyed Tooling (registered)',
    });
    const res = await post(jwt);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      client_name: 'Keyed Tooling (registered)',
      token_endpoint_auth_method: 'private_key_jwt',
      software_id: keyed.uuid,
    });
    expect(res.body.iss).toBeUndefined();
    // The registered client gets tokens with the same key (openid-client, private_key_jwt).
    const config = await oidc.discovery(
      new URL(t.app.oauthServer.issuer),
      String(res.body.client_id),
      { token_endpoint_auth_method: 'private_key_jwt' },
      oidc.PrivateKeyJwt({ key: signing.privateKey, kid: 'tpp-dcr-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
    const token = await oidc.clientCredentialsGrant(config);
    expect(token.scope).toBe('accounts:read');
  });

  it("verifies with the keys at the application's jwks_uri too", async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    publishedKeys = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'published-1', alg: 'ES256' }] };
    const published = await createApp(w.c.creator, w.org.id, {
      title: 'Published Keys Tooling',
      field_allowed_grant_types: ['client_credentials'],
      [A.method]: 'private_key_jwt',
      [A.jwksUri]: `${t.baseUrl}/test/tpp-jwks`,
    });
    const jwt = await new SignJWT({
      software_statement: await statementOf(w.c.creator, published.uuid),
      grant_types: ['client_credentials'],
      response_types: [],
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'published-1' })
      .setIssuer(published.uuid)
      .setAudience(t.app.oauthServer.issuer)
      .setIssuedAt()
      .sign(pair.privateKey);
    const res = await post(jwt);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      software_id: published.uuid,
      token_endpoint_auth_method: 'client_secret_basic',
    });
  });

  it('refuses a request signed with another key, for another audience or issuer, or without keys, storing nothing', async () => {
    const statement = await statementOf(w.c.creator, keyed.uuid);
    const claims = { software_statement: statement, grant_types: ['client_credentials'], response_types: [] };
    const before = await applicationCount();
    const other = (await generateKeyPair('PS256')).privateKey;
    const cases: [string, string, string][] = [
      [
        await signed(claims, { key: other }),
        'invalid_client_metadata',
        "registration request JWT signature does not verify with the public keys of the software statement's application",
      ],
      [
        await signed(claims, { kid: 'unknown' }),
        'invalid_client_metadata',
        "registration request JWT is signed with a key that is not in the JWKS of the software statement's application (kid)",
      ],
      [
        await signed(claims, { aud: 'https://other.example' }),
        'invalid_client_metadata',
        `registration request JWT claim 'aud' must be the authorization server '${t.app.oauthServer.issuer}'`,
      ],
      [
        await signed(claims, { iss: 'someone-else' }),
        'invalid_client_metadata',
        `registration request JWT claim 'iss' must be the software statement's software_id '${keyed.uuid}'`,
      ],
      [
        await signed({ grant_types: ['client_credentials'] }),
        'invalid_software_statement',
        "software_statement is required among the registration request JWT's claims",
      ],
      [
        'not.a.jwt',
        'invalid_client_metadata',
        'the registration request is not a signed JWT (a JWS in compact form)',
      ],
      [
        // The source application authenticates with a client secret: no keys to verify with.
        await signed({ ...claims, software_statement: await statementOf(w.c.creator) }, { iss: source.uuid }),
        'invalid_client_metadata',
        "the registration request JWT cannot be verified: the software statement's application has no public keys; set its client authentication to a signed JWT with a JWKS or JWKS URL on the portal",
      ],
      [
        await signed({ ...claims, token_endpoint_auth_method: 'private_key_jwt' }),
        'invalid_client_metadata',
        'jwks: Signed JWT authentication needs the public keys: paste a JWKS or give a JWKS URL',
      ],
    ];
    for (const [jwt, error, description] of cases) {
      const res = await post(jwt);
      expect(res, description).toEqual({ status: 400, body: { error, error_description: description } });
    }
    expect(await applicationCount()).toBe(before);
  });
});
