import { REDOC_CALLBACK_PATH } from '@portico/contracts/constants';
import Provider, {
  errors,
  type Adapter,
  type AdapterPayload,
  type ClientMetadata,
  type Configuration,
  type KoaContextWithOIDC,
  type ResourceServer,
} from 'oidc-provider';
import type { FastifyInstance } from 'fastify';
import type { JWK } from 'jose';
import { createAdapterClass } from '../oidc/adapter.ts';
import { isStorableText } from '../lib/storable-text.ts';
import { loadOrCreateSigningKeys } from '../oidc/keys.ts';
import { clientAuthConfiguration, refuseRevokedCertificates, withClientAuth } from './client-auth.ts';
import type { ClientService } from './clients.ts';
import * as senderConstraints from './dpop.ts';
import { LOCALES } from '@portico/contracts/locales';
import { sandboxErrorPage, sandboxTexts } from './pages.ts';
import { uiLocale } from '../lib/i18n.ts';
import { requestLocale } from '../lib/locale.ts';
import {
  acceptSignedRegistrations,
  createStatementSigner,
  registrationConfiguration,
  storeRegisteredClient,
  type StatementSigner,
} from './registration.ts';
import { sandboxUsersRepo } from './sandbox-users.ts';
import { grantClaim, refuseRevokedConsent } from './scripted-customers.ts';
import { acceptRotatedSecrets } from './secret-rotation.ts';

/** The API authorization server's path, adapter tag and signing-key tag. */
export const OAUTH_PREFIX = '/oauth';
export const OAUTH_TAG = 'oauth';
/** Access tokens live one hour; refresh tokens and grants two weeks. */
export const ACCESS_TOKEN_TTL = 3600;
const LONG_TTL = 14 * 24 * 3600;

/** Scopes of the OpenID/OAuth layer itself (the customer's identity), never API scopes. */
const PROTOCOL_SCOPES = new Set(['openid', 'offline_access', 'profile', 'email']);

export const oauthIssuer = (app: FastifyInstance): string => `${app.config.publicUrl}${OAUTH_PREFIX}`;
/** The one resource (audience) of every access token: the sandbox gateway. */
export const sandboxResource = (app: FastifyInstance): string => `${app.config.publicUrl}/sandbox`;

/** Client metadata in oidc-provider's form, read from `oauth_clients` on every lookup. */
async function clientMetadata(
  clients: ClientService,
  clientId: string,
  consoleRedirectUri: string,
): Promise<ClientMetadata | undefined> {
  // The provider reads its form bodies itself, unchecked: a client id that PostgreSQL cannot hold
  // names no client.
  if (!isStorableText(clientId)) return undefined;
  const client = await clients.findForProvider(clientId);
  if (!client) return undefined;
  // A refused client (its application's creator is blocked, issue 27) is unknown to the provider:
  // no token, no refresh, no authorization (invalid_client).
  if (await clients.refusal(client)) return undefined;
  const code = client.grantTypes.includes('authorization_code');
  const grantTypes: string[] = [...client.grantTypes];
  // Refresh tokens come with the authorization_code grant (rotated on every use).
  if (code) grantTypes.push('refresh_token');
  // Apps on devices redirect to a custom scheme ('com.bank.app:/callback'): a native client.
  const native = client.redirectUris.some((uri) => !/^https?:/i.test(uri));
  // The try-out console (issue 12) signs sandbox customers in through its own callback page with
  // any DEVELOPMENT client of the authorization_code grant, whatever URIs the application lists
  // (decision 020). A native client keeps its own URIs only (its application type forbids https
  // redirects to another host anyway).
  const redirectUris =
    code &&
    !native &&
    client.environment === 'DEVELOPMENT' &&
    !client.redirectUris.includes(consoleRedirectUri)
      ? [...client.redirectUris, consoleRedirectUri]
      : client.redirectUris;
  const base: ClientMetadata = {
    client_id: client.clientId,
    application_type: native ? 'native' : 'web',
    ...(client.secret === null
      ? { token_endpoint_auth_method: 'none' }
      : { client_secret: client.secret, token_endpoint_auth_method: 'client_secret_basic' }),
    grant_types: grantTypes,
    response_types: code ? ['code'] : [],
    redirect_uris: redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
  };
  // The client's authentication method (client-auth.ts), then DPoP-bound tokens and FAPI 2.0
  // (dpop.ts), which read the method: all from the row read above.
  return senderConstraints.withSenderConstraints(
    withClientAuth(base, client.authentication),
    client.tokenSecurity,
  );
}

/**
 * oidc-provider's storage: every model in oidc_payloads under the 'oauth' tag, except clients,
 * which come from our own `oauth_clients` table (so a reset secret applies at once).
 */
function createOauthAdapterClass(
  app: FastifyInstance,
  clients: ClientService,
  signer: StatementSigner,
): new (name: string) => Adapter {
  const Base = createAdapterClass(app.db, OAUTH_TAG);
  const consoleRedirectUri = `${app.config.publicUrl}/${REDOC_CALLBACK_PATH}`;
  return class OauthAdapter implements Adapter {
    readonly inner: Adapter;
    readonly isClient: boolean;
    constructor(name: string) {
      this.inner = new Base(name);
      this.isClient = name === 'Client';
    }
    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      // Clients live in the portal's tables: a dynamic registration or an RFC 7592 update becomes
      // an application of the software statement's organization (registration.ts).
      if (this.isClient) {
        const exists = (await clients.getClient(id)) !== undefined;
        const ctx = Provider.ctx;
        await storeRegisteredClient(
          clients.dynamicRegistrar(),
          signer,
          id,
          { ...payload },
          ctx,
          exists,
          [consoleRedirectUri],
          app.config.nodeEnv,
        );
        return;
      }
      return this.inner.upsert(id, payload, expiresIn);
    }
    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.isClient) {
        return (await clientMetadata(clients, id, consoleRedirectUri)) as AdapterPayload | undefined;
      }
      return (await this.inner.find(id)) ?? undefined;
    }
    findByUserCode(userCode: string) {
      return this.inner.findByUserCode(userCode);
    }
    findByUid(uid: string) {
      return this.inner.findByUid(uid);
    }
    consume(id: string) {
      return this.inner.consume(id);
    }
    async destroy(id: string) {
      // Only an RFC 7592 delete destroys a client: the registered application goes with it.
      if (this.isClient) {
        await clients.dynamicRegistrar()?.remove(id, Provider.ctx?.ip ?? '');
        return;
      }
      return this.inner.destroy(id);
    }
    revokeByGrantId(grantId: string) {
      return this.inner.revokeByGrantId(grantId);
    }
  };
}

type ExtraClientMetadata = NonNullable<Configuration['extraClientMetadata']>;

/** Several modules' extra client metadata as one: every property, every validator in turn. */
function combinedClientMetadata(parts: (ExtraClientMetadata | undefined)[]): ExtraClientMetadata {
  const present = parts.filter((p): p is ExtraClientMetadata => p !== undefined);
  return {
    properties: present.flatMap((p) => [...(p.properties ?? [])]),
    validator(ctx, key, value, metadata) {
      for (const part of present) {
        if (part.properties?.includes(key)) part.validator?.(ctx, key, value, metadata);
      }
    },
  };
}

/** The signing keys' public halves: what the gateway verifies access tokens with. */
export function publicJwks(keys: JWK[]): JWK[] {
  return keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) => {
    const pub: JWK = { kty };
    Object.assign(pub, { n, e, crv, x, y, kid, alg, use });
    for (const k of Object.keys(pub) as (keyof JWK)[]) if (pub[k] === undefined) delete pub[k];
    return pub;
  });
}

/**
 * The API authorization server: a second oidc-provider issuer at /oauth whose clients are the
 * portal's applications and whose end users are the sandbox bank customers. Grants:
 * client_credentials, and authorization_code with PKCE (required for public clients) plus rotated
 * refresh tokens. Access tokens are JWTs for the single resource `${publicUrl}/sandbox`, scoped to
 * what `allowedScopes(client)` permits at issue time.
 */
export async function createAuthorizationServer(
  app: FastifyInstance,
  clients: ClientService,
): Promise<{ provider: Provider; keys: JWK[]; statements: StatementSigner }> {
  const keys = await loadOrCreateSigningKeys(app.db, app.secretBox, OAUTH_TAG);
  const statements = await createStatementSigner(app.db, app.secretBox, app.config.publicUrl);
  // The try-out console's callback is the portal's, added to development clients: never a TPP's.
  const registration = registrationConfiguration(
    [`${app.config.publicUrl}/${REDOC_CALLBACK_PATH}`],
    app.config.nodeEnv,
  );
  const customers = sandboxUsersRepo(app.db);
  const resource = sandboxResource(app);

  async function getResourceServerInfo(
    ctx: KoaContextWithOIDC,
    indicator: string,
    client: { clientId: string },
  ): Promise<ResourceServer> {
    if (indicator !== resource) throw new errors.InvalidTarget(`unknown resource; use ${resource}`);
    const allowed = await clients.allowedScopes(client.clientId);
    const params = ctx.oidc.params as Record<string, unknown> | undefined;
    const requested = typeof params?.scope === 'string' ? params.scope.split(' ').filter(Boolean) : [];
    const apiScopes = requested.filter((s) => !PROTOCOL_SCOPES.has(s));
    const refused = apiScopes.find((s) => !allowed.includes(s));
    if (refused !== undefined)
      throw new errors.InvalidScope(
        (await clients.explainScope(client.clientId, refused)) ?? 'requested scope is not allowed',
        refused,
      );
    // An omitted scope means every allowed scope (authorization request, client_credentials).
    const defaults =
      ctx.oidc.route === 'authorization' ||
      (ctx.oidc.route === 'token' && params?.grant_type === 'client_credentials');
    if (params && defaults && !apiScopes.length && allowed.length) {
      params.scope = [...requested, ...allowed].join(' ');
    }
    return {
      scope: allowed.join(' '),
      audience: resource,
      accessTokenTTL: ACCESS_TOKEN_TTL,
      accessTokenFormat: 'jwt',
      jwt: { sign: { alg: 'RS256' } },
    };
  }

  // Client authentication methods, mutual TLS and its discovery aliases (issue 28): client-auth.ts.
  const { clientAuthMethods, mTLS, discovery, fetch } = clientAuthConfiguration(app.config);
  const configuration: Configuration = {
    clientAuthMethods,
    // The languages of the sign-in and consent pages (ui_locales, OIDC Discovery 3).
    discovery: { ...discovery, ui_locales_supported: [...LOCALES] },
    fetch,
    adapter: createOauthAdapterClass(app, clients, statements),
    clients: [],
    // Extra client metadata: the FAPI flag (dpop.ts) and the software statement's members
    // (registration.ts), each property checked by its own validator.
    extraClientMetadata: combinedClientMetadata([
      senderConstraints.senderConstraintConfiguration.extraClientMetadata,
      registration.extraClientMetadata,
    ]),
    async findAccount(ctx, sub, token) {
      const customer = await customers.findByUuid(sub);
      if (!customer) return undefined;
      await refuseRevokedConsent(ctx, customer, token); // scripted customers (issue 28)
      return {
        accountId: sub,
        async claims() {
          return { sub, name: customer.name, email: customer.email ?? undefined };
        },
      };
    },
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    // A customer's tokens name their grant: the sandbox refuses them once it is revoked (issue 28).
    extraTokenClaims: (_ctx, token) => grantClaim(token),
    cookies: {
      keys: [app.secretBox.derive('oauth-cookie-key')],
      // Distinct from the identity provider's cookies (same host, different issuer).
      names: {
        session: '_oauth_session',
        interaction: '_oauth_interaction',
        resume: '_oauth_interaction_resume',
      },
    },
    jwks: { keys },
    // Clients get the code flow only (clientMetadata): discovery advertises nothing else, no
    // implicit or id_token response types it would then refuse.
    responseTypes: ['code'],
    features: {
      devInteractions: { enabled: false },
      mTLS,
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      // Tokens are for the sandbox, not for a userinfo endpoint: an 'openid' scope must not turn
      // the access token into an opaque userinfo token.
      userinfo: { enabled: false },
      ...registration.features,
      ...senderConstraints.senderConstraintFeatures,
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo,
      },
    },
    // Browsers calling the token endpoint: the portal's own pages (the try-out console, decision
    // 020) and the origins of the client's own redirect URIs (single-page applications).
    clientBasedCORS(_ctx, origin, client) {
      if (origin === new URL(app.config.publicUrl).origin) return true;
      return (client.redirectUris ?? []).some((uri) => {
        try {
          return new URL(uri).origin === origin;
        } catch {
          return false;
        }
      });
    },
    pkce: { required: senderConstraints.pkceRequired },
    async issueRefreshToken(_ctx, client, code) {
      // Rotation (rotateRefreshToken) renews refresh tokens; only a code exchange issues the first.
      return client.grantTypeAllowed('refresh_token') && code.kind === 'AuthorizationCode';
    },
    rotateRefreshToken: senderConstraints.rotateRefreshToken,
    interactions: { url: (_ctx, interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
    ttl: {
      // FAPI 2.0 clients' access tokens are shorter (dpop.ts).
      AccessToken: senderConstraints.accessTokenTtl(ACCESS_TOKEN_TTL),
      ClientCredentials: senderConstraints.accessTokenTtl(ACCESS_TOKEN_TTL),
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: LONG_TTL,
      Session: LONG_TTL,
      Grant: LONG_TTL,
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      // The protocol's own error_description is English (RFC 6749 5.2 keeps it to ASCII).
      const locale = uiLocale(ctx.oidc?.params?.ui_locales) ?? requestLocale(ctx.req);
      ctx.body = sandboxErrorPage(
        locale,
        'authorizationProblemTitle',
        String(out.error_description ?? out.error ?? sandboxTexts(locale)('requestNotProcessed')),
      );
    },
  };
  const provider = new Provider(oauthIssuer(app), configuration);
  provider.proxy = app.config.trustProxy;
  acceptRotatedSecrets(provider, app.db, app.secretBox);
  // A DPoP-bound client without a proof is told so (dpop.ts); signed registration requests, the
  // UK Open Banking shape, are verified and handed on as JSON (registration.ts).
  senderConstraints.explainMissingDpop(provider);
  // A revoked sandbox certificate gets no token (certificate-trust.ts).
  refuseRevokedCertificates(provider, app.config, () => app.certificateTrust);
  acceptSignedRegistrations(
    provider,
    statements,
    async (softwareId) => {
      const dev = (await clients.findByApplication(softwareId)).find((c) => c.environment === 'DEVELOPMENT');
      return dev ? (await clients.findForProvider(dev.clientId))?.authentication : undefined;
    },
    oauthIssuer(app),
    app.config.nodeEnv,
  );
  provider.on('server_error', (_ctx, err) => app.log.error({ err }, 'authorization server error'));
  return { provider, keys, statements };
}
