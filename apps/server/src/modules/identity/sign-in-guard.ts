import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { messageNumber } from '../../lib/i18n.ts';
import { hitSignInCounters, type SignInCounter } from '../../lib/rate-limit.ts';
import { overTls } from '../../lib/transport.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { IDP_PREFIX } from './idp-provider.ts';
import { identityTexts } from './idp-pages.ts';

/**
 * Password guessing is slowed down without locking the owner out (OWASP Authentication Cheat
 * Sheet, "account lockout" and "device cookies"):
 *
 * - Counters per address and per client IP, in the database (every instance counts the same
 *   attempts). LOGIN_RATE_LIMIT failures per address (five times as many per IP) go through at
 *   once; after that each attempt must wait for a delay that doubles from 30 seconds up to 15
 *   minutes. A counter forgets after an hour without attempts. There is no lock: the wait is
 *   told, and the right password works once it has passed.
 * - A client the account has signed in from before (this browser's device cookie, or the same IP
 *   address) is trusted for that account: its attempts count on a counter of its own, so that
 *   whoever hammers the address from elsewhere does not keep the owner out.
 * - Attempts are counted before the password is checked (parallel guesses cannot slip past); a
 *   success resets the address and trusted counters and gives the IP its attempt back.
 * - The failure that brings a counter to its free attempts (from then on each attempt waits) is
 *   written to the audit log once, as 'sign_in.failures_over_threshold': on the account (or the
 *   e-mail address tried, when no account has it) for the address and trusted-client counters,
 *   on the client address for the IP counter. Not every failure: the log is for people to read.
 */

export const DEVICE_COOKIE = 'portico_device';
const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 3600;
/** A client stays trusted this long after its last successful sign-in. */
const TRUST_TTL_MS = 180 * 24 * 3600_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

/** "30 seconds" or "4 minutes", for the sign-in page. */
export function waitText(seconds: number, locale: Locale = DEFAULT_LOCALE): string {
  const T = identityTexts(locale);
  return seconds < 120
    ? T('waitSeconds', { count: messageNumber(locale, seconds) })
    : T('waitMinutes', { count: messageNumber(locale, Math.ceil(seconds / 60)) });
}

export interface SignInAttempt {
  /** Whether the attempt may go on to the password check; else how long to wait. */
  allowed: boolean;
  retryAfterSeconds: number;
  /** After the password check: records a success or leaves the failure counted. */
  succeeded(reply: FastifyReply): Promise<void>;
  /** After a failed password check: audits a counter that this failure brought to its threshold. */
  failed(): Promise<void>;
}

export function signInGuard(app: FastifyInstance) {
  const clientHashes = (request: FastifyRequest) => {
    const device = request.cookies[DEVICE_COOKIE];
    return {
      device: device ? sha256(`device:${device}`) : undefined,
      ip: sha256(`ip:${request.ip}`),
    };
  };

  /** The trusted client this request is for the account: its device first, then its IP. */
  async function trustedClient(request: FastifyRequest, userId: number): Promise<string | undefined> {
    const { device, ip } = clientHashes(request);
    const candidates = device ? [device, ip] : [ip];
    const rows = await app.db
      .selectFrom('trusted_sign_ins')
      .select('client_hash')
      .where('user_id', '=', userId)
      .where('client_hash', 'in', candidates)
      .where('last_used_at', '>', new Date(Date.now() - TRUST_TTL_MS))
      .execute();
    return candidates.find((c) => rows.some((r) => r.client_hash === c));
  }

  async function remember(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
    let { device } = clientHashes(request);
    if (!device) {
      const id = randomBytes(24).toString('base64url');
      device = sha256(`device:${id}`);
      // The reply is handed to the provider after this (hijacked): set the header on the raw
      // response, where the provider's own cookies are appended.
      reply.raw.appendHeader(
        'Set-Cookie',
        app.serializeCookie(DEVICE_COOKIE, id, {
          path: `${IDP_PREFIX}/`,
          httpOnly: true,
          sameSite: 'lax',
          secure: overTls(app, request),
          maxAge: DEVICE_COOKIE_MAX_AGE_S,
        }),
      );
    }
    const now = new Date();
    for (const hash of [device, clientHashes(request).ip]) {
      await app.db
        .insertInto('trusted_sign_ins')
        .values({ user_id: userId, client_hash: hash, last_used_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'client_hash']).doUpdateSet({ last_used_at: now }))
        .execute();
    }
  }

  /** Counts a sign-in attempt for `email` (the account when it exists) before the password check. */
  async function attempt(
    request: FastifyRequest,
    email: string,
    userId: number | undefined,
    userUuid?: string,
  ): Promise<SignInAttempt> {
    const max = app.config.loginRateLimit;
    const trusted = userId === undefined ? undefined : await trustedClient(request, userId);
    const counters: SignInCounter[] = trusted
      ? [{ key: `login:trusted:${userId}:${trusted}`, free: max, onSuccess: 'reset' }]
      : [
          { key: `login:email:${email.toLowerCase()}`, free: max, onSuccess: 'reset' },
          { key: `login:ip:${request.ip}`, free: max * 5, onSuccess: 'refund' },
        ];
    const counted = await hitSignInCounters(app.db, counters);
    if (counted.retryAfterSeconds) {
      return {
        allowed: false,
        retryAfterSeconds: counted.retryAfterSeconds,
        succeeded: async () => {},
        failed: async () => {},
      };
    }
    return {
      allowed: true,
      retryAfterSeconds: 0,
      async succeeded(reply) {
        await counted.succeeded();
        if (userId !== undefined) await remember(request, reply, userId);
      },
      async failed() {
        for (const counter of counted.atThreshold) {
          const kind = counter.key.startsWith('login:ip:')
            ? 'ip'
            : counter.key.startsWith('login:trusted:')
              ? 'trusted_client'
              : 'email';
          await recordAudit(app.db, actorOf(request), {
            action: 'sign_in.failures_over_threshold',
            ...(kind === 'ip'
              ? { targetType: 'address', targetId: request.ip, targetLabel: request.ip }
              : userUuid !== undefined
                ? { targetType: 'user', targetId: userUuid, targetLabel: email }
                : { targetType: 'email', targetId: null, targetLabel: email }),
            after: { counter: kind, failures: counter.free, email },
          });
        }
      },
    };
  }

  return { attempt };
}
