/**
 * Which redirect URIs an OAuth client may register (RFC 8252 for native apps, RFC 9700 'OAuth 2.0
 * Security Best Current Practice'), one rule for the application form and the server:
 * - https: on any host;
 * - http: only on the loopback interface (localhost, 127.0.0.1, [::1]), where no one else listens;
 * - a private-use scheme of a native app, named after a domain in reverse order
 *   (`com.example.app:/callback`, RFC 8252 7.1) — which leaves out javascript:, data:, vbscript:,
 *   file: and every other scheme a browser would run or read instead of handing to an app.
 * A fragment is a separate rule (its own message). The authorization server treats a client with a
 * private-use URI as native, and native clients may not claim https on a loopback host.
 */

export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Reverse-domain scheme: at least two dot-separated labels, starting with a letter. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

/** A scheme the authorization server treats as a native app's own. */
export function isPrivateUseRedirectUri(uri: string): boolean {
  const url = parse(uri);
  return url !== undefined && PRIVATE_USE_SCHEME.test(url.protocol);
}

/** True for a redirect URI a client may register (see above). */
export function isAllowedRedirectUri(uri: string): boolean {
  const url = parse(uri);
  if (!url) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return PRIVATE_USE_SCHEME.test(url.protocol);
}

/**
 * The index of a URI that cannot stand in this list: once one URI is a private-use scheme the
 * client is a native app, and https on a loopback host is then refused (RFC 8252 8.4), or -1.
 */
export function nativeLoopbackConflict(uris: readonly string[]): number {
  if (!uris.some(isPrivateUseRedirectUri)) return -1;
  return uris.findIndex((uri) => {
    const url = parse(uri);
    return url?.protocol === 'https:' && LOOPBACK_HOSTS.has(url.hostname);
  });
}
