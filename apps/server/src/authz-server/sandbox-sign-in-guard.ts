import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hitSignInCounters, type SignInCounter } from '../lib/rate-limit.ts';
import { overTls } from '../lib/transport.ts';
import { OAUTH_PREFIX } from './provider.ts';

/**
 * Slows password guessing on the sandbox's sign-in page. The sandbox customers are shared by
 * every developer and their passwords are public (content/sandbox-users.yaml), so one caller must
 * never keep them out for the others: the counters are per caller, never per customer alone.
 *
 * - A caller is its address (the client IP): LOGIN_RATE_LIMIT failures for one customer name
 *   (five times as many over all names) go through at once, then each attempt waits for a delay
 *   that doubles from 30 seconds up to 15 minutes (lib/rate-limit.ts signInThrottle). Another
 *   caller is not slowed by them.
 * - A browser that signed a customer in before (its signed device cookie names the customer)
 *   counts on a counter of its own for that customer, so that nobody on the same address keeps it
 *   out.
 * - A success resets the caller's counter for the name and gives the address its attempt back.
 *
 * The portal's own accounts keep their rule (modules/identity/sign-in-guard.ts: per address and
 * per IP, with the known-device exemption).
 */

export const SANDBOX_DEVICE_COOKIE = 'portico_sandbox_device';
const DEVICE_COOKIE_MAX_AGE_S = 180 * 24 * 3600;
/** The customers a device cookie remembers, the latest first. */
const MAX_REMEMBERED = 10;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

interface Device {
  id: string;
  /** The uuids of the customers signed in from this browser. */
  customers: string[];
}

export interface SandboxSignInAttempt {
  allowed: boolean;
  retryAfterSeconds: number;
  /** After the password check: records the success (and remembers the customer on the device). */
  succeeded(reply: FastifyReply): Promise<void>;
}

export function sandboxSignInGuard(app: FastifyInstance) {
  const macKey = app.secretBox.derive('sandbox-device-cookie');
  const mac = (payload: string) => createHmac('sha256', macKey).update(payload).digest('base64url');

  /** The device cookie's content when it is one we signed, else undefined. */
  function readDevice(request: FastifyRequest): Device | undefined {
    const value = request.cookies[SANDBOX_DEVICE_COOKIE];
    const dot = value?.lastIndexOf('.') ?? -1;
    if (!value || dot < 0) return undefined;
    const payload = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1));
    const expected = Buffer.from(mac(payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
      const { id, customers } = (parsed ?? {}) as Partial<Device>;
      if (typeof id !== 'string' || !Array.isArray(customers)) return undefined;
      return { id, customers: customers.filter((c): c is string => typeof c === 'string') };
    } catch {
      return undefined;
    }
  }

  function writeDevice(request: FastifyRequest, reply: FastifyReply, device: Device): void {
    const payload = Buffer.from(JSON.stringify(device)).toString('base64url');
    // The reply is handed to the provider after this (hijacked): the header goes on the raw
    // response, where the provider's own cookies are appended.
    reply.raw.appendHeader(
      'Set-Cookie',
      app.serializeCookie(SANDBOX_DEVICE_COOKIE, `${payload}.${mac(payload)}`, {
        path: `${OAUTH_PREFIX}/`,
        httpOnly: true,
        sameSite: 'lax',
        secure: overTls(app, request),
        maxAge: DEVICE_COOKIE_MAX_AGE_S,
      }),
    );
  }

  /**
   * Counts an attempt at `username` (the customer's uuid when it exists) before the password
   * check. Counter keys: `sandbox-login:trusted:<device>:<customer uuid>` for a browser that signed
   * the customer in before, else `sandbox-login:<ip>:<name>` and `sandbox-login:ip:<ip>`.
   */
  async function attempt(
    request: FastifyRequest,
    username: string,
    customerUuid: string | undefined,
  ): Promise<SandboxSignInAttempt> {
    const max = app.config.loginRateLimit;
    const device = readDevice(request);
    const trusted = customerUuid && device?.customers.includes(customerUuid) ? device : undefined;
    const counters: SignInCounter[] = trusted
      ? [
          {
            key: `sandbox-login:trusted:${sha256(trusted.id)}:${customerUuid}`,
            free: max,
            onSuccess: 'reset',
          },
        ]
      : [
          {
            key: `sandbox-login:${request.ip}:${username.toLowerCase()}`,
            free: max,
            onSuccess: 'reset',
          },
          { key: `sandbox-login:ip:${request.ip}`, free: max * 5, onSuccess: 'refund' },
        ];
    const counted = await hitSignInCounters(app.db, counters);
    if (counted.retryAfterSeconds) {
      return { allowed: false, retryAfterSeconds: counted.retryAfterSeconds, succeeded: async () => {} };
    }
    return {
      allowed: true,
      retryAfterSeconds: 0,
      async succeeded(reply) {
        await counted.succeeded();
        if (customerUuid === undefined) return;
        const id = device?.id ?? randomBytes(24).toString('base64url');
        const others = (device?.customers ?? []).filter((c) => c !== customerUuid);
        writeDevice(request, reply, { id, customers: [customerUuid, ...others].slice(0, MAX_REMEMBERED) });
      },
    };
  }

  return { attempt };
}
