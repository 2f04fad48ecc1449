import { generateKeyPairSync } from 'node:crypto';
import https from 'node:https';
import tls from 'node:tls';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeServerCertificate } from './applications-certs.ts';
import { TestClient } from './http-client.ts';
import { accept, body, createOrg, createUser, invite, myMembership } from './org-fixtures.ts';
import { freePort, startTestApp, type TestApp } from './test-app.ts';

/**
 * The portal behind a company identity provider (OIDC_ISSUER): a real OpenID Provider
 * (oidc-provider, as the built-in one) on https://127.0.0.1 with its own certificate, which signs
 * in whoever the test names and says what it knows of their address. The portal discovers it,
 * sends the browser there and exchanges the code over TLS, as with any company IdP.
 */
const CLIENT_ID = 'portico-under-test';
const CLIENT_SECRET = 'company-idp-client-secret';

/** The IdP's people: subject → the address it vouches for (or not). */
const people = new Map<string, { email: string; email_verified: boolean; userInfoOnly?: boolean }>();
/** Who signs in at the IdP's login step of the next sign-in. */
let nextLogin = '';

let t: TestApp;
let issuer: string;
let idp: https.Server;
let owner: TestClient;
let orgId: string;

async function startCompanyIdp(port: number, portalOrigins: string[]): Promise<https.Server> {
  const { cert, key } = makeServerCertificate('127.0.0.1');
  // The portal's openid-client trusts this IdP like one with a public certificate.
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), cert]);
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: portalOrigins.map((o) => `${o}/oauth2/callback`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      const { userInfoOnly, ...address } = person;
      // Some IdPs give the address at their UserInfo endpoint only, never in the ID token.
      return {
        accountId: sub,
        claims: async (use: string) => (userInfoOnly && use === 'id_token' ? { sub } : { sub, ...address }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The address in the ID token itself, as most company IdPs send it (Entra ID, Google, Keycloak):
    // the portal reads the ID token's claims, not the UserInfo endpoint.
    conformIdTokenClaims: false,
    cookies: { keys: ['company-idp-cookie-key'] },
    jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256' }] },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    responseTypes: ['code'],
    // The company's own users: no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const accountId = ctx.oidc.session?.accountId;
      if (!client || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();
  const server = https.createServer({ cert, key }, (req, res) => {
    // The login page: whoever the test named signs in.
    if (req.url?.startsWith('/interaction/')) {
      void provider
        .interactionFinished(
          req,
          res,
          { login: { accountId: nextLogin } },
          { mergeWithLastSubmission: false },
        )
        .catch((err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      return;
    }
    void callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** Signs `portal` in through the company IdP as `sub`, as a browser would, in a fresh IdP session. */
async function companySignIn(portal: TestClient, sub: string) {
  nextLogin = sub;
  const info = await body<{ baseUrl: string; parameters: Record<string, string> }>(
    await portal.get('/openid-connect/authorization-info/generic'),
  );
  expect(new URL(info.baseUrl).origin).toBe(issuer);
  const browserAtIdp = new TestClient(issuer);
  let url = `${info.baseUrl}?${new URLSearchParams(info.parameters)}`;
  for (let hop = 0; new URL(url).pathname !== '/oauth2/callback'; hop++) {
    if (hop > 10) throw new Error('too many redirects at the IdP');
    const res = await browserAtIdp.get(url);
    const location = res.headers.get('location');
    if (!location) throw new Error(`the IdP answered ${res.status}: ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  const exchange = await portal.get(`/openid-connect/generic?${new URL(url).searchParams}`);
  const result = await body<{ uid?: number; emailVerified?: boolean; csrfToken?: string }>(exchange);
  if (result.csrfToken) portal.csrfToken = result.csrfToken;
  return { status: exchange.status, body: result };
}

function userRow(email: string) {
  return t.app.db
    .selectFrom('users')
    .select(['id', 'email_verified', 'external_issuer', 'external_subject'])
    .where('email', '=', email)
    .execute();
}

beforeAll(async () => {
  const idpPort = await freePort();
  issuer = `https://127.0.0.1:${idpPort}`;
  t = await startTestApp({
    IMPORT_CONTENT: 'false',
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
  });
  idp = await startCompanyIdp(idpPort, [...new Set([t.config.publicUrl, t.baseUrl])]);
  // The organization owner has a proven address of their own (made here, not through the IdP).
  await createUser(t, 'org.owner@example.com');
  owner = new TestClient(t.baseUrl);
  people.set('owner-sub', { email: 'org.owner@example.com', email_verified: true });
  expect((await companySignIn(owner, 'owner-sub')).status).toBe(200);
  orgId = (await createOrg(owner, 'Company IdP Org')).id;
});
afterAll(async () => {
  await new Promise((resolve) => idp?.close(resolve));
  await t?.close();
});

describe('a company identity provider', () => {
  it('links an unverified account by the address it vouches for, proves it, and hands it its invitations', async () => {
    const email = 'x.unverified@example.com';
    const x = await createUser(t, email, { verified: false });
    expect((await invite(owner, orgId, email, ['organization-developer'])).status).toBe(201);
    const invitationOwner = () =>
      t.app.db
        .selectFrom('memberships')
        .select('user_id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
        .then((m) => m.user_id);
    // Nothing sent to an unproven address is the account's.
    expect(await invitationOwner()).toBeNull();

    people.set('x-sub', { email, email_verified: true });
    const browser = new TestClient(t.baseUrl);
    const signedIn = await companySignIn(browser, 'x-sub');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ uid: x.id, emailVerified: true });
    expect(await userRow(email)).toEqual([
      { id: x.id, email_verified: true, external_issuer: issuer, external_subject: 'x-sub' },
    ]);
    expect((await body<{ emailVerified: boolean }>(await browser.get('/session/user'))).emailVerified).toBe(
      true,
    );

    // The invitation sent to the address is the account's now, linked with the proof: shown, and
    // accepted by it.
    expect(await invitationOwner()).toBe(x.id);
    expect((await myMembership(browser, orgId))?.status).toBe('pending_invitation');
    await accept(browser, orgId);
    expect((await myMembership(browser, orgId))?.status).toBe('active');

    // The next sign-in finds the account by the IdP's subject.
    const again = await companySignIn(new TestClient(t.baseUrl), 'x-sub');
    expect(again.body.uid).toBe(x.id);
  });

  it('links nothing when the IdP does not vouch for the address', async () => {
    const email = 'y.unverified@example.com';
    const y = await createUser(t, email, { verified: false });
    expect((await invite(owner, orgId, email, ['organization-developer'])).status).toBe(201);

    people.set('y-sub', { email, email_verified: false });
    const browser = new TestClient(t.baseUrl);
    const refused = await companySignIn(browser, 'y-sub');
    expect(refused.status).toBe(400);
    expect(await (await browser.get('/user/login_status')).text()).toBe('0');
    expect(await userRow(email)).toEqual([
      { id: y.id, email_verified: false, external_issuer: null, external_subject: null },
    ]);

    // The invitation to the address stays an invitation nobody has accepted.
    const invitation = await t.app.db
      .selectFrom('memberships')
      .select('status')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(invitation.status).toBe('pending_invitation');
  });

  it('a verified address of a new person makes a new, verified account', async () => {
    people.set('z-sub', { email: 'z.new@example.com', email_verified: true });
    const browser = new TestClient(t.baseUrl);
    const signedIn = await companySignIn(browser, 'z-sub');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.emailVerified).toBe(true);
    const rows = await userRow('z.new@example.com');
    expect(rows).toEqual([
      { id: signedIn.body.uid, email_verified: true, external_issuer: issuer, external_subject: 'z-sub' },
    ]);
  });
});

describe('a company identity provider that gives the address at UserInfo only', () => {
  it('reads the address there: a verified one links and proves the account, as from the ID token', async () => {
    const email = 'u.userinfo@example.com';
    const u = await createUser(t, email, { verified: false });
    people.set('u-sub', { email, email_verified: true, userInfoOnly: true });
    const signedIn = await companySignIn(new TestClient(t.baseUrl), 'u-sub');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ uid: u.id, emailVerified: true });
    expect(await userRow(email)).toEqual([
      { id: u.id, email_verified: true, external_issuer: issuer, external_subject: 'u-sub' },
    ]);
    // Nobody got the made-up address of an IdP that said nothing.
    expect(await userRow('u-sub@users.127.0.0.1')).toEqual([]);
  });
});
