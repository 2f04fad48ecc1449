import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { publicOrigin } from '../../lib/public-url.ts';
import { IDP_PREFIX, PORTAL_CLIENT_ID, portalClientSecret } from './idp-provider.ts';

/**
 * The portal as an OpenID Connect relying party (openid-client), the same code for the built-in
 * provider and for an external one (OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET).
 */
export interface RelyingParty {
  /** The issuer users come back from; stored with external accounts. */
  issuer: string;
  builtIn: boolean;
  config(): Promise<oidc.Configuration>;
  /** The origin to send the browser back to: the request's own when it is one of ours. */
  originFor(request: FastifyRequest): string;
}

export function createRelyingParty(app: FastifyInstance): RelyingParty {
  const originFor = (request: FastifyRequest) => publicOrigin(app, request);
  const external = app.config.oidc;
  if (external) {
    let discovered: Promise<oidc.Configuration> | undefined;
    return {
      issuer: external.issuer,
      builtIn: false,
      originFor,
      config() {
        discovered ??= oidc
          .discovery(new URL(external.issuer), external.clientId, external.clientSecret)
          .catch((err: unknown) => {
            discovered = undefined; // try again on the next sign-in
            throw err;
          });
        return discovered;
      },
    };
  }

  // Built-in provider: the browser uses the public issuer URL; the back channel (token and keys)
  // goes to this very process over loopback, whatever the public address is.
  const issuer = `${app.config.publicUrl}${IDP_PREFIX}`;
  const listenHost = ['0.0.0.0', '::', ''].includes(app.config.host) ? '127.0.0.1' : app.config.host;
  const internal = `http://${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:${app.config.port}${IDP_PREFIX}`;
  let configuration: oidc.Configuration | undefined;
  return {
    issuer,
    builtIn: true,
    originFor,
    async config() {
      if (!configuration) {
        configuration = new oidc.Configuration(
          {
            issuer,
            authorization_endpoint: `${issuer}/auth`,
            token_endpoint: `${internal}/token`,
            jwks_uri: `${internal}/jwks`,
            end_session_endpoint: `${issuer}/session/end`,
            id_token_signing_alg_values_supported: ['RS256'],
            authorization_response_iss_parameter_supported: true,
          },
          PORTAL_CLIENT_ID,
          portalClientSecret(app),
        );
        oidc.allowInsecureRequests(configuration);
      }
      return configuration;
    },
  };
}
