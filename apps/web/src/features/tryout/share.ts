import type { TryoutForm } from './request';

/** The query parameter of a shared console link. */
export const SHARE_PARAM = 'tryout';

export interface SharedRequest {
  method: string;
  path: string;
  form: TryoutForm;
}

/**
 * A link that reopens the console on one operation with its non-secret values (the caller leaves
 * credentials out): the documentation page's address, `?tryout=<json>` and `#operation/<key>`.
 */
export function shareUrl(
  item: { documentationId: string; method: string; path: string; form: TryoutForm },
  operationKey: string,
): string {
  const url = new URL(window.location.href);
  const shared: SharedRequest = { method: item.method, path: item.path, form: item.form };
  url.searchParams.set(SHARE_PARAM, JSON.stringify(shared));
  url.hash = `operation/${encodeURIComponent(operationKey)}`;
  return url.toString();
}

/** The shared request of the current address for this operation, if any. */
export function sharedRequest(search: string, method: string, path: string): TryoutForm | null {
  const raw = new URLSearchParams(search).get(SHARE_PARAM);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<SharedRequest>;
    if (parsed.method !== method || parsed.path !== path || !parsed.form || typeof parsed.form !== 'object')
      return null;
    const f = parsed.form as Partial<TryoutForm>;
    const rec = (v: unknown): Record<string, string> =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>).filter(
              (e): e is [string, string] => typeof e[1] === 'string',
            ),
          )
        : {};
    return {
      header: rec(f.header),
      query: rec(f.query),
      path: rec(f.path),
      ...(f.cookie ? { cookie: rec(f.cookie) } : {}),
      body: typeof f.body === 'string' ? f.body : '',
    };
  } catch {
    return null;
  }
}

/** Opens a shared link: a full load, so the reference opens the operation and the console reads the link. */
export function openShared(url: string): void {
  const sameDocument = url.split('#')[0] === window.location.href.split('#')[0];
  window.location.assign(url);
  if (sameDocument) window.location.reload();
}
