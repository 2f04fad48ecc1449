import type { Client, ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';

/**
 * Sender-constrained tokens and the FAPI 2.0 Security Profile at the API authorization server
 * (issue 28, decision 051). oidc-provider implements both; this file only switches them on and
 * says which clients they apply to, from `oauth_clients.dpop_bound_access_tokens` and
 * `oauth_clients.fapi` (migration 0306):
 *
 * - DPoP (RFC 9449) is on for every client: a token request with a `DPoP` proof gets a token bound
 *   to the proof's key (`cnf.jkt`, `token_type: DPoP`). A client with `dpop_bound_access_tokens`
 *   gets no token without a proof.
 * - Pushed authorization requests (RFC 9126) are on for every client and required for FAPI ones.
 * - FAPI 2.0 clients (`features.fapi` profile '2.0'): PAR, PKCE S256, the redirect URI always
 *   named, DPoP-bound tokens unless the client's tokens are bound to its TLS certificate (mTLS),
 *   access tokens of FAPI_ACCESS_TOKEN_TTL and refresh tokens that are not rotated. `iss` is in
 *   every authorization response (RFC 9207) anyway.
 */

/** The FAPI 2.0 Security Profile's access-token lifetime here: 10 minutes. */
export const FAPI_ACCESS_TOKEN_TTL = 600;

/** Client metadata naming a FAPI 2.0 client (ours, kept by oidc-provider as is). */
const FAPI_METADATA = 'portico_fapi';

/** The message shown when a FAPI 2.0 client would authenticate with a client secret. */
export const FAPI_CLIENT_AUTH_MESSAGE = 'FAPI 2.0 requires signed JWT or mutual TLS client authentication';

/** Whether oidc-provider's client is a FAPI 2.0 client. */
export function isFapiClient(client: Client | undefined): boolean {
  return (client as unknown as Record<string, unknown> | undefined)?.[FAPI_METADATA] === true;
}

/** The token-security settings of a client (`oauth_clients`, migration 0306). */
export interface TokenSecurity {
  dpopBoundAccessTokens: boolean;
  fapi: boolean;
}

/**
 * The client's metadata with its sender constraints: `dpop_bound_access_tokens` when the
 * application asks for it, or for a FAPI client whose tokens are not certificate-bound; PAR
 * required for a FAPI client.
 */
export function withSenderConstraints(
  metadata: ClientMetadata,
  security: { dpopBoundAccessTokens: boolean; fapi: boolean },
): ClientMetadata {
  const mtlsBound = metadata.tls_client_certificate_bound_access_tokens === true;
  const dpop = security.dpopBoundAccessTokens || (security.fapi && !mtlsBound);
  return {
    ...metadata,
    ...(dpop ? { dpop_bound_access_tokens: true } : {}),
    ...(security.fapi ? { require_pushed_authorization_requests: true, [FAPI_METADATA]: true } : {}),
  };
}

/** The top-level configuration: our client metadata property. */
export const senderConstraintConfiguration: Pick<Configuration, 'extraClientMetadata'> = {
  extraClientMetadata: {
    properties: [FAPI_METADATA],
    validator(_ctx, key, value, metadata) {
      if (key === FAPI_METADATA && value !== undefined && typeof value !== 'boolean')
        (metadata as Record<string, unknown>)[key] = undefined;
    },
  },
};

/** The features: DPoP and PAR for every client, the FAPI 2.0 profile for FAPI clients. */
export const senderConstraintFeatures: Pick<
  NonNullable<Configuration['features']>,
  'dPoP' | 'pushedAuthorizationRequests' | 'fapi'
> = {
  // Proofs are checked by oidc-provider at the token endpoint (a jti is accepted once); the
  // sandbox gateway checks its own (gateway/dpop.ts). No server nonce: the sandbox keeps the flow
  // a client library's defaults handle.
  dPoP: { enabled: true, allowReplay: false },
  pushedAuthorizationRequests: { enabled: true, requirePushedAuthorizationRequests: false },
  fapi: {
    enabled: true,
    profile: (_ctx: KoaContextWithOIDC, client: Client | undefined) =>
      isFapiClient(client) ? '2.0' : undefined,
  },
};

/** The lifetime of an access token: FAPI_ACCESS_TOKEN_TTL for a FAPI 2.0 client, `ttl` otherwise. */
export const accessTokenTtl =
  (ttl: number) =>
  (_ctx: KoaContextWithOIDC, _token: unknown, client: Client): number =>
    isFapiClient(client) ? FAPI_ACCESS_TOKEN_TTL : ttl;

/** PKCE: required for public clients and under FAPI 2.0 (S256, the only method). */
export const pkceRequired = (ctx: KoaContextWithOIDC, client: Client): boolean =>
  client.clientAuthMethod === 'none' || isFapiClient(client);

/** Refresh tokens rotate on every use, except a FAPI client's (the profile advises against it). */
export const rotateRefreshToken = (ctx: KoaContextWithOIDC): boolean => !isFapiClient(ctx.oidc.client);

/** The answer to a token request without the DPoP proof its client's tokens need (RFC 9449). */
export const DPOP_REQUIRED_DESCRIPTION =
  "a DPoP proof is required: this client's access tokens are DPoP-bound (RFC 9449); send a DPoP header with a proof JWT signed by the client's key for this request (htm POST, htu the token endpoint)";

/** What oidc-provider says (error_detail of an invalid_grant, sender_constraints.js). */
const PROVIDER_DPOP_MISSING = 'DPoP proof JWT not provided';
const MISSING = Symbol('portico.dpopMissing');

/**
 * oidc-provider refuses a token request of a DPoP-bound client without a proof as
 * `invalid_grant` / 'grant request is invalid' (the reason stays in its error_detail). The client
 * is told instead: `invalid_dpop_proof` with a description saying a proof is required.
 */
export function explainMissingDpop(provider: {
  use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): unknown;
  on(event: 'grant.error', listener: (ctx: KoaContextWithOIDC, err: Error) => void): unknown;
}): void {
  provider.on('grant.error', (ctx, err) => {
    if ((err as { error_detail?: unknown }).error_detail === PROVIDER_DPOP_MISSING)
      (ctx.state as Record<symbol, boolean>)[MISSING] = true;
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!(ctx.state as Record<symbol, boolean>)[MISSING]) return;
    const body = ctx.body as { error?: unknown } | undefined;
    if (body && typeof body === 'object' && body.error === 'invalid_grant') {
      ctx.status = 400;
      ctx.body = { error: 'invalid_dpop_proof', error_description: DPOP_REQUIRED_DESCRIPTION };
    }
  });
}
