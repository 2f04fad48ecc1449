import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  errors as joseErrors,
  importJWK,
  jwtVerify,
  type JWK,
} from 'jose';
import type { Db } from '../db/client.ts';

/**
 * DPoP (RFC 9449) at the sandbox gateway (issue 28, decision 051). An access token bound to a key
 * (`cnf.jkt`, issued by the authorization server to a client that sent a proof) is only accepted as
 * `Authorization: DPoP <token>` with a fresh proof in the `DPoP` header, signed by that key, for
 * this very request:
 *
 * - `typ: dpop+jwt`, an asymmetric `alg` of DPOP_ALGORITHMS, the public `jwk` in the header and a
 *   signature it verifies;
 * - `htm` = the request's method, `htu` = its URL without query and fragment;
 * - `iat` within DPOP_WINDOW_SECONDS before now (DPOP_LEEWAY_SECONDS after, for clock skew);
 * - `ath` = base64url(SHA-256(access token)), the key's thumbprint = the token's `cnf.jkt`;
 * - a `jti` never seen before with that key, on any instance: each accepted proof is a row of
 *   `dpop_proof_jtis` (migration 0307) until it falls out of the window; expired rows are deleted
 *   at most once a minute per instance.
 *
 * A refusal is a 401 with `WWW-Authenticate: DPoP error="invalid_dpop_proof"` and a description
 * naming what is wrong.
 */

export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'EdDSA'];
/** How old a proof may be. */
export const DPOP_WINDOW_SECONDS = 300;
/** How far in the future a proof's iat may be (clocks differ). */
export const DPOP_LEEWAY_SECONDS = 60;
const CLEAN_EVERY_MS = 60_000;

/** The access token of the Authorization header and its scheme; undefined absent, null malformed. */
export type PresentedToken = { scheme: 'Bearer' | 'DPoP'; token: string } | null | undefined;

export function presentedToken(request: FastifyRequest): PresentedToken {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^(Bearer|DPoP)\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!m) return null;
  return { scheme: m[1]!.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: m[2]! };
}

export class DpopError extends Error {
  override name = 'DpopError';
}

/** `htu` as compared: the URL without query and fragment, normalised (lower-case host, no default port). */
function normalizedUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

export function createDpopChecker(db: Db, options: { publicUrl: string }) {
  let lastClean = 0;

  async function clean(now: number): Promise<void> {
    if (now - lastClean < CLEAN_EVERY_MS) return;
    lastClean = now;
    await db.deleteFrom('dpop_proof_jtis').where('expires_at', '<', new Date(now)).execute();
  }

  /** The URLs this request may be named by in `htu`: under the public URL, and as it arrived. */
  function requestUrls(request: FastifyRequest): string[] {
    const raw = request.raw.url ?? '/';
    const q = raw.indexOf('?');
    const path = q === -1 ? raw : raw.slice(0, q);
    const urls = [
      `${options.publicUrl.replace(/\/+$/, '')}${path}`,
      `${request.protocol}://${request.host}${path}`,
    ];
    return [...new Set(urls.map(normalizedUrl).filter((u): u is string => u !== undefined))];
  }

  /**
   * Checks the request's DPoP proof for `token`, bound to the key of thumbprint `jkt`; throws a
   * DpopError naming what is wrong.
   */
  async function check(request: FastifyRequest, token: string, jkt: string): Promise<void> {
    const header = request.headers.dpop;
    if (header === undefined) throw new DpopError('a DPoP proof is required in the DPoP header');
    if (Array.isArray(header) || header.includes(','))
      throw new DpopError('the request must carry exactly one DPoP proof');
    let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
    try {
      protectedHeader = decodeProtectedHeader(header);
    } catch {
      throw new DpopError('the DPoP proof is not a JWT');
    }
    if (protectedHeader.typ !== 'dpop+jwt') throw new DpopError('the DPoP proof must have the type dpop+jwt');
    const alg = protectedHeader.alg;
    if (typeof alg !== 'string' || !DPOP_ALGORITHMS.includes(alg))
      throw new DpopError(`the DPoP proof's algorithm must be one of ${DPOP_ALGORITHMS.join(', ')}`);
    const jwk = protectedHeader.jwk as JWK | undefined;
    if (!jwk || typeof jwk !== 'object')
      throw new DpopError('the DPoP proof must carry its public key (jwk)');
    if (PRIVATE_JWK_MEMBERS.some((m) => m in jwk))
      throw new DpopError("the DPoP proof's jwk must be a public key");

    let payload: Record<string, unknown>;
    try {
      const key = await importJWK(jwk, alg);
      ({ payload } = await jwtVerify(header, key, { typ: 'dpop+jwt', algorithms: DPOP_ALGORITHMS }));
    } catch (err) {
      if (err instanceof joseErrors.JWSSignatureVerificationFailed)
        throw new DpopError("the DPoP proof's signature does not match its jwk");
      if (err instanceof joseErrors.JWTExpired) throw new DpopError('the DPoP proof has expired');
      throw new DpopError('the DPoP proof is malformed or its jwk cannot verify it');
    }

    const { jti, htm, htu, iat, ath } = payload;
    if (typeof jti !== 'string' || !jti || jti.length > 200)
      throw new DpopError('the DPoP proof must have a jti (at most 200 characters)');
    if (htm !== request.method)
      throw new DpopError(`the DPoP proof's htm must be the request's method, ${request.method}`);
    const urls = requestUrls(request);
    const named = typeof htu === 'string' ? normalizedUrl(htu) : undefined;
    if (!named || !urls.includes(named))
      throw new DpopError(`the DPoP proof's htu must be the request's URL without query, ${urls[0]}`);
    const now = Math.floor(Date.now() / 1000);
    if (typeof iat !== 'number' || iat < now - DPOP_WINDOW_SECONDS || iat > now + DPOP_LEEWAY_SECONDS)
      throw new DpopError(
        `the DPoP proof's iat must be within ${DPOP_WINDOW_SECONDS / 60} minutes of the server's time`,
      );
    const hash = createHash('sha256').update(token).digest('base64url');
    if (ath !== hash)
      throw new DpopError("the DPoP proof's ath must be the SHA-256 hash of the access token (base64url)");
    if ((await calculateJwkThumbprint(jwk, 'sha256')) !== jkt)
      throw new DpopError(
        'the DPoP proof is signed with another key than the one the access token is bound to',
      );

    // Replay: the first instance to store (jkt, jti) accepts the proof, every later use is refused.
    await clean(Date.now());
    const stored = await db
      .insertInto('dpop_proof_jtis')
      .values({ jkt, jti, expires_at: new Date((iat + DPOP_WINDOW_SECONDS + DPOP_LEEWAY_SECONDS) * 1000) })
      .onConflict((oc) => oc.columns(['jkt', 'jti']).doNothing())
      .returning('jti')
      .executeTakeFirst();
    if (!stored)
      throw new DpopError('the DPoP proof has already been used: make a new proof (jti) for every request');
  }

  return { check };
}

/** The `WWW-Authenticate` challenge of a DPoP refusal. */
export function dpopChallenge(error: string, description: string): string {
  const quote = (v: string) => v.replace(/["\\]/g, '');
  return `DPoP realm="sandbox", error="${error}", error_description="${quote(description)}", algs="${DPOP_ALGORITHMS.join(' ')}"`;
}
