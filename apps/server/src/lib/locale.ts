import { LOCALE_COOKIE } from '@portico/contracts/locale-path';
import { isLocale, negotiateLocale, type Locale } from '@portico/contracts/locales';

/** What the request's language is decided from (a Fastify request or a bare Node request). */
export interface LocaleSource {
  headers: { 'accept-language'?: string | undefined; cookie?: string | undefined };
  cookies?: Record<string, string | undefined>;
}

function cookieValue(source: LocaleSource): string | undefined {
  if (source.cookies) return source.cookies[LOCALE_COOKIE];
  const header = source.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === LOCALE_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * A request's language: the signed-in user's own (`users.preferred_langcode`, when given), else
 * the one chosen in the header (the cookie), else the browser's Accept-Language, else English.
 * A public page's URL prefix (`/de/...`) is decided by its route before this is asked.
 */
export function requestLocale(source: LocaleSource, preferred?: string | null): Locale {
  if (isLocale(preferred)) return preferred;
  const chosen = cookieValue(source);
  if (isLocale(chosen)) return chosen;
  return negotiateLocale(source.headers['accept-language']);
}
