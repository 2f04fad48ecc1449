import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { isAllowedRedirectUri } from '@portico/contracts/redirect-uri';
import { fromRow as authenticationFromRow, type ClientAuthentication } from './client-auth.ts';
import type { DynamicRegistrar } from './registration.ts';
import { clientSecretsRepo, sameSecret } from './secret-rotation.ts';

/**
 * The API authorization server's clients, kept in `oauth_clients`. oidc-provider reads this table
 * on every lookup (see provider.ts), so a new client, a changed redirect URI or a reset secret
 * takes effect at once. Secrets are stored sealed with the secret box.
 */
export type ClientEnvironment = 'DEVELOPMENT' | 'PRODUCTION';
export type ClientGrantType = 'authorization_code' | 'client_credentials';

export const GRANT_TYPES: readonly ClientGrantType[] = ['authorization_code', 'client_credentials'];

export interface CreateClientInput {
  applicationUuid?: string | null;
  environment: ClientEnvironment;
  grantTypes: ClientGrantType[];
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  /** A public client has no secret and must use PKCE (default: confidential). */
  public?: boolean;
  /** Scopes granted to the client directly (clients without an application, tests). */
  scopes?: string[];
  /** The id and secret the authorization server already answered with (dynamic registration). */
  issued?: { clientId: string; secret: string | null };
}

export interface UpdateClientInput {
  grantTypes?: ClientGrantType[];
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  /** Replaces the directly granted scopes when given. */
  scopes?: string[];
}

export interface OauthClient {
  clientId: string;
  applicationUuid: string | null;
  environment: ClientEnvironment;
  grantTypes: ClientGrantType[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  isPublic: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What a scope resolver learns about the client it is asked about. */
export interface ScopeResolverClient {
  clientId: string;
  applicationUuid: string | null;
  environment: ClientEnvironment;
}

/**
 * Returns extra scopes a client may use, e.g. the applications module: the scopes of the products
 * the application is subscribed to (`scope` for DEVELOPMENT, `scope_production` for PRODUCTION).
 */
export type ScopeResolver = (client: ScopeResolverClient, db: Db) => Promise<readonly string[]>;

/**
 * Says why a client may not be used right now (a refusal text), or null: e.g. the applications
 * module refuses the clients of an application whose creator an administrator blocked (issue 27).
 * Consulted by the token endpoint on every client lookup and by the gateway (cached like scopes).
 */
export type ClientGate = (client: ScopeResolverClient, db: Db) => Promise<string | null>;

/**
 * Explains why a requested scope outside the allowed ones is refused (the `invalid_scope`
 * error_description), or null to leave the generic description (e.g. the PSD2 roles, issue 28).
 */
export type ScopeExplainer = (client: ScopeResolverClient, scope: string, db: Db) => Promise<string | null>;

export class ClientInputError extends Error {
  override name = 'ClientInputError';
}

const newClientId = () => randomBytes(16).toString('hex');
const newSecret = () => randomBytes(32).toString('base64url');

function checkUris(uris: readonly string[], what: string): void {
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      throw new ClientInputError(`${what} '${uri}' is not an absolute URL`);
    }
    if (url.hash) throw new ClientInputError(`${what} '${uri}' must not contain a fragment`);
    if (!isAllowedRedirectUri(uri))
      throw new ClientInputError(
        `${what} '${uri}' must be https, http on a loopback host, or a private-use scheme (RFC 8252)`,
      );
  }
}

function checkInput(grantTypes: readonly string[], redirectUris: readonly string[]): void {
  if (!grantTypes.length) throw new ClientInputError('at least one grant type is required');
  for (const g of grantTypes) {
    if (!GRANT_TYPES.includes(g as ClientGrantType))
      throw new ClientInputError(`unsupported grant type '${g}'`);
  }
  if (grantTypes.includes('authorization_code') && !redirectUris.length) {
    throw new ClientInputError('the authorization_code grant needs at least one redirect URI');
  }
}

function toClient(row: {
  client_id: string;
  secret: string | null;
  application_uuid: string | null;
  environment: ClientEnvironment;
  grant_types: string[];
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  created_at: Date;
  updated_at: Date;
}): OauthClient {
  return {
    clientId: row.client_id,
    applicationUuid: row.application_uuid,
    environment: row.environment,
    grantTypes: row.grant_types as ClientGrantType[],
    redirectUris: row.redirect_uris,
    postLogoutRedirectUris: row.post_logout_redirect_uris,
    isPublic: row.secret === null,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Client operations on a database handle or a transaction: the applications module creates an
 * application's clients in the same transaction as the application.
 */
export function oauthClientsRepo(db: Db, box: SecretBox) {
  return {
    async createClient(input: CreateClientInput): Promise<{ clientId: string; clientSecret: string | null }> {
      const redirectUris = input.redirectUris ?? [];
      const postLogoutRedirectUris = input.postLogoutRedirectUris ?? [];
      checkInput(input.grantTypes, redirectUris);
      checkUris(redirectUris, 'redirect URI');
      checkUris(postLogoutRedirectUris, 'post-logout redirect URI');
      const clientId = input.issued?.clientId ?? newClientId();
      const clientSecret = input.issued ? input.issued.secret : input.public ? null : newSecret();
      const sealed = clientSecret === null ? null : box.encrypt(clientSecret);
      await db
        .insertInto('oauth_clients')
        .values({
          client_id: clientId,
          secret: sealed,
          application_uuid: input.applicationUuid ?? null,
          environment: input.environment,
          grant_types: [...new Set(input.grantTypes)],
          redirect_uris: [...new Set(redirectUris)],
          post_logout_redirect_uris: [...new Set(postLogoutRedirectUris)],
        })
        .execute();
      if (sealed !== null) await clientSecretsRepo(db, box).replaceAll(clientId, sealed);
      const scopes = [...new Set(input.scopes ?? [])];
      if (scopes.length) {
        await db
          .insertInto('oauth_client_scopes')
          .values(scopes.map((scope) => ({ client_id: clientId, scope })))
          .execute();
      }
      return { clientId, clientSecret };
    },

    async getClient(clientId: string): Promise<OauthClient | undefined> {
      const row = await db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return row ? toClient(row) : undefined;
    },

    async findByApplication(applicationUuid: string): Promise<OauthClient[]> {
      const rows = await db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('application_uuid', '=', applicationUuid)
        .orderBy('environment')
        .execute();
      return rows.map(toClient);
    },

    /** Returns false when the client does not exist. */
    async updateClient(clientId: string, input: UpdateClientInput): Promise<boolean> {
      const current = await this.getClient(clientId);
      if (!current) return false;
      const grantTypes = input.grantTypes ?? current.grantTypes;
      const redirectUris = input.redirectUris ?? current.redirectUris;
      const postLogout = input.postLogoutRedirectUris ?? current.postLogoutRedirectUris;
      checkInput(grantTypes, redirectUris);
      checkUris(redirectUris, 'redirect URI');
      checkUris(postLogout, 'post-logout redirect URI');
      await db
        .updateTable('oauth_clients')
        .set({
          grant_types: [...new Set(grantTypes)],
          redirect_uris: [...new Set(redirectUris)],
          post_logout_redirect_uris: [...new Set(postLogout)],
          updated_at: new Date(),
        })
        .where('client_id', '=', clientId)
        .execute();
      if (input.scopes) {
        await db.deleteFrom('oauth_client_scopes').where('client_id', '=', clientId).execute();
        const scopes = [...new Set(input.scopes)];
        if (scopes.length) {
          await db
            .insertInto('oauth_client_scopes')
            .values(scopes.map((scope) => ({ client_id: clientId, scope })))
            .execute();
        }
      }
      return true;
    },

    /**
     * A new secret; every old one (the current and the rotated ones, secret-rotation.ts) stops
     * working at once. Undefined when the client does not exist.
     */
    async resetSecret(clientId: string): Promise<string | undefined> {
      const secret = newSecret();
      const sealed = box.encrypt(secret);
      const updated = await db
        .updateTable('oauth_clients')
        .set({ secret: sealed, updated_at: new Date() })
        .where('client_id', '=', clientId)
        .returning('client_id')
        .executeTakeFirst();
      if (updated) await clientSecretsRepo(db, box).replaceAll(clientId, sealed);
      return updated ? secret : undefined;
    },

    /**
     * Whether `presented` is a secret the client may use now: the current one or a rotated one
     * before its expiry and unrevoked (secret-rotation.ts). The sandbox's HTTP Basic check.
     */
    async secretAccepted(clientId: string, presented: string): Promise<boolean> {
      const current = await this.getClientSecret(clientId);
      if (current !== undefined && sameSecret(current, presented)) return true;
      return (await clientSecretsRepo(db, box).match(clientId, presented)).state === 'valid';
    },

    /** The decrypted secret, for display to the application's authorised members only. */
    async getClientSecret(clientId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('oauth_clients')
        .select('secret')
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return row?.secret ? box.decrypt(row.secret) : undefined;
    },

    /** Deletes the client, its scopes and every token, code and grant issued to it. */
    async deleteClient(clientId: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom('oauth_clients')
        .where('client_id', '=', clientId)
        .returning('client_id')
        .executeTakeFirst();
      if (!deleted) return false;
      await db
        .deleteFrom('oidc_payloads')
        .where('model', 'like', 'oauth:%')
        .where((eb) => eb(eb.ref('payload', '->>').key('clientId'), '=', clientId))
        .execute();
      return true;
    },

    /** Scopes granted to the client directly (`oauth_client_scopes`). */
    async directScopes(clientId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('oauth_client_scopes')
        .select('scope')
        .where('client_id', '=', clientId)
        .orderBy('scope')
        .execute();
      return rows.map((r) => r.scope);
    },

    /** The client's stored secret in the form oidc-provider needs (plain), or undefined. */
    /**
     * The client as oidc-provider needs it, from its one row: the secret in clear, its
     * authentication method (client-auth.ts) and its sender constraints (dpop.ts).
     */
    async findForProvider(clientId: string): Promise<ProviderClient | undefined> {
      const row = await db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        ...toClient(row),
        secret: row.secret ? box.decrypt(row.secret) : null,
        authentication: authenticationFromRow(row),
        tokenSecurity: { dpopBoundAccessTokens: row.dpop_bound_access_tokens, fapi: row.fapi },
      };
    },
  };
}

export type OauthClientsRepo = ReturnType<typeof oauthClientsRepo>;

/** What the authorization server reads of a client on every lookup (provider.ts). */
export interface ProviderClient extends OauthClient {
  secret: string | null;
  authentication: ClientAuthentication;
  tokenSecurity: { dpopBoundAccessTokens: boolean; fapi: boolean };
}

/**
 * The change counters (decision 018, db/data-versions.ts) a client's access is computed from: its
 * client rows, scopes, application and subscriptions (`applications`), its products' scopes
 * (`catalog`) and its creator's account, blocked or not (`identity`). A cached answer holds while
 * these are unchanged: a change committed on any instance is seen by the next request on every one.
 */
export const ACCESS_DOMAINS = ['applications', 'catalog', 'identity'] as const;

/** How long an answer may be trusted without the counters (a service made with no `versions`). */
export const ALLOWED_SCOPES_CACHE_MS = 5_000;

/**
 * The app-wide client service: the repository on the app's database, the pluggable scope
 * resolvers, and `allowedScopes` = direct scopes UNION every resolver's scopes. `versions` reads
 * the change counters (`app.dataVersions.read`: one coalesced read shared by the requests
 * waiting for it); without it (tests of the service alone) answers are cached for
 * ALLOWED_SCOPES_CACHE_MS.
 */
export function createClientService(
  db: Db,
  box: SecretBox,
  versions?: () => Promise<ReadonlyMap<string, string>>,
) {
  const repo = oauthClientsRepo(db, box);
  const resolvers: ScopeResolver[] = [];
  const gates: ClientGate[] = [];
  let registrar: DynamicRegistrar | null = null;
  const explainers: ScopeExplainer[] = [];
  const cache = new Map<string, { at: number; stamp: string; value: Promise<ClientAccess | undefined> }>();
  /** The counters an answer depends on, as one string ('' without `versions`). */
  const stampNow = async (given?: ReadonlyMap<string, string>): Promise<string> => {
    if (!versions) return '';
    const current = given ?? (await versions());
    return ACCESS_DOMAINS.map((d) => current.get(d) ?? '').join(':');
  };

  async function computeAccess(clientId: string): Promise<ClientAccess | undefined> {
    const client = await repo.getClient(clientId);
    if (!client) return undefined;
    const scopes = new Set(await repo.directScopes(clientId));
    const info: ScopeResolverClient = {
      clientId,
      applicationUuid: client.applicationUuid,
      environment: client.environment,
    };
    for (const resolve of resolvers) {
      for (const scope of await resolve(info, db)) if (scope) scopes.add(scope);
    }
    return { ...info, scopes: [...scopes].sort(), refused: await refusal(info) };
  }

  async function refusal(client: ScopeResolverClient): Promise<string | null> {
    for (const gate of gates) {
      const reason = await gate(client, db);
      if (reason) return reason;
    }
    return null;
  }

  return {
    ...repo,
    /** Adds a source of allowed scopes (e.g. subscriptions); consulted on every uncached lookup. */
    registerScopeResolver(resolver: ScopeResolver): void {
      resolvers.push(resolver);
    },
    /** Adds a check that may refuse a client (see ClientGate); consulted on every uncached lookup. */
    registerClientGate(gate: ClientGate): void {
      gates.push(gate);
    },
    /** Sets who stores dynamically registered clients (the applications module). */
    registerDynamicRegistrar(value: DynamicRegistrar): void {
      registrar = value;
    },
    /** Who stores dynamically registered clients, or null when nobody registered (tests). */
    dynamicRegistrar(): DynamicRegistrar | null {
      return registrar;
    },
    /** Adds an explanation of refused scopes (see ScopeExplainer). */
    registerScopeExplainer(explainer: ScopeExplainer): void {
      explainers.push(explainer);
    },
    /** Why the client may not have `scope` (uncached), or null when no explainer knows. */
    async explainScope(clientId: string, scope: string): Promise<string | null> {
      const client = await repo.getClient(clientId);
      if (!client) return null;
      const info = { clientId, applicationUuid: client.applicationUuid, environment: client.environment };
      for (const explain of explainers) {
        const reason = await explain(info, scope, db);
        if (reason) return reason;
      }
      return null;
    },
    /** Why the client may not be used now (uncached), or null. */
    refusal,
    /** Every scope the client may request and use right now (uncached). */
    async allowedScopes(clientId: string): Promise<string[]> {
      return (await computeAccess(clientId))?.scopes ?? [];
    },
    /**
     * The client's environment, application and allowed scopes: the gateway calls this on every
     * request. Cached while the counters of ACCESS_DOMAINS are unchanged (read after the call
     * began: a block, an unsubscription or a removed scope committed on any instance is seen at
     * once), or for ALLOWED_SCOPES_CACHE_MS without `versions`. `current`: the counters the
     * caller already read after its request arrived (`app.dataVersions.forRequest`), so that one
     * request costs at most one read of them.
     */
    async clientAccess(
      clientId: string,
      current?: ReadonlyMap<string, string>,
    ): Promise<ClientAccess | undefined> {
      const stamp = await stampNow(current);
      const now = Date.now();
      const hit = cache.get(clientId);
      if (hit && hit.stamp === stamp && (versions || now - hit.at < ALLOWED_SCOPES_CACHE_MS))
        return hit.value;
      // Computed after the counters were read: a change committed meanwhile raises them again, and
      // the next call computes anew.
      const value = computeAccess(clientId);
      value.catch(() => cache.delete(clientId));
      if (cache.size > 10_000) cache.clear();
      cache.set(clientId, { at: now, stamp, value });
      return value;
    },
    /** Forgets cached access (tests; after a change that must apply before the cache expires). */
    clearAccessCache(clientId?: string): void {
      if (clientId === undefined) cache.clear();
      else cache.delete(clientId);
    },
  };
}

export interface ClientAccess extends ScopeResolverClient {
  scopes: string[];
  /** Why the client is refused now (a ClientGate's answer), or null. */
  refused: string | null;
}

export type ClientService = ReturnType<typeof createClientService>;
