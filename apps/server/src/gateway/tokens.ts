import { hash } from 'node:crypto';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from 'jose';
import { LRUCache } from 'lru-cache';
import { boundThumbprint } from './certificate-binding.ts';

export interface VerifiedToken {
  clientId: string;
  subject: string | undefined;
  scopes: Set<string>;
  /** The thumbprint of the key a DPoP-bound token is bound to (`cnf.jkt`, RFC 9449). */
  jkt: string | undefined;
  /** The grant of a sandbox customer's token (`grant_id`), undefined for client_credentials. */
  grantId: string | undefined;
  /** The certificate the token is bound to (RFC 8705 `cnf.x5t#S256`): certificate-binding.ts. */
  certificateThumbprint?: string | undefined;
}

export class TokenError extends Error {
  override name = 'TokenError';
}

/** Verified tokens kept in memory (by the SHA-256 of the token, never the token itself). */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Verifies the authorization server's access tokens in-process: signature with its public keys
 * (no network), issuer, audience (the sandbox resource), type and expiry.
 *
 * A token that passed is kept, by its SHA-256, until its `exp` (bounded LRU of
 * VERIFIED_TOKENS_KEPT): what is kept depends only on the token's bytes and on the signing keys,
 * which a process never changes, so the next call of the same token skips the RS256 verification
 * and reads its claims from memory (decision 055). Expiry is checked on every call as before;
 * whatever can withdraw a valid token's access (a deleted client, an unsubscription, a blocked
 * creator, a revoked consent, a DPoP proof, a certificate) is checked per call by the gateway
 * after this, never cached here. Refused tokens are not kept.
 */
export function createTokenVerifier(options: { issuer: string; audience: string; keys: JWK[] }) {
  const jwks = createLocalJWKSet({ keys: options.keys });
  const verified = new LRUCache<string, { token: VerifiedToken; exp: number }>({ max: VERIFIED_TOKENS_KEPT });
  const epochSeconds = () => Math.floor(Date.now() / 1000);
  return async function verify(token: string): Promise<VerifiedToken> {
    const key = hash('sha256', token, 'base64url');
    const hit = verified.get(key);
    if (hit) {
      // jose's test: expired once `exp` is not after now (in whole seconds).
      if (hit.exp > epochSeconds()) return hit.token;
      verified.delete(key);
      throw new TokenError('the access token has expired');
    }
    const result = await verifyToken(token);
    if (result.exp !== undefined) verified.set(key, { token: result.token, exp: result.exp });
    return result.token;
  };

  async function verifyToken(token: string): Promise<{ token: VerifiedToken; exp: number | undefined }> {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: options.issuer,
        audience: options.audience,
        typ: 'at+jwt',
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      });
      const clientId = typeof payload.client_id === 'string' ? payload.client_id : undefined;
      if (!clientId) throw new TokenError('the access token names no client');
      const scope = typeof payload.scope === 'string' ? payload.scope : '';
      const scopes = new Set(scope.split(' ').filter(Boolean));
      const grantId = typeof payload.grant_id === 'string' ? payload.grant_id : undefined;
      const cnf = payload.cnf as { jkt?: unknown } | undefined;
      const jkt = typeof cnf?.jkt === 'string' ? cnf.jkt : undefined;
      return {
        token: {
          clientId,
          subject: payload.sub,
          scopes,
          grantId,
          jkt,
          certificateThumbprint: boundThumbprint(payload.cnf),
        },
        // Only a token with an expiry is kept (the authorization server's always have one).
        exp: typeof payload.exp === 'number' ? payload.exp : undefined,
      };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new TokenError('the access token has expired');
      if (err instanceof joseErrors.JWTClaimValidationFailed) {
        throw new TokenError(`the access token is not valid here (${err.claim})`);
      }
      throw new TokenError('the access token is malformed or its signature is invalid');
    }
  }
}
