import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { en } from '@portico/contracts/messages';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import { mountOidcProvider } from '../../oidc/mount.ts';
import { verifyAgentToken, type AgentGrant } from './agent-access.ts';
import { IDP_PREFIX, createIdentityProvider } from './idp-provider.ts';
import { identityPageRoutes } from './idp-routes.ts';
import { createRelyingParty } from './relying-party.ts';
import { sessionRoutes } from './session-routes.ts';
import { userRoutes } from './users-routes.ts';

/** Registrations of assistants (POST /idp/reg) per address and hour. */
const REGISTRATIONS_PER_HOUR = 30;

/**
 * Identity: the built-in OpenID Provider (unless OIDC_ISSUER names an external one), the portal
 * as its relying party, the session calls and the user resource.
 */
export default fp(
  async (app) => {
    if (!app.config.oidc) {
      const provider = await createIdentityProvider(app);
      await identityPageRoutes(app, provider);
      // Dynamic registration is open to anyone (assistants, agent-access.ts): counted per address.
      app.addHook('onRequest', async (request) => {
        if (request.method === 'POST' && request.url.split('?', 1)[0] === `${IDP_PREFIX}/reg`)
          await enforceRateLimit(
            app.db,
            `idp-registration:ip:${request.ip}`,
            REGISTRATIONS_PER_HOUR,
            en.mcp.tooManyRegistrations,
          );
      });
      await mountOidcProvider(app, IDP_PREFIX, provider);
      // RFC 8414 3.1: an issuer with a path has its metadata at /.well-known/<kind>/<path> too,
      // where OAuth-only clients (MCP clients, decision 056) look first. The provider's own answer.
      const metadata = async (request: FastifyRequest, reply: FastifyReply) => {
        const res = await app.inject({
          method: 'GET',
          url: `${IDP_PREFIX}/.well-known/openid-configuration`,
          remoteAddress: request.ip,
        });
        return reply
          .status(res.statusCode)
          .header('Access-Control-Allow-Origin', '*')
          .header('Cache-Control', 'public, max-age=3600')
          .type('application/json')
          .send(res.body);
      };
      app.get(`/.well-known/oauth-authorization-server${IDP_PREFIX}`, metadata);
      app.get(`/.well-known/openid-configuration${IDP_PREFIX}`, metadata);
      app.decorate('agentAuthorization', {
        issuer: `${app.config.publicUrl}${IDP_PREFIX}`,
        verify: (token: string) => verifyAgentToken(app, provider, token),
      });
    } else {
      // An outside identity provider issues no tokens for /mcp: assistants stay anonymous.
      app.decorate('agentAuthorization', null);
    }
    await sessionRoutes(app, createRelyingParty(app));
    await userRoutes(app);
  },
  { name: 'identity', dependencies: ['session'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** The authorization of assistants at /mcp (decision 056); null with an outside provider. */
    agentAuthorization: {
      issuer: string;
      verify(token: string): Promise<AgentGrant | undefined>;
    } | null;
  }
}
