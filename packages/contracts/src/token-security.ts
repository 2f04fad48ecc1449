import { z } from 'zod';

/**
 * An application's token security (issue 28): `GET` and `PUT /api/applications/:id/token-security`.
 * `dpopBoundAccessTokens`: the sandbox's tokens must be DPoP-bound (RFC 9449). `fapi`: the FAPI 2.0
 * Security Profile applies (PAR, PKCE S256, sender-constrained tokens), refused while the
 * application authenticates with a client secret (`fapiAllowed` false).
 */
export const tokenSecuritySchema = z.strictObject({
  dpopBoundAccessTokens: z.boolean(),
  fapi: z.boolean(),
});
export type TokenSecurityInput = z.infer<typeof tokenSecuritySchema>;

export interface TokenSecurity extends TokenSecurityInput {
  /** Whether the application's client authentication allows FAPI 2.0 (signed JWT or mutual TLS). */
  fapiAllowed: boolean;
}

/** Client authentication methods the FAPI 2.0 profile accepts. */
export const FAPI_CLIENT_AUTH_METHODS = [
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;
