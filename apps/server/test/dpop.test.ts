import { DPOP_REQUIRED_DESCRIPTION } from '../src/authz-server/dpop.ts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '@portico/contracts/messages';
import type { TokenSecurity } from '@portico/contracts/token-security';
import { TestClient } from './http-client.ts';
import { createApp, insertProduct, subscription } from './applications-fixtures.ts';
import { body, createOrg, signedInUser, type JsonApiErrorBody } from './org-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * DPoP-bound tokens (RFC 9449) and the FAPI 2.0 profile (issue 28, decision 051): proofs made with
 * `jose` as a client would, the token endpoint (oidc-provider) and the sandbox gateway's own check
 * (gateway/dpop.ts), and the FAPI 2.0 client's pushed authorization request.
 */

const ALICE = { username: 'alice.customer', password: 'Sandbox#2026' };
const REDIRECT_URI = 'https://tpp.example/callback';

interface Holder {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

async function holder(): Promise<Holder> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

/** A DPoP proof for `method url`, with `ath` for `token` when given. */
function proof(
  key: Holder,
  method: string,
  url: string,
  token?: string,
  claims: Record<string, unknown> = {},
  iat?: number,
): Promise<string> {
  return new SignJWT({
    htm: method,
    htu: url,
    jti: randomUUID(),
    ...(token ? { ath: createHash('sha256').update(token).digest('base64url') } : {}),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt(iat)
    .sign(key.privateKey);
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('DPoP-bound tokens and FAPI 2.0', () => {
  let t: TestApp;
  let dev: TestClient;
  let clientId: string;
  let secret: string;
  let appUuid: string;

  const tokenRequest = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(clientId, secret),
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };
  const sandboxCall = async (path: string, headers: Record<string, string>) => {
    const res = await fetch(`${t.baseUrl}${path}`, { headers });
    return {
      status: res.status,
      challenge: res.headers.get('www-authenticate'),
      body: (await res.json()) as Record<string, string>,
    };
  };
  const setSecurity = (input: unknown, client = dev) =>
    client.send('PUT', `/api/applications/${appUuid}/token-security`, input, 'application/json');

  beforeAll(async () => {
    t = await startTestApp();
    const product = await insertProduct(t.app.db, {
      alias: 'dpop-accounts',
      scope: 'accounts:read',
      documentation: 'dpop-bank',
    });
    dev = await signedInUser(t, 'dora.dpop@example.com');
    const org = await createOrg(dev, 'DPoP Bank TPP');
    const app = await createApp(dev, org.id, {
      title: 'Sender-constrained app',
      field_allowed_grant_types: ['client_credentials', 'authorization_code'],
      field_oauth_redirect_uri: [REDIRECT_URI],
    });
    appUuid = app.uuid;
    clientId = app.clientId.development!;
    secret = app.clientSecret!;
    expect((await subscription(dev, 'subscribe', appUuid, product.uuid)).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps token security per application, for its members only', async () => {
    const read = await dev.get(`/api/applications/${appUuid}/token-security`);
    expect(read.status).toBe(200);
    expect((await body<{ data: TokenSecurity }>(read)).data).toEqual({
      dpopBoundAccessTokens: false,
      fapi: false,
      fapiAllowed: false,
    });
    const stranger = await signedInUser(t, 'sam.stranger.dpop@example.com');
    expect((await stranger.get(`/api/applications/${appUuid}/token-security`)).status).toBe(404);
    expect((await setSecurity({ dpopBoundAccessTokens: true, fapi: false }, stranger)).status).toBe(404);
    const anonymous = new TestClient(t.baseUrl);
    expect((await setSecurity({ dpopBoundAccessTokens: true, fapi: false }, anonymous)).status).toBe(401);
    const bad = await setSecurity({ dpopBoundAccessTokens: 'yes', fapi: false });
    expect(bad.status).toBe(422);
    expect((await body<JsonApiErrorBody>(bad)).errors[0]).toMatchObject({
      title: en.tokenSecurity.invalidBody,
      source: { pointer: '/dpopBoundAccessTokens' },
    });
  });

  it('refuses FAPI 2.0 while the application authenticates with a client secret, and stores nothing', async () => {
    const res = await setSecurity({ dpopBoundAccessTokens: true, fapi: true });
    expect(res.status).toBe(422);
    const errors = (await body<JsonApiErrorBody>(res)).errors;
    expect(errors[0]).toMatchObject({
      title: 'FAPI 2.0 requires signed JWT or mutual TLS client authentication',
      source: { pointer: '/fapi' },
    });
    const after = await body<{ data: TokenSecurity }>(
      await dev.get(`/api/applications/${appUuid}/token-security`),
    );
    expect(after.data).toMatchObject({ dpopBoundAccessTokens: false, fapi: false });
  });

  it('issues a DPoP-bound token by client_credentials only with a proof', async () => {
    const saved = await setSecurity({ dpopBoundAccessTokens: true, fapi: false });
    expect(saved.status).toBe(200);
    expect((await body<{ data: TokenSecurity }>(saved)).data.dpopBoundAccessTokens).toBe(true);

    const refused = await tokenRequest({ grant_type: 'client_credentials' });
    expect(refused.status).toBe(400);
    // RFC 9449: the client is told a proof is required, not a generic invalid_grant.
    expect(refused.body).toEqual({
      error: 'invalid_dpop_proof',
      error_description: DPOP_REQUIRED_DESCRIPTION,
    });

    const key = await holder();
    const issued = await tokenRequest(
      { grant_type: 'client_credentials' },
      { dpop: await proof(key, 'POST', `${t.baseUrl}/oauth/token`) },
    );
    expect(issued.status).toBe(200);
    expect(issued.body.token_type).toBe('DPoP');
    expect(decodeJwt(issued.body.access_token!)).toMatchObject({
      client_id: clientId,
      cnf: { jkt: key.jkt },
    });
  });

  it('the sandbox accepts the token with a fresh proof and refuses it otherwise, precisely', async () => {
    const key = await holder();
    const { body: tokens } = await tokenRequest(
      { grant_type: 'client_credentials' },
      { dpop: await proof(key, 'POST', `${t.baseUrl}/oauth/token`) },
    );
    const token = tokens.access_token!;
    const path = '/sandbox/dpop-bank/accounts';
    const url = `${t.baseUrl}${path}`;

    // An expired row of another proof is cleaned on the way.
    await t.app.db
      .insertInto('dpop_proof_jtis')
      .values({ jkt: 'old', jti: 'old', expires_at: new Date(Date.now() - 1000) })
      .execute();

    const fresh = await proof(key, 'GET', url, token);
    const ok = await sandboxCall(`${path}?page=1`, { authorization: `DPoP ${token}`, dpop: fresh });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: [] });
    const rows = await t.app.db.selectFrom('dpop_proof_jtis').select('jkt').execute();
    expect(rows.map((r) => r.jkt)).toEqual([key.jkt]);

    const expectRefusal = async (headers: Record<string, string>, error: string, description: string) => {
      const res = await sandboxCall(path, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error, error_description: description });
      expect(res.challenge).toMatch(new RegExp(`^DPoP realm="sandbox", error="${error}"`));
    };
    await expectRefusal(
      { authorization: `Bearer ${token}` },
      'invalid_token',
      'this access token is DPoP-bound: send it as "Authorization: DPoP <access token>" with a DPoP proof',
    );
    await expectRefusal(
      { authorization: `DPoP ${token}` },
      'invalid_dpop_proof',
      'a DPoP proof is required in the DPoP header',
    );
    await expectRefusal(
      { authorization: `DPoP ${token}`, dpop: fresh },
      'invalid_dpop_proof',
      'the DPoP proof has already been used: make a new proof (jti) for every request',
    );
    await expectRefusal(
      {
        authorization: `DPoP ${token}`,
        dpop: await proof(key, 'GET', `${t.baseUrl}/sandbox/dpop-bank/other`, token),
      },
      'invalid_dpop_proof',
      `the DPoP proof's htu must be the request's URL without query, ${t.config.publicUrl}${path}`,
    );
    await expectRefusal(
      { authorization: `DPoP ${token}`, dpop: await proof(key, 'POST', url, token) },
      'invalid_dpop_proof',
      "the DPoP proof's htm must be the request's method, GET",
    );
    await expectRefusal(
      { authorization: `DPoP ${token}`, dpop: await proof(await holder(), 'GET', url, token) },
      'invalid_dpop_proof',
      'the DPoP proof is signed with another key than the one the access token is bound to',
    );
    await expectRefusal(
      { authorization: `DPoP ${token}`, dpop: await proof(key, 'GET', url, `${token}x`) },
      'invalid_dpop_proof',
      "the DPoP proof's ath must be the SHA-256 hash of the access token (base64url)",
    );
    await expectRefusal(
      {
        authorization: `DPoP ${token}`,
        dpop: await proof(key, 'GET', url, token, {}, Math.floor(Date.now() / 1000) - 600),
      },
      'invalid_dpop_proof',
      "the DPoP proof's iat must be within 5 minutes of the server's time",
    );
    // Another proof made for the same call is accepted: each jti once.
    const again = await sandboxCall(path, {
      authorization: `DPoP ${token}`,
      dpop: await proof(key, 'GET', url, token),
    });
    expect(again.status).toBe(200);
  });

  it('a FAPI 2.0 client must push its authorization request, then gets a DPoP-bound token by code and PKCE', async () => {
    // FAPI 2.0 clients authenticate with signed JWTs or mutual TLS (other parts of issue 28):
    // the flag is set here as such a client's would be, its secret standing in for the key.
    await t.app.db
      .updateTable('oauth_clients')
      .set({ fapi: true, dpop_bound_access_tokens: false })
      .where('client_id', '=', clientId)
      .execute();
    const verifier = randomBytes(32).toString('base64url');
    const params = {
      client_id: clientId,
      response_type: 'code',
      redirect_uri: REDIRECT_URI,
      scope: 'accounts:read',
      state: 'fapi-state',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };

    // Without PAR: refused.
    const browser = new TestClient(t.baseUrl);
    const direct = await browser.get(`/oauth/auth?${new URLSearchParams(params)}`);
    const refusal =
      direct.status === 303 || direct.status === 302
        ? new URL(direct.headers.get('location')!).searchParams.get('error_description')
        : await direct.text();
    expect(refusal).toContain('Pushed Authorization Request must be used');

    // With PAR.
    const pushed = await fetch(`${t.baseUrl}/oauth/request`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(clientId, secret),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(pushed.status).toBe(201);
    const { request_uri: requestUri } = (await pushed.json()) as { request_uri: string };
    expect(requestUri).toMatch(/^urn:ietf:params:oauth:request_uri:/);

    let { res, url } = await browser.follow(
      `/oauth/auth?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`,
    );
    for (let step = 0; step < 4 && new URL(url).origin === t.baseUrl; step++) {
      const html = await res.text();
      // The pushed request's redirect URI is where the sign-in and consent forms may end.
      expect(res.headers.get('content-security-policy')).toMatch(
        /form-action 'self'[^;]* https:\/\/tpp\.example/,
      );
      const pagePath = new URL(url).pathname;
      const posted = html.includes('name="password"')
        ? await browser.postForm(`${pagePath}/login`, ALICE)
        : await browser.postForm(`${pagePath}/confirm`, {});
      expect(posted.status).toBe(303);
      ({ res, url } = await browser.follow(posted.headers.get('location')!));
    }
    const back = new URL(url);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    // RFC 9207: the issuer in the authorization response.
    expect(back.searchParams.get('iss')).toBe(`${t.config.publicUrl}/oauth`);
    expect(back.searchParams.get('state')).toBe('fapi-state');
    const code = back.searchParams.get('code')!;

    // Sender-constrained: no token without a DPoP proof (the client has no TLS certificate binding).
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    };
    const unbound = await tokenRequest(exchange);
    expect(unbound.status).toBe(400);
    expect(unbound.body).toEqual({
      error: 'invalid_dpop_proof',
      error_description: DPOP_REQUIRED_DESCRIPTION,
    });
  });

  it('a FAPI 2.0 token by code is DPoP-bound and lives 10 minutes', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const pushed = await fetch(`${t.baseUrl}/oauth/request`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(clientId, secret),
      },
      body: new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: REDIRECT_URI,
        scope: 'accounts:read',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString(),
    });
    const { request_uri: requestUri } = (await pushed.json()) as { request_uri: string };
    const browser = new TestClient(t.baseUrl);
    let { res, url } = await browser.follow(
      `/oauth/auth?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`,
    );
    for (let step = 0; step < 4 && new URL(url).origin === t.baseUrl; step++) {
      const html = await res.text();
      const pagePath = new URL(url).pathname;
      const posted = html.includes('name="password"')
        ? await browser.postForm(`${pagePath}/login`, ALICE)
        : await browser.postForm(`${pagePath}/confirm`, {});
      ({ res, url } = await browser.follow(posted.headers.get('location')!));
    }
    const code = new URL(url).searchParams.get('code')!;
    const key = await holder();
    const issued = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier },
      { dpop: await proof(key, 'POST', `${t.baseUrl}/oauth/token`) },
    );
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'DPoP', expires_in: 600 });
    expect(decodeJwt(issued.body.access_token!)).toMatchObject({ cnf: { jkt: key.jkt } });
    const path = '/sandbox/dpop-bank/accounts';
    const call = await sandboxCall(path, {
      authorization: `DPoP ${issued.body.access_token}`,
      dpop: await proof(key, 'GET', `${t.baseUrl}${path}`, issued.body.access_token),
    });
    expect(call.status).toBe(200);
  });
  it('openid-client performs authorization code with PAR, PKCE and DPoP under the FAPI 2.0 profile', async () => {
    // The client is a FAPI 2.0 client since the test before.
    const issuer = new URL(`${t.config.publicUrl}/oauth`);
    const config = await oidc.discovery(issuer, clientId, undefined, oidc.ClientSecretBasic(secret), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata()).toMatchObject({
      pushed_authorization_request_endpoint: `${t.config.publicUrl}/oauth/request`,
      authorization_response_iss_parameter_supported: true,
      dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
    });
    const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizationUrl = await oidc.buildAuthorizationUrlWithPAR(
      config,
      {
        redirect_uri: REDIRECT_URI,
        scope: 'accounts:read',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      },
      { DPoP },
    );
    expect(authorizationUrl.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);

    // The bank customer, in a browser.
    const browser = new TestClient(t.baseUrl);
    let { res, url } = await browser.follow(`${authorizationUrl.pathname}${authorizationUrl.search}`);
    for (let step = 0; step < 4 && new URL(url).origin === t.baseUrl; step++) {
      const html = await res.text();
      const pagePath = new URL(url).pathname;
      const posted = html.includes('name="password"')
        ? await browser.postForm(`${pagePath}/login`, ALICE)
        : await browser.postForm(`${pagePath}/confirm`, {});
      ({ res, url } = await browser.follow(posted.headers.get('location')!));
    }

    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(url),
      { pkceCodeVerifier: verifier, expectedState: state },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    expect(tokens.expires_in).toBe(600);
    const call = await oidc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${t.config.publicUrl}/sandbox/dpop-bank/accounts`),
      'GET',
      undefined,
      undefined,
      { DPoP },
    );
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual({ data: [] });
  });
});
