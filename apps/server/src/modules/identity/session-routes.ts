import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import { texts } from '../../lib/i18n.ts';
import { requestLocale } from '../../lib/locale.ts';
import { safeReturnTo } from '@portico/contracts/return-to';
import { sql } from 'kysely';
import * as oidc from 'openid-client';
import { HttpError } from '../../lib/errors.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { overTls } from '../../lib/transport.ts';
import { requireUser } from '../../plugins/session.ts';
import { addressProven } from './address-proven.ts';
import { IDP_PREFIX } from './idp-provider.ts';
import type { RelyingParty } from './relying-party.ts';
import { sendVerificationMail } from './service.ts';
import { displayName, usersRepo, type UserRow } from './users-repo.ts';

const M = en.identity;
/** The browser's login cookie: binds login states to the browser that started them. */
export const LOGIN_COOKIE = 'portico_login';
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
/** Verification e-mails one account may ask for per hour. */
export const VERIFICATION_MAILS_PER_HOUR = 5;

export function sessionUserBody(user: UserRow, providerRoles: readonly string[]) {
  return {
    uid: user.id,
    uuid: user.uuid,
    name: user.name,
    mail: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    roles: ['user'],
    isAdmin: user.is_admin,
    /** Provider roles (issue 27): which parts of the console at /admin this user may use. */
    providerRoles,
    emailVerified: user.email_verified,
    completedStories: user.completed_stories,
    /** The account's language (issue 30): the web app switches to it after sign-in. */
    preferredLangcode: user.preferred_langcode,
  };
}

/**
 * The session calls of spec B section 7: login parameters, the code exchange, login status,
 * the CSRF token, the current user and logout.
 */
export async function sessionRoutes(app: FastifyInstance, rp: RelyingParty): Promise<void> {
  const users = usersRepo(app.db);

  app.get('/session/token', async (request, reply) => {
    return reply
      .header('Cache-Control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(app.csrfTokenFor(request));
  });

  app.get('/user/login_status', async (request, reply) => {
    return reply
      .header('Cache-Control', 'no-store')
      .type('application/json')
      .send(request.user ? '1' : '0');
  });

  app.get('/session/user', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (!request.user) return reply.type('application/json').send('null');
    const user = await users.findById(request.user.id);
    return user ? sessionUserBody(user, request.user.providerRoles) : null;
  });

  // A new link proving the signed-in user's address (the banner's "resend verification e-mail").
  app.post('/user/verification-mail', async (request, reply) => {
    const me = requireUser(request);
    if (me.emailVerified) throw new HttpError(409, M.alreadyVerified, { code: 'already_verified' });
    const limit = await hitRateLimit(
      app.db,
      `verify-mail:user:${me.id}`,
      VERIFICATION_MAILS_PER_HOUR,
      3600_000,
    );
    if (!limit.allowed) {
      reply.header('Retry-After', String(limit.retryAfterSeconds));
      throw new HttpError(429, M.tooManyVerificationMails);
    }
    await sendVerificationMail(app, { ...me, preferred_langcode: me.preferredLangcode });
    const locale = requestLocale(request, me.preferredLangcode);
    return reply
      .header('Cache-Control', 'no-store')
      .header('Vary', 'Accept-Language')
      .send({ message: texts(locale, 'errors', 'identity')('verificationSent', { email: me.email }) });
  });

  app.get<{ Querystring: { returnTo?: string; screen?: string } }>(
    '/openid-connect/authorization-info/generic',
    async (request, reply) => {
      const config = await rp.config();
      const origin = rp.originFor(request);
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
      // The state belongs to this browser: its login cookie (one per browser, so that logins
      // started in several tabs all work).
      const browser = request.cookies[LOGIN_COOKIE] ?? randomBytes(24).toString('base64url');
      reply.setCookie(LOGIN_COOKIE, browser, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: overTls(app, request),
        maxAge: 3600,
      });
      await app.db
        .insertInto('login_states')
        .values({
          state,
          nonce,
          code_verifier: codeVerifier,
          return_to: safeReturnTo(request.query.returnTo),
          browser_hash: sha256(browser),
        })
        .execute();
      const parameters: Record<string, string> = {
        client_id: config.clientMetadata().client_id,
        response_type: 'code',
        scope: 'openid email profile',
        redirect_uri: `${origin}/oauth2/callback`,
        state,
        nonce,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        // The provider's pages in the portal's language (OIDC Core 3.1.2.1), the built-in one's
        // and an outside provider's alike.
        ui_locales: requestLocale(request, request.user?.preferredLangcode),
      };
      if (request.query.screen === 'signup') {
        if (rp.builtIn) parameters.screen = 'signup';
        else parameters.prompt = 'create';
      }
      // The built-in provider is reached at the origin the user is on (see portalOrigins).
      const baseUrl = rp.builtIn
        ? `${origin}${IDP_PREFIX}/auth`
        : String(config.serverMetadata().authorization_endpoint);
      return reply.header('Cache-Control', 'no-store').send({ baseUrl, parameters });
    },
  );

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/openid-connect/generic',
    async (request, reply) => {
      const { state, error, error_description: errorDescription } = request.query;
      if (error) {
        throw new HttpError(400, format(M.providerRefused, { error: errorDescription ?? error }), {
          code: 'login_failed',
        });
      }
      if (!state) throw new HttpError(400, M.loginStateUnknown, { code: 'login_failed', parameter: 'state' });
      // Single use: the state row is deleted as it is read, and only by the browser it belongs to
      // (else someone could sign a victim's browser in to their own account: login CSRF).
      const browser = request.cookies[LOGIN_COOKIE];
      const saved = browser
        ? await app.db
            .deleteFrom('login_states')
            .where('state', '=', state)
            .where('browser_hash', '=', sha256(browser))
            .returningAll()
            .executeTakeFirst()
        : undefined;
      if (!saved || Date.now() - new Date(saved.created_at).getTime() > 3600_000) {
        throw new HttpError(400, M.loginStateUnknown, { code: 'login_failed', parameter: 'state' });
      }
      const config = await rp.config();
      const callbackUrl = new URL(`${rp.originFor(request)}/oauth2/callback`);
      for (const [k, v] of Object.entries(request.query))
        if (v !== undefined) callbackUrl.searchParams.set(k, v);

      let claims: oidc.IDToken;
      let idToken: string | null;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: saved.code_verifier,
          expectedState: state,
          expectedNonce: saved.nonce,
          idTokenExpected: true,
        });
        const c = tokens.claims();
        if (!c) throw new Error('no ID token');
        claims = await withUserInfo(config, c, tokens.access_token);
        idToken = tokens.id_token ?? null;
      } catch (err) {
        request.log.warn({ err }, 'login code exchange failed');
        throw new HttpError(400, M.loginFailed, { code: 'login_failed' });
      }

      const user = await resolveUser(claims);
      if (!user) throw new HttpError(400, M.loginFailed, { code: 'login_failed' });
      // An account an administrator blocked gets no session, whichever IdP vouched for it.
      if (user.blocked_at) throw new HttpError(403, M.accountBlocked, { code: 'account_blocked' });
      const { csrfToken } = await app.startSession(request, reply, user.id, idToken);
      await app.db
        .updateTable('users')
        .set({ last_sign_in_at: new Date() })
        .where('id', '=', user.id)
        .execute();
      request.log.info({ userId: user.id }, 'user signed in');
      return reply.header('Cache-Control', 'no-store').send({
        ...sessionUserBody(user, await users.providerRoles(user)),
        csrfToken,
        returnTo: saved.return_to,
      });
    },
  );

  /**
   * A company IdP may keep the address out of the ID token and give it at its UserInfo endpoint
   * only (OpenID Connect Core 5.4; oidc-provider's default): then the profile claims the ID token
   * lacks come from there, for the same subject (openid-client checks it).
   */
  async function withUserInfo(
    config: oidc.Configuration,
    claims: oidc.IDToken,
    accessToken: string,
  ): Promise<oidc.IDToken> {
    if (rp.builtIn || typeof claims.email === 'string') return claims;
    if (!config.serverMetadata().userinfo_endpoint) return claims;
    const info = await oidc.fetchUserInfo(config, accessToken, claims.sub);
    const added: Record<string, oidc.JsonValue> = {};
    for (const key of ['email', 'email_verified', 'name', 'given_name', 'family_name'] as const)
      if (claims[key] === undefined && info[key] !== undefined) added[key] = info[key];
    return { ...added, ...claims };
  }

  async function resolveUser(claims: oidc.IDToken): Promise<UserRow | undefined> {
    if (rp.builtIn) return users.findByUuid(claims.sub);
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    const linked = await users.findByExternal(rp.issuer, claims.sub);
    if (linked) return linked;
    // First sign-in through the company IdP: link an existing account with a verified e-mail,
    // otherwise create one.
    if (email && claims.email_verified === true) {
      const byEmail = await users.findByEmail(email);
      if (byEmail) {
        // The IdP vouches for the address: it is proven now, with what was sent to it.
        await app.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('users')
            .set({ external_issuer: rp.issuer, external_subject: claims.sub, email_verified: true })
            .where('id', '=', byEmail.id)
            .execute();
          if (!byEmail.email_verified) await addressProven(trx, byEmail);
        });
        return { ...byEmail, external_issuer: rp.issuer, external_subject: claims.sub, email_verified: true };
      }
    }
    const given = typeof claims.given_name === 'string' ? claims.given_name : null;
    const family = typeof claims.family_name === 'string' ? claims.family_name : null;
    const mail = email ?? `${claims.sub}@users.${new URL(rp.issuer).hostname}`;
    return users.create({
      email: mail,
      name: typeof claims.name === 'string' ? claims.name : displayName(given, family, mail),
      firstName: given,
      lastName: family,
      passwordHash: null,
      externalIssuer: rp.issuer,
      externalSubject: claims.sub,
      emailVerified: claims.email_verified === true,
    });
  }

  // The spec keeps logout a GET: another site must not be able to sign the user out with a link.
  app.get('/user/logout', async (request, reply) => {
    const user = request.user;
    if (user) app.assertSameOrigin(request, M.logoutCrossSite);
    await app.endSession(request, reply);
    // End the built-in provider's browser session as well, so that the next LOGIN asks for the
    // password again instead of silently signing the same person back in.
    if (rp.builtIn && user) {
      const cookieSession = request.cookies._session;
      await app.db
        .deleteFrom('oidc_payloads')
        .where('model', '=', 'idp:Session')
        .where((eb) =>
          eb.or([
            eb(sql`payload->>'accountId'`, '=', user.uuid),
            ...(cookieSession ? [eb('id', '=', `idp:Session:${cookieSession}`)] : []),
          ]),
        )
        .execute();
    }
    return reply.status(204).send();
  });
}
