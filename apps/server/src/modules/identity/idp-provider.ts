import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { FastifyInstance } from 'fastify';
import { createAdapterClass } from '../../oidc/adapter.ts';
import { loadOrCreateSigningKeys } from '../../oidc/keys.ts';
import { portalOrigins } from '../../lib/public-url.ts';
import { usersRepo } from './users-repo.ts';
import { LOCALES } from '@portico/contracts/locales';
import { errorPage, identityTexts } from './idp-pages.ts';
import { uiLocale } from '../../lib/i18n.ts';
import { requestLocale } from '../../lib/locale.ts';
import { agentConfiguration } from './agent-access.ts';

/** The built-in identity provider's issuer path and the portal's client at it. */
export const IDP_PREFIX = '/idp';
export const PORTAL_CLIENT_ID = 'portico-portal';

export function portalClientSecret(app: FastifyInstance): string {
  return app.secretBox.derive('idp-portal-client-secret');
}

/**
 * oidc-provider configured as the portal's own OpenID Provider: accounts are our users, storage is
 * our database, signing keys are generated once and kept encrypted, interaction pages are ours,
 * and the portal (a first-party client) is never asked for consent.
 */
export async function createIdentityProvider(app: FastifyInstance): Promise<Provider> {
  const users = usersRepo(app.db);
  const keys = await loadOrCreateSigningKeys(app.db, app.secretBox, 'idp');
  const origins = portalOrigins(app);
  const issuer = `${app.config.publicUrl}${IDP_PREFIX}`;
  // AI assistants (MCP clients) register themselves and get tokens for /mcp (agent-access.ts).
  const agents = agentConfiguration(app, PORTAL_CLIENT_ID);

  const configuration: Configuration = {
    adapter: createAdapterClass(app.db, 'idp'),
    // The languages of the sign-in pages (ui_locales, OIDC Discovery 3).
    discovery: { ui_locales_supported: [...LOCALES] },
    clients: [
      {
        client_id: PORTAL_CLIENT_ID,
        client_secret: portalClientSecret(app),
        redirect_uris: origins.map((o) => `${o}/oauth2/callback`),
        post_logout_redirect_uris: origins.map((o) => `${o}/`),
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, sub) {
      const user = await users.findByUuid(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            email: user.email,
            email_verified: user.email_verified,
            name: user.name,
            given_name: user.first_name ?? undefined,
            family_name: user.last_name ?? undefined,
          };
        },
      };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    extraClientMetadata: agents.extraClientMetadata,
    scopes: agents.scopes,
    cookies: { keys: [app.secretBox.derive('idp-cookie-key')] },
    jwks: { keys },
    // 'screen=signup' asks our interaction page to open on the sign-up form.
    extraParams: ['screen'],
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true },
      revocation: { enabled: true },
      ...agents.features,
    },
    pkce: { required: () => true },
    // The portal and the assistants use the code flow: advertise and serve nothing else.
    responseTypes: ['code'],
    interactions: { url: (_ctx, interaction) => `${IDP_PREFIX}/interaction/${interaction.uid}` },
    // First-party portal: grant the requested OpenID scopes without a consent screen. Any other
    // client (an assistant) has what its user allowed on the consent page, nothing more.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const client = ctx.oidc.client;
      const session = ctx.oidc.session;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      if (client.clientId !== PORTAL_CLIENT_ID) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      // The protocol's own error_description is English (RFC 6749 5.2 keeps it to ASCII).
      const locale = uiLocale(ctx.oidc?.params?.ui_locales) ?? requestLocale(ctx.req);
      ctx.body = errorPage(
        locale,
        'signInProblemTitle',
        String(out.error_description ?? out.error ?? identityTexts(locale)('requestNotProcessed')),
        app.config.publicUrl + '/',
      );
    },
  };
  const provider = new Provider(issuer, configuration);
  // Behind a TLS-terminating proxy the provider must trust X-Forwarded-Proto to build https URLs.
  provider.proxy = app.config.trustProxy;
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'identity provider error'));
  return provider;
}
