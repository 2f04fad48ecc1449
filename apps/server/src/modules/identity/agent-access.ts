import type { FastifyInstance } from 'fastify';
import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type Provider from 'oidc-provider';

/**
 * AI assistants acting for a portal user (the MCP server, modules/mcp; decision 056). The identity
 * provider is their authorization server: an assistant registers itself (RFC 7591, a public client
 * with PKCE), the user signs in and consents, and the access token it gets is for one resource, the
 * portal's `/mcp` (RFC 8707), with one scope, `portal`. Tokens are opaque and stored (the provider's
 * adapter), so that a sign-out everywhere, a password change or a block ends them at once.
 */

/** The one scope an assistant may ask for: act for the user as the consent page lists. */
export const AGENT_SCOPE = 'portal';
/** How long an assistant's access token lasts. */
export const AGENT_TOKEN_TTL = 3600;

/** The MCP endpoint: the resource indicator and the audience of the assistants' tokens. */
export function agentResource(app: FastifyInstance): string {
  return `${app.config.publicUrl}/mcp`;
}

/** A redirect URI an assistant may register: https, or http on the loopback (RFC 8252 7.3). */
export function allowedAgentRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

type ClientMetadata = Record<string, unknown>;

/**
 * The identity provider's settings for assistants, merged into its configuration by
 * idp-provider.ts: dynamic registration of public clients only, and the `/mcp` resource.
 */
export function agentConfiguration(
  app: FastifyInstance,
  portalClientId: string,
): Pick<Configuration, 'extraClientMetadata' | 'scopes'> & {
  features: Pick<NonNullable<Configuration['features']>, 'registration' | 'resourceIndicators'>;
} {
  const resource = agentResource(app);
  return {
    // Clients may register with the scope they will ask for (the MCP SDK sends the resource's).
    scopes: ['openid', 'offline_access', AGENT_SCOPE],
    // `software_id` (RFC 7591) is stored as sent; its validator is where a registration's other
    // members are checked, since oidc-provider calls it for every client it reads.
    extraClientMetadata: {
      properties: ['software_id'],
      validator(_ctx, key, _value, metadata) {
        if (key !== 'software_id') return;
        const m = metadata as unknown as ClientMetadata;
        if (m.client_id === portalClientId) return;
        if (m.token_endpoint_auth_method !== 'none')
          throw new errors.InvalidClientMetadata(
            'token_endpoint_auth_method must be none: assistants are public clients using PKCE',
          );
        const grants = Array.isArray(m.grant_types) ? (m.grant_types as unknown[]) : [];
        if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
          throw new errors.InvalidClientMetadata(
            'grant_types may be authorization_code and refresh_token only',
          );
        const uris = Array.isArray(m.redirect_uris) ? (m.redirect_uris as unknown[]) : [];
        if (!uris.every((u) => typeof u === 'string' && allowedAgentRedirect(u)))
          throw new errors.InvalidRedirectUri(
            'redirect_uris must use https, or http on the loopback address',
          );
      },
    },
    features: {
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      resourceIndicators: {
        enabled: true,
        // The portal's own sign-in asks for no resource (its token is for userinfo); an assistant
        // that names none gets /mcp's.
        defaultResource: (_ctx, client) => (client?.clientId === portalClientId ? undefined : resource),
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx: KoaContextWithOIDC, indicator: string, client) {
          if (indicator !== resource || client.clientId === portalClientId)
            throw new errors.InvalidTarget(`unknown resource; use ${resource}`);
          return {
            scope: AGENT_SCOPE,
            audience: resource,
            accessTokenTTL: AGENT_TOKEN_TTL,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
  };
}

/** What a valid assistant's token says: whose it is, which client holds it, what it may do. */
export interface AgentGrant {
  userUuid: string;
  clientId: string;
  scopes: string[];
}

/**
 * Checks an access token presented at `/mcp`: issued by the identity provider, not expired nor
 * revoked, for the `/mcp` resource. Undefined for any other token.
 */
export async function verifyAgentToken(
  app: FastifyInstance,
  provider: Provider,
  token: string,
): Promise<AgentGrant | undefined> {
  if (!token || token.length > 512) return undefined;
  const found = await provider.AccessToken.find(token);
  if (!found || found.isExpired) return undefined;
  const audiences = Array.isArray(found.aud) ? found.aud : found.aud ? [found.aud] : [];
  if (!audiences.includes(agentResource(app))) return undefined;
  if (!found.accountId || !found.clientId) return undefined;
  return {
    userUuid: found.accountId,
    clientId: found.clientId,
    scopes: (found.scope ?? '').split(' ').filter(Boolean),
  };
}
