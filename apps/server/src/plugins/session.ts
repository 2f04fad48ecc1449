import { en } from '@portico/contracts/messages';
import { hasProviderRole, type ProviderRole } from '@portico/contracts/provider-roles';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { LRUCache } from 'lru-cache';
import { sql } from 'kysely';
import { HttpError, forbidden, unauthorized } from '../lib/errors.ts';
import { overTls } from '../lib/transport.ts';

/**
 * Sessions: an opaque random cookie named SESS…, httpOnly, SameSite=Lax, Secure over TLS
 * (lib/transport.ts: an https PUBLIC_URL, or https seen through a trusted proxy); the
 * database keeps only its sha256, the user and the CSRF token. Every state-changing call must
 * carry X-CSRF-Token: the session's token, or for anonymous callers a signed token from
 * GET /session/token. OAuth endpoints (/idp, /oauth) and the sandbox have their own protection.
 */
export interface SessionUser {
  id: number;
  uuid: string;
  email: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  isAdmin: boolean;
  /** Provider roles (issue 27): 'administrator' when isAdmin, then those of `provider_roles`. */
  providerRoles: readonly ProviderRole[];
  /** The address was proven by a link sent to it (or a password reset, or a trusted IdP). */
  emailVerified: boolean;
  /** The language the user chose for the portal (`users.preferred_langcode`), or null. */
  preferredLangcode: string | null;
}

export interface SessionInfo {
  idHash: string;
  csrfToken: string;
  idToken: string | null;
}

const CSRF_EXEMPT = ['/idp/', '/oauth/'];
/** The API's paths: their answers may depend on the session (the web app's files do not). */
const SESSION_DEPENDENT_PREFIXES = [
  '/jsonapi/',
  '/phpsdk/',
  '/api/',
  '/admin-api/',
  '/session/',
  '/user/',
  '/openid-connect/',
  '/files/',
  '/secret/',
];
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const TOUCH_INTERVAL_MS = 5 * 60_000;
/** Sessions kept in memory per process (a few hundred bytes each). */
const SESSION_CACHE_ENTRIES = 20_000;

interface KnownSession {
  /** The `sessions` and `identity` counters read before the session was loaded. */
  stamp: string;
  user: SessionUser;
  session: SessionInfo;
  lastSeenAt: number;
  expiresAt: number;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The header that marks an in-process call made for a user by an agent (modules/mcp, decision 056):
 * its value is a one-time random key of `agentCalls`, known only to this process for the length of
 * the call, so nothing from the network can carry a user in it.
 */
export const AGENT_CALL_HEADER = 'x-portico-agent-call';
const agentCalls = new Map<string, { user: SessionUser; session: SessionInfo }>();

/** What `injectAs` takes of an in-process request: light-my-request's options, minus the caller. */
export interface AgentCallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** The agent's own address (its rate limits and audit entries name it). */
  remoteAddress: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/**
 * The columns of a SessionUser, read from `users as u`: by the session loader and by `agentUser`.
 * `roles`: the user's `provider_roles`, comma-separated in order.
 */
const SESSION_USER_COLUMNS = [
  'u.id',
  'u.uuid',
  'u.email',
  'u.name',
  'u.first_name',
  'u.last_name',
  'u.is_admin',
  'u.email_verified',
  'u.preferred_langcode',
  sql<string>`(select coalesce(string_agg(r.role, ',' order by r.role), '') from provider_roles r where r.user_id = u.id)`.as(
    'roles',
  ),
] as const;

interface SessionUserRow {
  id: number;
  uuid: string;
  email: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  is_admin: boolean;
  email_verified: boolean;
  preferred_langcode: string | null;
  roles: string;
}

/** The user a row of SESSION_USER_COLUMNS describes; frozen: one object serves every request of a session. */
function sessionUserOf(row: SessionUserRow): SessionUser {
  return Object.freeze({
    id: row.id,
    uuid: row.uuid,
    email: row.email,
    name: row.name,
    firstName: row.first_name,
    lastName: row.last_name,
    isAdmin: row.is_admin,
    providerRoles: Object.freeze([
      ...(row.is_admin ? (['administrator'] as const) : []),
      ...(row.roles.split(',').filter(Boolean) as ProviderRole[]),
    ]),
    emailVerified: row.email_verified,
    preferredLangcode: row.preferred_langcode,
  });
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export default fp(
  async (app) => {
    // Drupal names its cookie SESS + a hash of the site; the web app only relies on the prefix.
    const cookieName = `SESS${createHash('sha256').update(app.config.publicUrl).digest('hex').slice(0, 32)}`;
    const csrfKey = app.secretBox.derive('anonymous-csrf');

    await app.register(cookie);

    const anonymousCsrfToken = () => {
      const nonce = randomBytes(16).toString('base64url');
      return `anon.${nonce}.${createHmac('sha256', csrfKey).update(nonce).digest('base64url')}`;
    };
    const validAnonymousToken = (token: string) => {
      const [kind, nonce, mac] = token.split('.');
      if (kind !== 'anon' || !nonce || !mac) return false;
      return safeEqual(mac, createHmac('sha256', csrfKey).update(nonce).digest('base64url'));
    };

    app.decorate('sessionCookieName', cookieName);
    app.decorateRequest('user', null);
    app.decorateRequest('session', null);

    // Sessions known to this process (decision 028): the lookup below costs a query per request
    // otherwise. An entry holds while the `sessions` and `identity` counters (db/data-versions.ts,
    // bumped by triggers in the writing transaction, on any instance) are those read when it was
    // loaded: a logout, a password change, an administrator blocking the user or a change of the
    // user is seen by the next request everywhere. The touch of last_seen_at does not bump them.
    const known = new LRUCache<string, KnownSession>({ max: SESSION_CACHE_ENTRIES });
    app.decorate('sessionCache', known);
    const stampOf = (versions: Map<string, string>) =>
      `${versions.get('sessions') ?? '0'},${versions.get('identity') ?? '0'}`;

    // The user of a request's session when this process knows it and nothing is due (no reload,
    // no touch): what the early path of cached answers needs (plugins/http-cache.ts answerEarly),
    // before the cookies are parsed. Otherwise undefined, and the hooks below do the work.
    app.decorate('knownSessionUser', async (request: FastifyRequest) => {
      const header = request.headers.cookie;
      const raw = header ? app.parseCookie(header)[cookieName] : undefined;
      if (!raw) return undefined;
      const entry = known.get(sha256(raw));
      if (!entry || entry.expiresAt <= Date.now() || Date.now() - entry.lastSeenAt > TOUCH_INTERVAL_MS)
        return undefined;
      return entry.stamp === stampOf(await app.dataVersions.forRequest(request)) ? entry.user : undefined;
    });

    app.addHook('onRequest', async (request) => {
      const agentKey = request.headers[AGENT_CALL_HEADER];
      if (agentKey !== undefined) {
        // Once only, and only with no cookie: a browser's request never gets an agent's user.
        const call = typeof agentKey === 'string' ? agentCalls.get(agentKey) : undefined;
        if (typeof agentKey === 'string') agentCalls.delete(agentKey);
        if (call && !request.headers.cookie) {
          request.user = call.user;
          request.session = call.session;
        }
        return;
      }
      const raw = request.cookies[cookieName];
      if (!raw) return;
      const idHash = sha256(raw);
      const stamp = stampOf(await app.dataVersions.forRequest(request));
      let entry = known.get(idHash);
      if (!entry || entry.stamp !== stamp || entry.expiresAt <= Date.now()) {
        entry = await loadSession(idHash, stamp);
        if (!entry) {
          known.delete(idHash);
          return;
        }
        known.set(idHash, entry);
      }
      request.user = entry.user;
      request.session = entry.session;
      if (Date.now() - entry.lastSeenAt > TOUCH_INTERVAL_MS) {
        entry.lastSeenAt = Date.now();
        await app.db
          .updateTable('sessions')
          .set({ last_seen_at: new Date() })
          .where('id', '=', idHash)
          .execute();
      }
    });

    const loadSession = async (idHash: string, stamp: string): Promise<KnownSession | undefined> => {
      const row = await app.db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select(['s.csrf_token', 's.id_token', 's.last_seen_at', 's.expires_at', ...SESSION_USER_COLUMNS])
        .where('s.id', '=', idHash)
        // A blocked account's sessions end at once (the block bumps the identity counter).
        .where('u.blocked_at', 'is', null)
        .where('s.expires_at', '>', new Date())
        .executeTakeFirst();
      if (!row) return undefined;
      const user = sessionUserOf(row);
      const session: SessionInfo = Object.freeze({
        idHash,
        csrfToken: row.csrf_token,
        idToken: row.id_token,
      });
      return {
        stamp,
        user,
        session,
        lastSeenAt: new Date(row.last_seen_at).getTime(),
        expiresAt: new Date(row.expires_at).getTime(),
      };
    };

    // Checked right after the session is known and before any body is parsed.
    app.addHook('onRequest', async (request) => {
      if (!STATE_CHANGING.has(request.method)) return;
      if (CSRF_EXEMPT.some((p) => request.url.startsWith(p))) return;
      // The MCP endpoint never reads the session: a bearer token or nobody (modules/mcp).
      if (request.url.split('?', 1)[0] === '/mcp') return;
      const header = request.headers['x-csrf-token'];
      const token = Array.isArray(header) ? header[0] : header;
      if (!token) {
        throw new HttpError(403, en.api.csrfMissing, { code: 'csrf' });
      }
      const valid = request.session
        ? safeEqual(token, request.session.csrfToken)
        : validAnonymousToken(token);
      if (!valid) throw new HttpError(403, en.api.csrfInvalid, { code: 'csrf' });
    });

    /**
     * For the GETs that change state because the spec makes them GETs (logout): refused unless the
     * browser says the request comes from this site (Sec-Fetch-Site, else Origin), or it carries
     * the session's CSRF token (X-CSRF-Token, or ?token= for a plain link).
     */
    app.decorate('assertSameOrigin', (request: FastifyRequest, message: string) => {
      const site = request.headers['sec-fetch-site'];
      // 'none': the user opened the address themselves (typed it, a bookmark).
      if (site === 'same-origin' || site === 'none') return;
      const origin = request.headers.origin;
      const own = [new URL(app.config.publicUrl).origin, `${request.protocol}://${request.host}`];
      if (!site && origin && own.includes(origin)) return;
      const header = request.headers['x-csrf-token'];
      const query = (request.query as Record<string, unknown> | undefined)?.token;
      const token = (Array.isArray(header) ? header[0] : header) ?? (typeof query === 'string' ? query : '');
      if (request.session && token && safeEqual(token, request.session.csrfToken)) return;
      throw new HttpError(403, message, { code: 'csrf' });
    });

    // An answer that may depend on who asks (the organizations and their members' e-mail
    // addresses, applications, the profile) must stay out of shared caches and off the disk: every
    // API answer to a request with a session gets `private, no-store`, unless its route chose a
    // Cache-Control itself (public images, ETag-validated documents).
    app.addHook('onSend', async (request, reply) => {
      if (reply.hasHeader('cache-control')) return;
      // Cookies are not parsed yet when an earlier onRequest hook refused the request.
      const cookies = request.cookies as Partial<Record<string, string>> | null;
      if (!request.session && !cookies?.[cookieName]) return;
      if (SESSION_DEPENDENT_PREFIXES.some((p) => request.url.startsWith(p)))
        reply.header('Cache-Control', 'private, no-store');
    });

    app.decorate('csrfTokenFor', (request: FastifyRequest) =>
      request.session ? request.session.csrfToken : anonymousCsrfToken(),
    );

    /** Starts a new session for the user, ending the one the request came with (rotation at login). */
    app.decorate(
      'startSession',
      async (request: FastifyRequest, reply: FastifyReply, userId: number, idToken: string | null) => {
        if (request.session) {
          await app.db.deleteFrom('sessions').where('id', '=', request.session.idHash).execute();
        }
        const raw = randomBytes(32).toString('base64url');
        const csrfToken = randomBytes(24).toString('base64url');
        const expires = new Date(Date.now() + app.config.sessionTtlMs);
        await app.db
          .insertInto('sessions')
          .values({
            id: sha256(raw),
            user_id: userId,
            csrf_token: csrfToken,
            id_token: idToken,
            expires_at: expires,
          })
          .execute();
        reply.setCookie(cookieName, raw, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: overTls(app, request),
          expires,
        });
        return { csrfToken };
      },
    );

    app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.session) {
        await app.db.deleteFrom('sessions').where('id', '=', request.session.idHash).execute();
      }
      reply.clearCookie(cookieName, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: overTls(app, request),
      });
    });

    // An agent acting for a user (modules/mcp): the user as the session would load them (not
    // blocked), and the portal's own route called in-process as that user, so that the route's
    // checks, rate limits and audit entries are those of the web app.
    app.decorate('agentUser', async (uuid: string): Promise<SessionUser | undefined> => {
      const row = await app.db
        .selectFrom('users as u')
        .select(SESSION_USER_COLUMNS)
        .where('u.uuid', '=', uuid)
        .where('u.blocked_at', 'is', null)
        .executeTakeFirst();
      return row && sessionUserOf(row);
    });

    app.decorate('injectAs', async (user: SessionUser, options: AgentCallOptions) => {
      const key = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(24).toString('base64url');
      const session: SessionInfo = Object.freeze({ idHash: `agent:${key}`, csrfToken, idToken: null });
      agentCalls.set(key, { user, session });
      try {
        const hasBody = options.payload !== undefined;
        return await app.inject({
          method: options.method,
          url: options.url,
          remoteAddress: options.remoteAddress,
          headers: {
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
            ...options.headers,
            [AGENT_CALL_HEADER]: key,
            'x-csrf-token': csrfToken,
          },
          ...(hasBody
            ? {
                payload:
                  typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload),
              }
            : {}),
        });
      } finally {
        agentCalls.delete(key);
      }
    });

    // Expired sessions and abandoned login states are removed hourly.
    const sweep = setInterval(() => {
      const now = new Date();
      void app.db
        .deleteFrom('sessions')
        .where('expires_at', '<', now)
        .execute()
        .then(() =>
          app.db
            .deleteFrom('login_states')
            .where('created_at', '<', new Date(now.getTime() - 3600_000))
            .execute(),
        )
        .catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
    }, 3600_000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'session', dependencies: ['db', 'services'] },
);

/** The signed-in user, or a 401 for anonymous callers. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthorized();
  return request.user;
}

/** A provider administrator: 401 for anonymous callers, 403 with `message` for everyone else. */
export function requireAdmin(request: FastifyRequest, message: string): SessionUser {
  const user = requireUser(request);
  if (!user.isAdmin) throw forbidden(message);
  return user;
}

/**
 * Someone with one of the provider roles `needed` (an administrator always qualifies): 401 for
 * anonymous callers, 403 with `message` for everyone else. Every console endpoint calls it.
 */
export function requireProviderRole(
  request: FastifyRequest,
  needed: ProviderRole | readonly ProviderRole[],
  message: string,
): SessionUser {
  const user = requireUser(request);
  if (!hasProviderRole(user.providerRoles, needed)) throw forbidden(message);
  return user;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessionCookieName: string;
    /** The sessions this process knows (tests look at it). */
    sessionCache: { size: number };
    knownSessionUser(request: FastifyRequest): Promise<SessionUser | undefined>;
    csrfTokenFor(request: FastifyRequest): string;
    assertSameOrigin(request: FastifyRequest, message: string): void;
    startSession(
      request: FastifyRequest,
      reply: FastifyReply,
      userId: number,
      idToken: string | null,
    ): Promise<{ csrfToken: string }>;
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** The user an agent acts for, unless unknown or blocked. */
    agentUser(uuid: string): Promise<SessionUser | undefined>;
    /** Calls one of the portal's routes in-process as `user` (an agent's call, modules/mcp). */
    injectAs(user: SessionUser, options: AgentCallOptions): Promise<LightMyRequestResponse>;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    session: SessionInfo | null;
  }
}
