import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import https from 'node:https';
import type { Application } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import { CLIENT_AUTH_ATTRIBUTES as A } from '@portico/contracts/client-auth';
import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../src/lib/self-signed-certificate.ts';
import { TestClient } from './http-client.ts';
import {
  appDocument,
  createApp,
  insertProduct,
  makeWorld,
  subscription,
  VALID_APP,
  type AppResource,
  type World,
} from './applications-fixtures.ts';
import { body, type JsonApiErrorBody } from './org-fixtures.ts';
import { certDb } from '../src/modules/certificates/tables.ts';
import { issueSandboxCertificate, type SandboxCertificate } from './sandbox-ca-fixtures.ts';
import { freePort, startTestApp, type TestApp } from './test-app.ts';

/**
 * Client authentication methods (issue 28, decision 049): private_key_jwt through openid-client,
 * the JWKS checks, tls_client_auth over the real mutual-TLS port, certificate-bound tokens at the
 * gateway, the proxy header and who may change the method.
 */
let t: TestApp;
let w: World;
let mtlsPort: number;
let product: { uuid: string };
/** What the test route /test/tpp-jwks serves: a TPP's published keys (jwks_uri). */
let publishedKeys: { keys: Record<string, unknown>[] } = { keys: [] };

beforeAll(async () => {
  mtlsPort = await freePort();
  t = await startTestApp(
    {
      LOGIN_RATE_LIMIT: '1000',
      IMPORT_CONTENT: 'false',
      SANDBOX_MTLS_PORT: String(mtlsPort),
      MTLS_CERT_HEADER: 'X-Client-Cert',
    },
    (app) => {
      app.get('/test/tpp-jwks', async () => publishedKeys);
    },
  );
  w = await makeWorld(t, new TestClient(t.baseUrl));
  product = await insertProduct(t.app.db, {
    alias: 'cauth-accounts-v1',
    title: 'Accounts',
    scope: 'accounts:read',
    documentation: 'cauth-bank',
  });
});
afterAll(async () => {
  await t?.close();
});

const edit = (client: TestClient, id: string, attributes: Record<string, unknown>) =>
  client.send('PATCH', `/jsonapi/node/application/${id}/edit_app_custom`, {
    data: { type: 'node--application', id, attributes },
  });

async function subscribedApp(attributes: Record<string, unknown> = {}): Promise<Application> {
  const a = await createApp(w.c.developer, w.org.id, attributes);
  expect((await subscription(w.c.developer, 'subscribe', a.uuid, product.uuid)).status).toBe(200);
  return a;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A request to the mutual-TLS port, with a client certificate or none. */
function overMtls(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; cert?: string; key?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: mtlsPort,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        ca: t.app.mtlsServer?.serverCertificate,
        ...(options.cert ? { cert: options.cert, key: options.key } : {}),
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const tokenForm = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

async function sandboxOverHttp(token: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${t.baseUrl}/sandbox/cauth-bank/accounts`, {
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('private_key_jwt', () => {
  it('a JWKS set on the form lets openid-client get a token with a signed client assertion', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'tpp-key-1', use: 'sig', alg: 'ES256' };
    const a = await subscribedApp({
      [A.method]: 'private_key_jwt',
      [A.jwks]: JSON.stringify({ keys: [jwk] }),
    });
    expect(a.clientAuthentication).toMatchObject({ method: 'private_key_jwt', jwks: { keys: [jwk] } });
    const clientId = a.clientId.development!;

    // The secret no longer authenticates the client at the token endpoint.
    const bySecret = await fetch(
      `${t.baseUrl}/oauth/token`,
      tokenForm({ grant_type: 'client_credentials', client_id: clientId, client_secret: a.clientSecret! }),
    );
    expect(bySecret.status).toBe(401);

    const config = await oidc.discovery(
      new URL(`${t.config.publicUrl}/oauth`),
      clientId,
      { token_endpoint_auth_method: 'private_key_jwt' },
      oidc.PrivateKeyJwt({ key: privateKey, kid: 'tpp-key-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'accounts:read' });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ client_id: clientId, scope: 'accounts:read' });
    expect((await sandboxOverHttp(tokens.access_token)).status).toBe(200);

    // Signed with another key: refused.
    const other = (await generateKeyPair('ES256')).privateKey;
    const wrong = await oidc.discovery(
      new URL(`${t.config.publicUrl}/oauth`),
      clientId,
      { token_endpoint_auth_method: 'private_key_jwt' },
      oidc.PrivateKeyJwt({ key: other, kid: 'tpp-key-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
    await expect(oidc.clientCredentialsGrant(wrong, { scope: 'accounts:read' })).rejects.toMatchObject({
      error: 'invalid_client',
    });
  });

  it('keys at a jwks_uri are fetched by the authorization server', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    publishedKeys = { keys: [{ ...(await exportJWK(publicKey)), kid: 'published-1', alg: 'ES256' }] };
    const a = await subscribedApp({
      [A.method]: 'private_key_jwt',
      [A.jwksUri]: `${t.baseUrl}/test/tpp-jwks`,
    });
    const config = await oidc.discovery(
      new URL(`${t.config.publicUrl}/oauth`),
      a.clientId.development!,
      { token_endpoint_auth_method: 'private_key_jwt' },
      oidc.PrivateKeyJwt({ key: privateKey, kid: 'published-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'accounts:read' });
    expect(decodeJwt(tokens.access_token).client_id).toBe(a.clientId.development);
  });

  it('a malformed JWKS is a 422 naming the problem and pointing at the field; nothing is stored', async () => {
    const pointer = `/data/attributes/${A.jwks}`;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privateJwk = await exportJWK(privateKey);
    const cases: [unknown, string][] = [
      ['{"keys": [', 'The JWKS is not valid JSON'],
      ['[]', 'JWKS /: must be a JSON object with a "keys" array'],
      ['{"keys": []}', 'JWKS /keys: must contain at least one key'],
      [JSON.stringify({ keys: [privateJwk] }), 'JWKS /keys/0/d: this is a private key'],
      [JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }), 'JWKS /keys/0/kty: symmetric keys ("oct")'],
      [JSON.stringify({ keys: [{ kty: 'RSA', n: 'AQAB' }] }), 'JWKS /keys/0: is not a valid RSA public key'],
    ];
    const before = await t.app.db.selectFrom('oauth_clients').select('client_id').execute();
    for (const [jwks, title] of cases) {
      const res = await w.c.developer.send(
        'POST',
        `/phpsdk/organization/apps/create?ORGANIZATION=${w.org.id}&_format=json`,
        appDocument({ ...VALID_APP, [A.method]: 'private_key_jwt', [A.jwks]: jwks }),
      );
      expect(res.status).toBe(422);
      const errors = (await body<JsonApiErrorBody>(res)).errors as {
        title: string;
        source?: { pointer: string };
      }[];
      expect(errors[0]!.title).toContain(title);
      expect(errors[0]!.source?.pointer).toBe(pointer);
    }
    expect(await t.app.db.selectFrom('oauth_clients').select('client_id').execute()).toHaveLength(
      before.length,
    );

    // An edit with a bad JWKS leaves the method as it was.
    const a = await createApp(w.c.developer, w.org.id);
    const res = await edit(w.c.developer, a.uuid, { [A.method]: 'private_key_jwt', [A.jwks]: 'not json' });
    expect(res.status).toBe(422);
    const row = await t.app.db
      .selectFrom('oauth_clients')
      .select(['auth_method', 'jwks'])
      .where('client_id', '=', a.clientId.development!)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ auth_method: 'client_secret', jwks: null });
  });

  it('a jwks_uri must be https (http only on localhost outside production)', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await edit(w.c.developer, a.uuid, {
      [A.method]: 'private_key_jwt',
      [A.jwksUri]: 'http://keys.tpp.example/jwks.json',
    });
    expect(res.status).toBe(422);
    const errors = (await body<JsonApiErrorBody>(res)).errors as {
      title: string;
      source?: { pointer: string };
    }[];
    expect(errors[0]).toMatchObject({
      title: 'The JWKS URL must be https (http only on localhost outside production)',
      source: { pointer: `/data/attributes/${A.jwksUri}` },
    });
    const ok = await edit(w.c.developer, a.uuid, {
      [A.method]: 'private_key_jwt',
      [A.jwksUri]: 'https://keys.tpp.example/jwks.json',
    });
    expect(ok.status).toBe(200);
    const app = (await body<{ data: AppResource }>(ok)).data.meta.application;
    expect(app.clientAuthentication).toEqual({
      method: 'private_key_jwt',
      jwks: null,
      jwksUri: 'https://keys.tpp.example/jwks.json',
      tlsSubjectDn: null,
    });
  });

  it("another organization's member cannot change the method", async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await edit(w.c.stranger, a.uuid, {
      [A.method]: 'tls_client_auth',
      [A.tlsSubjectDn]: 'CN=evil',
    });
    expect([403, 404]).toContain(res.status);
    const row = await t.app.db
      .selectFrom('oauth_clients')
      .select('auth_method')
      .where('client_id', '=', a.clientId.development!)
      .executeTakeFirstOrThrow();
    expect(row.auth_method).toBe('client_secret');
  });
});

describe('FAPI 2.0 and the client authentication method', () => {
  const tokenSecurity = (client: TestClient, id: string, attributes: Record<string, unknown>) =>
    client.send('PUT', `/api/applications/${id}/token-security`, attributes, 'application/json');

  it('FAPI 2.0 is refused with a client secret, allowed with a signed JWT, and then keeps the JWT', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const refused = await tokenSecurity(w.c.developer, a.uuid, { dpopBoundAccessTokens: true, fapi: true });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(await refused.json())).toContain(en.tokenSecurity.fapiNeedsKeyAuth);

    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid: 'fapi-key', use: 'sig', alg: 'ES256' };
    const keyed = await edit(w.c.developer, a.uuid, {
      [A.method]: 'private_key_jwt',
      [A.jwks]: JSON.stringify({ keys: [jwk] }),
    });
    expect(keyed.status).toBe(200);
    const allowed = await tokenSecurity(w.c.developer, a.uuid, { dpopBoundAccessTokens: true, fapi: true });
    expect(allowed.status).toBe(200);

    // Back to a client secret while FAPI 2.0 is on: refused at the field, nothing changes.
    const back = await edit(w.c.developer, a.uuid, { [A.method]: 'client_secret' });
    expect(back.status).toBe(422);
    const errors = ((await back.json()) as JsonApiErrorBody).errors;
    expect(errors).toEqual([
      expect.objectContaining({
        title: en.tokenSecurity.fapiNeedsKeyAuth,
        source: { pointer: `/data/attributes/${A.method}` },
      }),
    ]);
    const row = await t.app.db
      .selectFrom('oauth_clients')
      .select(['auth_method', 'fapi'])
      .where('client_id', '=', a.clientId.development!)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ auth_method: 'private_key_jwt', fapi: true });

    // The audit log has the method's change and the token security's, each with before and after.
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email', 'before', 'after'])
      .where('target_id', '=', a.uuid)
      .where('action', 'in', [
        'application.client_authentication_changed',
        'application.token_security_changed',
      ])
      .orderBy('id')
      .execute();
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
    expect(audit.map((r) => ({ ...r, before: json(r.before), after: json(r.after) }))).toEqual([
      {
        action: 'application.client_authentication_changed',
        actor_email: expect.stringMatching(/^dev\.eloper\.w/),
        before: { method: 'client_secret' },
        after: { method: 'private_key_jwt', jwks: ['fapi-key'], jwksHash: expect.any(String) },
      },
      {
        action: 'application.token_security_changed',
        actor_email: expect.stringMatching(/^dev\.eloper\.w/),
        before: { dpopBoundAccessTokens: false, fapi: false },
        after: { dpopBoundAccessTokens: true, fapi: true },
      },
    ]);
    // Saving the same method again records nothing more.
    expect(
      (
        await edit(w.c.developer, a.uuid, {
          [A.method]: 'private_key_jwt',
          [A.jwks]: JSON.stringify({ keys: [jwk] }),
        })
      ).status,
    ).toBe(200);
    const count = await t.app.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('target_id', '=', a.uuid)
      .where('action', '=', 'application.client_authentication_changed')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});

describe('mutual TLS (tls_client_auth) and certificate-bound tokens', () => {
  /** A QWAC-like certificate of the organization, issued by the portal's sandbox CA. */
  let tpp: SandboxCertificate;
  let intruder: Awaited<ReturnType<typeof selfSignedCertificate>>;
  beforeAll(async () => {
    tpp = await issueSandboxCertificate(w.c.creator, w.org.id, { commonName: 'tpp.example' });
    intruder = await selfSignedCertificate({ subject: [['CN', 'intruder.example']] });
  });
  const thumbprint = (pem: string) =>
    createHash('sha256').update(new X509Certificate(pem).raw).digest('base64url');

  it('discovery advertises the mTLS aliases', async () => {
    const meta = (await (await fetch(`${t.baseUrl}/oauth/.well-known/openid-configuration`)).json()) as {
      mtls_endpoint_aliases?: Record<string, string>;
      token_endpoint_auth_methods_supported: string[];
      tls_client_certificate_bound_access_tokens?: boolean;
    };
    expect(meta.mtls_endpoint_aliases?.token_endpoint).toBe(`https://localhost:${mtlsPort}/oauth/token`);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth']),
    );
    expect(meta.tls_client_certificate_bound_access_tokens).toBe(true);
  });

  it('a token over the mTLS port is bound to the certificate; the gateway wants the same certificate', async () => {
    const a = await subscribedApp({ [A.method]: 'tls_client_auth', [A.tlsSubjectDn]: tpp.subjectDn });
    const clientId = a.clientId.development!;
    const form = tokenForm({ grant_type: 'client_credentials', client_id: clientId, scope: 'accounts:read' });

    // Without a certificate, or with one of another subject: invalid_client.
    expect((await overMtls('/oauth/token', form)).status).toBe(401);
    const wrong = await overMtls('/oauth/token', { ...form, cert: intruder.cert, key: intruder.key });
    expect(wrong.body).toMatchObject({ error: 'invalid_client' });
    // The right subject on a certificate no trusted CA issued (self-signed): invalid_client too.
    const forged = await selfSignedCertificate({
      subject: tpp.subjectDn
        .split(',')
        .map((p) => p.split('=') as [string, string])
        .reverse(),
    });
    expect(new X509Certificate(forged.cert).subject).toBe(new X509Certificate(tpp.cert).subject);
    const unverified = await overMtls('/oauth/token', { ...form, cert: forged.cert, key: forged.key });
    expect(unverified).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    // The plain port has no certificate to offer.
    expect((await fetch(`${t.baseUrl}/oauth/token`, form)).status).toBe(401);

    const issued = await overMtls('/oauth/token', { ...form, cert: tpp.cert, key: tpp.key });
    expect(issued.status).toBe(200);
    const token = String(issued.body.access_token);
    expect(decodeJwt(token).cnf).toEqual({ 'x5t#S256': thumbprint(tpp.cert) });

    const noCert = await sandboxOverHttp(token);
    expect(noCert.status).toBe(401);
    expect(noCert.body).toEqual({
      error: 'invalid_token',
      error_description:
        'the access token is bound to a client certificate (cnf x5t#S256): present that certificate over mutual TLS',
    });
    const auth = { authorization: `Bearer ${token}` };
    const other = await overMtls('/sandbox/cauth-bank/accounts', {
      headers: auth,
      cert: intruder.cert,
      key: intruder.key,
    });
    expect(other.status).toBe(401);
    expect(other.body.error_description).toBe(
      'the access token is bound to another client certificate than the one presented (cnf x5t#S256 does not match)',
    );
    const same = await overMtls('/sandbox/cauth-bank/accounts', {
      headers: auth,
      cert: tpp.cert,
      key: tpp.key,
    });
    expect(same.status).toBe(200);

    // Without TRUST_PROXY the proxy header is ignored: it cannot stand in for the certificate.
    const header = await sandboxOverHttp(token, { 'x-client-cert': encodeURIComponent(tpp.cert) });
    expect(header.status).toBe(401);

    // Other paths are not served on the mutual-TLS port.
    expect((await overMtls('/api/me', { cert: tpp.cert, key: tpp.key })).status).toBe(404);
  });

  it('revoking the sandbox certificate stops its bound tokens at the gateway at once, and its token requests', async () => {
    const own = await issueSandboxCertificate(w.c.creator, w.org.id, { commonName: 'revoked.example' });
    const a = await subscribedApp({ [A.method]: 'tls_client_auth', [A.tlsSubjectDn]: own.subjectDn });
    const form = tokenForm({
      grant_type: 'client_credentials',
      client_id: a.clientId.development!,
      scope: 'accounts:read',
    });
    const issued = await overMtls('/oauth/token', { ...form, cert: own.cert, key: own.key });
    expect(issued.status).toBe(200);
    const auth = { authorization: `Bearer ${String(issued.body.access_token)}` };
    const call = () =>
      overMtls('/sandbox/cauth-bank/accounts', { headers: auth, cert: own.cert, key: own.key });
    expect((await call()).status).toBe(200);

    const revoked = await w.c.creator.send(
      'POST',
      `/api/organizations/${w.org.id}/certificates/${own.uuid}/revoke`,
      undefined,
      'application/json',
    );
    expect(revoked.status).toBe(200);
    const row = await certDb(t.app.db)
      .selectFrom('organization_certificates')
      .select('revoked_at')
      .where('uuid', '=', own.uuid)
      .executeTakeFirstOrThrow();
    const reason = `the client certificate (sandbox certificate, serial ${own.serial}) was revoked at ${new Date(row.revoked_at!).toISOString()}`;

    const after = await call();
    expect(after).toEqual({
      status: 401,
      body: {
        error: 'invalid_token',
        error_description: `${reason}: the access tokens bound to it (cnf x5t#S256) no longer work`,
      },
    });
    const again = await overMtls('/oauth/token', { ...form, cert: own.cert, key: own.key });
    expect(again).toEqual({ status: 401, body: { error: 'invalid_client', error_description: reason } });
    // Another (unrevoked) sandbox certificate still works for its own client.
    const issuedTpp = await overMtls('/oauth/token', {
      ...tokenForm({ grant_type: 'client_credentials', client_id: a.clientId.development! }),
      cert: tpp.cert,
      key: tpp.key,
    });
    expect(issuedTpp.body).toMatchObject({ error: 'invalid_client' }); // another subject
  });

  it('self_signed_tls_client_auth: the certificate registered in the JWKS (x5c) authenticates the client', async () => {
    const mine = await selfSignedCertificate({ subject: [['CN', 'self.example']] });
    const x509 = new X509Certificate(mine.cert);
    const jwk = await exportJWK(x509.publicKey);
    const withCert = { ...jwk, x5c: [x509.raw.toString('base64')] };

    // Without the certificate the JWKS cannot register one.
    const bad = await w.c.developer.send(
      'POST',
      `/phpsdk/organization/apps/create?ORGANIZATION=${w.org.id}&_format=json`,
      appDocument({
        ...VALID_APP,
        [A.method]: 'self_signed_tls_client_auth',
        [A.jwks]: JSON.stringify({ keys: [jwk] }),
      }),
    );
    expect(bad.status).toBe(422);
    const errors = (await body<JsonApiErrorBody>(bad)).errors as { title: string }[];
    expect(errors[0]!.title).toBe(
      'JWKS /keys/0/x5c: must hold the client certificate (base64 DER) for self-signed mutual TLS',
    );

    const a = await subscribedApp({
      [A.method]: 'self_signed_tls_client_auth',
      [A.jwks]: JSON.stringify({ keys: [withCert] }),
    });
    const form = tokenForm({
      grant_type: 'client_credentials',
      client_id: a.clientId.development!,
      scope: 'accounts:read',
    });
    const refused = await overMtls('/oauth/token', { ...form, cert: intruder.cert, key: intruder.key });
    expect(refused.body).toMatchObject({ error: 'invalid_client' });
    const issued = await overMtls('/oauth/token', { ...form, cert: mine.cert, key: mine.key });
    expect(issued.status).toBe(200);
    expect(decodeJwt(String(issued.body.access_token)).cnf).toEqual({ 'x5t#S256': thumbprint(mine.cert) });
  });

  it('a subject DN that is not attribute=value pairs is a 422 at the field', async () => {
    const a = await createApp(w.c.developer, w.org.id);
    const res = await edit(w.c.developer, a.uuid, { [A.method]: 'tls_client_auth', [A.tlsSubjectDn]: 'tpp' });
    expect(res.status).toBe(422);
    const errors = (await body<JsonApiErrorBody>(res)).errors as { source?: { pointer: string } }[];
    expect(errors[0]!.source?.pointer).toBe(`/data/attributes/${A.tlsSubjectDn}`);
  });
});

describe('behind a proxy (TRUST_PROXY=true, MTLS_CERT_HEADER)', () => {
  it("the proxy's header carries the certificate the token is bound to", async () => {
    const p = await startTestApp({
      LOGIN_RATE_LIMIT: '1000',
      IMPORT_CONTENT: 'false',
      TRUST_PROXY: 'true',
      MTLS_CERT_HEADER: 'X-Client-Cert',
    });
    try {
      const pw = await makeWorld(p, new TestClient(p.baseUrl));
      const prod = await insertProduct(p.app.db, {
        alias: 'proxy-accounts-v1',
        scope: 'accounts:read',
        documentation: 'proxy-bank',
      });
      const tpp = await selfSignedCertificate({ subject: [['CN', 'proxied.example']] });
      const a = await createApp(pw.c.developer, pw.org.id, {
        [A.method]: 'tls_client_auth',
        [A.tlsSubjectDn]: 'CN=proxied.example',
      });
      expect((await subscription(pw.c.developer, 'subscribe', a.uuid, prod.uuid)).status).toBe(200);
      const cert = { 'x-client-cert': encodeURIComponent(tpp.cert) };
      const res = await fetch(`${p.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...cert },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: a.clientId.development!,
          scope: 'accounts:read',
        }),
      });
      expect(res.status).toBe(200);
      const token = ((await res.json()) as { access_token: string }).access_token;
      const call = (headers: Record<string, string>) =>
        fetch(`${p.baseUrl}/sandbox/proxy-bank/accounts`, {
          headers: { authorization: `Bearer ${token}`, ...headers },
        });
      expect((await call({})).status).toBe(401);
      expect((await call(cert)).status).toBe(200);
    } finally {
      await p.close();
    }
  });
});
