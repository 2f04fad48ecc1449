/**
 * Where a user may be sent back to after signing in: a path of this site, never another origin.
 * One rule for the server (which stores it with the login state) and the web app (which navigates
 * to it). The value is read the way a browser reads a link — tabs and newlines dropped, `\` taken
 * as `/`, dot segments resolved — and only a path that stays on this origin and cannot be read as
 * `//host` afterwards is accepted; the normalized path is returned, anything else is null.
 */

export const RETURN_TO_MAX_LENGTH = 2000;

/** Any C0 control, DEL or C1 control: a browser drops or rewrites some of them in URLs. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point here
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const BASE = 'https://return-to.invalid';

export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > RETURN_TO_MAX_LENGTH) return null;
  if (!value.startsWith('/') || CONTROL.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // '/.//evil.example' resolves to the path '//evil.example', which a browser reads as a host.
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return null;
  return path;
}
