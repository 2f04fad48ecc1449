import fp from 'fastify-plugin';
import { mountOidcProvider } from '../../oidc/mount.ts';
import { IDP_PREFIX, createIdentityProvider } from './idp-provider.ts';
import { identityPageRoutes } from './idp-routes.ts';
import { createRelyingParty } from './relying-party.ts';
import { sessionRoutes } from './session-routes.ts';
import { userRoutes } from './users-routes.ts';

/**
 * Identity: the built-in OpenID Provider (unless OIDC_ISSUER names an external one), the portal
 * as its relying party, the session calls and the user resource.
 */
export default fp(
  async (app) => {
    if (!app.config.oidc) {
      const provider = await createIdentityProvider(app);
      await identityPageRoutes(app, provider);
      await mountOidcProvider(app, IDP_PREFIX, provider);
    }
    await sessionRoutes(app, createRelyingParty(app));
    await userRoutes(app);
  },
  { name: 'identity', dependencies: ['session'] },
);
