import { translateText } from './i18n';
import { env } from '../config/env';
import { useAppStore } from './store';

/**
 * The one HTTP client of the web app (spec B 7): JSON:API or plain JSON headers, Client-Id, a fresh
 * Request-Id per call, the session cookie (credentials) and X-CSRF-Token on writes. Failures become
 * an ApiError whose message is the server's first error title (or message, or text), so every page
 * shows the server's wording without parsing bodies itself.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** The server's own message, when it sent one (pages fall back to the spec's generic text). */
  readonly serverMessage: string | undefined;

  constructor(status: number, serverMessage: string | undefined, body: unknown) {
    super(serverMessage ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.serverMessage = serverMessage;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON; `format` picks the media type. */
  body?: unknown;
  /** Raw body (file uploads); sent as-is with the given headers. */
  rawBody?: BodyInit;
  format?: 'jsonapi' | 'json';
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /**
   * A GET that the HTML the server sends may already have preloaded (`<link rel="preload"
   * as="fetch" crossorigin="use-credentials">`, decision 034): sent with the session cookie and
   * none of our headers, because Chromium hands a preloaded answer only to a request with the same
   * URL, credentials mode and headers (a fresh Request-Id would never match).
   */
  preloadable?: boolean;
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export function apiUrl(path: string, query?: RequestOptions['query']): string {
  const url = path.startsWith('http') ? path : `${env.apiBaseUrl}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
  const s = params.toString();
  if (!s) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${s}`;
}

/** The CSRF token of this session, fetched once and cached in the store (spec: GET /session/token). */
export async function csrfToken(refresh = false): Promise<string> {
  const known = useAppStore.getState().applicationUser.token;
  if (known && !refresh) return known;
  const res = await fetch(apiUrl('/session/token'), { credentials: 'include', headers: baseHeaders() });
  const token = await res.text();
  useAppStore.getState().setToken(token);
  return token;
}

function baseHeaders(): Record<string, string> {
  return { 'Client-Id': env.clientId, 'Request-Id': crypto.randomUUID() };
}

async function send(path: string, options: RequestOptions, token: string | undefined): Promise<Response> {
  const method = options.method ?? 'GET';
  if (options.preloadable && method === 'GET') {
    return fetch(apiUrl(path, options.query), { credentials: 'include', signal: options.signal });
  }
  const media = options.format === 'json' ? 'application/json' : 'application/vnd.api+json';
  const headers: Record<string, string> = { ...baseHeaders(), Accept: `${media}, application/json` };
  if (options.body !== undefined) headers['Content-Type'] = media;
  if (token) headers['X-CSRF-Token'] = token;
  Object.assign(headers, options.headers);
  return fetch(apiUrl(path, options.query), {
    method,
    headers,
    credentials: 'include',
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal,
  });
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const write = WRITE_METHODS.has(options.method ?? 'GET');
  let res = await send(path, options, write ? await csrfToken() : undefined);
  if (write && res.status === 403 && (await isCsrfFailure(res.clone()))) {
    // The session changed (login elsewhere, expiry): fetch the new token once and try again.
    res = await send(path, options, await csrfToken(true));
  }
  const body = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, errorMessage(body), body);
  return body as T;
}

async function isCsrfFailure(res: Response): Promise<boolean> {
  const body = await readBody(res);
  return (
    typeof body === 'object' &&
    body !== null &&
    Array.isArray((body as { errors?: unknown }).errors) &&
    (body as { errors: { code?: string }[] }).errors.some((e) => e.code === 'csrf')
  );
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The server's message from a JSON:API error document, a `{ message }` body or plain text. */
export function errorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() || undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: { title?: string; detail?: string }[] }).errors;
  if (Array.isArray(errors) && errors[0]) return errors[0].title ?? errors[0].detail;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

/** The server's message of a failed call, else the given fallback (the spec's generic text). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? translateText(error.serverMessage) : fallback;
}
