import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';

/** The cloud document viewer's settings (GET /phpsdk/cloud-documents/config). */
export type CloudDocsConfig =
  | { enabled: false }
  | { enabled: true; clientId: string; authUrl: string; apiUrl: string; pdfUrl: string; scopes: string[] };

export function useCloudDocsConfig(enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['cloud-docs-config'],
    queryFn: () => apiRequest<CloudDocsConfig>('/phpsdk/cloud-documents/config', { format: 'json' }),
    staleTime: 10 * 60_000,
  });
}

/** The callback route the Google client must list as a redirect URI. */
export const CLOUD_DOCS_CALLBACK = '/google-doc/callback';
const TOKEN_KEY = 'portico.cloudDocs.token';
const STATE_KEY = 'portico.cloudDocs.state';

/** The access token from 'AUTHENTICATE WITH GOOGLE', kept for this tab until it expires. */
export function storedToken(): string | undefined {
  try {
    const raw = sessionStorage.getItem(TOKEN_KEY);
    if (!raw) return undefined;
    const { token, expires } = JSON.parse(raw) as { token: string; expires: number };
    return Date.now() < expires ? token : undefined;
  } catch {
    return undefined;
  }
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Starts Google's OAuth 2 token flow; the callback route comes back to `returnTo`. */
export function authenticate(config: Extract<CloudDocsConfig, { enabled: true }>, returnTo: string): void {
  const state = crypto.randomUUID();
  sessionStorage.setItem(STATE_KEY, JSON.stringify({ state, returnTo }));
  const url = new URL(config.authUrl);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', `${window.location.origin}${CLOUD_DOCS_CALLBACK}`);
  url.searchParams.set('response_type', 'token');
  url.searchParams.set('scope', config.scopes.join(' '));
  url.searchParams.set('include_granted_scopes', 'true');
  url.searchParams.set('state', state);
  window.location.assign(url.toString());
}

/**
 * Completes the flow from the callback's fragment: checks the state, keeps the token and returns
 * where to go next (or an error message).
 */
export function completeAuthentication(hash: string): { returnTo: string; error?: string } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  let saved: { state: string; returnTo: string } | undefined;
  try {
    saved = JSON.parse(sessionStorage.getItem(STATE_KEY) ?? 'null') as typeof saved;
  } catch {
    saved = undefined;
  }
  sessionStorage.removeItem(STATE_KEY);
  const returnTo =
    saved?.returnTo?.startsWith('/') && !saved.returnTo.startsWith('//') ? saved.returnTo : '/';
  if (params.get('error'))
    return { returnTo, error: params.get('error_description') ?? params.get('error')! };
  const token = params.get('access_token');
  if (!saved || params.get('state') !== saved.state || !token) return { returnTo, error: 'invalid_state' };
  const seconds = Number(params.get('expires_in') ?? '3600');
  sessionStorage.setItem(
    TOKEN_KEY,
    JSON.stringify({ token, expires: Date.now() + (Number.isFinite(seconds) ? seconds : 3600) * 1000 }),
  );
  return { returnTo };
}

/** The first error message of a Drive API error answer ({ error: { message, errors: [{ message }] } }). */
export function driveErrorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const list = (error as { errors?: { message?: unknown }[] }).errors;
  const first = Array.isArray(list) ? list[0]?.message : undefined;
  if (typeof first === 'string' && first) return first;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && message ? message : undefined;
}

/** GET files/{id}/export?mimeType=text/html with the bearer token (spec B 7). */
export async function exportHtml(apiUrl: string, fileId: string, token: string): Promise<string> {
  const res = await fetch(
    `${apiUrl}/drive/v3/files/${encodeURIComponent(fileId)}/export?mimeType=${encodeURIComponent('text/html')}`,
    { headers: { Authorization: `Bearer ${token}` } },
  );
  const text = await res.text();
  if (!res.ok) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the text itself is the message
    }
    if (res.status === 401) forgetToken();
    throw new CloudDocError(res.status, driveErrorMessage(body) ?? (text.trim() || `HTTP ${res.status}`));
  }
  return text;
}

export class CloudDocError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export function pdfLink(pdfUrl: string, fileId: string): string {
  return pdfUrl.replace('{id}', encodeURIComponent(fileId));
}
