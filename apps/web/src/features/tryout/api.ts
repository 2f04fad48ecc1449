import { useQuery } from '@tanstack/react-query';
import type { TryoutHistoryItem } from '../../lib/store';
import { apiRequest, apiUrl } from '../../lib/api-client';
import { fetchMyApplications } from '../../lib/applications-api';
import { REDOC_CALLBACK_PATH } from '@portico/contracts/constants';
import type { TokenSecurity } from '@portico/contracts/token-security';

/**
 * The try-out console's calls: the stored history (apps/server/src/modules/tryout/README.md), the
 * signed-in user's applications (their client ids), the authorization server's token endpoint and
 * /secret/reset (spec B 7). Secrets pass through here and are kept by nobody.
 */

/** The parts of an application the token panel needs (GET /phpsdk/organization/apps). */
export interface TryoutApp {
  uuid: string;
  title: string;
  allowedGrantTypes: string[];
  clientId: { development: string | null; production: string | null };
  subscriptions: { apiEndpoints: { alias: string }[] }[];
  permissions: { update: boolean };
  /** How its clients authenticate (issue 28): a signed JWT or mutual TLS cannot be done here. */
  clientAuthentication?: { method: string } | undefined;
}

export const tryoutKeys = {
  apps: ['tryout', 'applications'] as const,
  history: (documentationId: string) => ['tryout', 'history', documentationId] as const,
};

/** Every application of the signed-in user, refetched each time the console opens. */
export function useTryoutApps(enabled: boolean) {
  return useQuery({
    queryKey: tryoutKeys.apps,
    queryFn: (): Promise<TryoutApp[]> => fetchMyApplications(),
    enabled,
    staleTime: 0,
  });
}

const trimSlashes = (alias: string) => alias.replace(/^\/+|\/+$/g, '').toLowerCase();

/** The applications subscribed to a product that documents this API. */
export function subscribedTo(apps: readonly TryoutApp[], documentationAlias: string): TryoutApp[] {
  const wanted = trimSlashes(documentationAlias);
  return apps.filter(
    (app) =>
      app.clientId.development !== null &&
      app.subscriptions.some((s) => s.apiEndpoints.some((e) => trimSlashes(e.alias) === wanted)),
  );
}

export function fetchServerHistory(documentationId: string): Promise<TryoutHistoryItem[]> {
  return apiRequest<{ data: TryoutHistoryItem[] }>('/api/tryout/history', {
    format: 'json',
    query: { documentationId },
  }).then((r) => r.data);
}

export function saveServerHistory(item: TryoutHistoryItem): Promise<unknown> {
  return apiRequest(`/api/tryout/history/${item.uuid}`, { method: 'PUT', format: 'json', body: item });
}

export function deleteServerHistory(uuid: string): Promise<unknown> {
  return apiRequest(`/api/tryout/history/${uuid}`, { method: 'DELETE', format: 'json' });
}

export function deleteAllServerHistory(documentationId: string): Promise<unknown> {
  return apiRequest('/api/tryout/history', { method: 'DELETE', format: 'json', query: { documentationId } });
}

/** The portal's own addresses, under its base path. */
export function portalUrl(path: string): string {
  return `${window.location.origin}${import.meta.env.BASE_URL}${path.replace(/^\//, '')}`;
}

export const redocCallbackUrl = (): string => portalUrl(REDOC_CALLBACK_PATH);

export interface TokenAnswer {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
  refresh_token?: string;
}

export class OAuthError extends Error {
  readonly description: string | null;
  constructor(description: string | null) {
    super(description ?? 'token request failed');
    this.description = description;
  }
}

/**
 * POST to the authorization server's token endpoint, form-encoded (spec B 7): client_id,
 * client_secret, grant_type, scope, code, redirect_uri (and the PKCE verifier).
 */
export async function requestToken(
  fields: Record<string, string>,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<TokenAnswer> {
  let res: Response;
  try {
    res = await fetch(apiUrl('/oauth/token'), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
      credentials: 'omit',
      ...(signal ? { signal } : {}),
    });
  } catch {
    throw new OAuthError(null);
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !body || typeof body.access_token !== 'string') {
    const error = typeof body?.error === 'string' ? body.error : null;
    const description = typeof body?.error_description === 'string' ? body.error_description : null;
    throw new OAuthError(error ? (description ? `${error}: ${description}` : error) : null);
  }
  return body as unknown as TokenAnswer;
}

/** An application's token security (issue 28): whether its tokens must be DPoP-bound. */
export function useTokenSecurity(application: string | undefined) {
  return useQuery({
    queryKey: ['tryout', 'token-security', application] as const,
    queryFn: () =>
      apiRequest<{ data: TokenSecurity }>(`/api/applications/${application}/token-security`, {
        format: 'json',
      }).then((r) => r.data),
    enabled: application !== undefined,
  });
}

/** The token endpoint's URL, as a DPoP proof names it (htu). */
export const tokenEndpointUrl = (): string => new URL(apiUrl('/oauth/token'), window.location.href).href;

/** POST /secret/reset: a new DEVELOPMENT secret, shown once. */
export function resetDevelopmentSecret(application: string): Promise<{ secret: string; clientId: string }> {
  return apiRequest<{ secret: string; clientId: string }>('/secret/reset', {
    method: 'POST',
    format: 'json',
    body: { application, environment: 'DEVELOPMENT' },
  });
}

/** PKCE (RFC 7636): a random verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const verifier = base64url(bytes);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge: base64url(digest) };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
