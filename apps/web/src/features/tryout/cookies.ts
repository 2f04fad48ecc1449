import { cookieHeader } from './request';

/**
 * The cookies of a try-out call (cookie parameters, an API key in a cookie: issue 11). A page
 * cannot set a Cookie header on a request, so the browser sends them: each is set for the
 * sandbox's path of this API only (`server`, e.g. /sandbox/spin), for a minute at most, strict to
 * this site, and removed again once the call has answered. The portal's own cookies go along (the
 * sandbox reads none of them). Only a sandbox of this page's own origin can get cookies this way.
 */

/** A cookie name (an RFC 6265 token): what `document.cookie` can set. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Why these cookies cannot be sent from this page, or null when they can. */
export function unsendableCookies(
  server: string,
  cookies: [string, string][],
): { reason: 'otherOrigin'; origin: string } | { reason: 'badName'; name: string } | null {
  if (cookies.length === 0) return null;
  const origin = new URL(server, window.location.href).origin;
  if (origin !== window.location.origin) return { reason: 'otherOrigin', origin };
  const bad = cookies.find(([name]) => !COOKIE_NAME.test(name));
  return bad ? { reason: 'badName', name: bad[0] } : null;
}

/** Sets the cookies for the call to `server`; the returned function removes them. */
export function setCallCookies(server: string, cookies: [string, string][]): () => void {
  const path = new URL(server, window.location.href).pathname.replace(/\/$/, '') || '/';
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const attributes = (maxAge: number) => `; Path=${path}; Max-Age=${maxAge}; SameSite=Strict${secure}`;
  for (const pair of cookies) document.cookie = `${cookieHeader([pair])}${attributes(60)}`;
  return () => {
    for (const [name] of cookies) document.cookie = `${name}=${attributes(0)}`;
  };
}
