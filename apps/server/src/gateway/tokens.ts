import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWK } from 'jose';
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

/**
 * Verifies the authorization server's access tokens in-process: signature with its public keys
 * (no network), issuer, audience (the sandbox resource), type and expiry.
 */
export function createTokenVerifier(options: { issuer: string; audience: string; keys: JWK[] }) {
  const jwks = createLocalJWKSet({ keys: options.keys });
  return async function verify(token: string): Promise<VerifiedToken> {
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
        clientId,
        subject: payload.sub,
        scopes,
        grantId,
        jkt,
        certificateThumbprint: boundThumbprint(payload.cnf),
      };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new TokenError('the access token has expired');
      if (err instanceof joseErrors.JWTClaimValidationFailed) {
        throw new TokenError(`the access token is not valid here (${err.claim})`);
      }
      throw new TokenError('the access token is malformed or its signature is invalid');
    }
  };
}
