import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from './locales.ts';

/**
 * A page's language in its URL (issue 30, decision 057): English, the default, has no prefix (every
 * URL of the spec stays as it is); another language is the path's first segment (`/de/apiProducts`).
 * The server (plugins/web-app.ts) and the web app's router (apps/web/src/lib/i18n.ts) read it alike.
 */
export interface LocalePath {
  locale: Locale;
  /** The path without the language's prefix: always starts with `/`. */
  path: string;
}

/** Splits `/de/apiProducts` into `de` and `/apiProducts`; a path without a prefix is English. */
export function splitLocalePath(pathname: string): LocalePath {
  const match = /^\/([a-z]{2})(?=\/|$)/.exec(pathname);
  const locale = match?.[1];
  if (locale && locale !== DEFAULT_LOCALE && isLocale(locale)) {
    return { locale, path: pathname.slice(locale.length + 1) || '/' };
  }
  return { locale: DEFAULT_LOCALE, path: pathname };
}

/** The URL path of `path` (without prefix) in `locale`: `/de/` + path, or path itself in English. */
export function localizedPath(locale: Locale, path: string): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === '/' ? `/${locale}/` : `/${locale}${path}`;
}

/** The router's basename for a language: '' in English, '/de' in German. */
export function localeBasename(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`;
}

/** Every language's URL for one page (for `hreflang` alternates). */
export function alternatePaths(path: string): { locale: Locale; path: string }[] {
  return LOCALES.map((locale) => ({ locale, path: localizedPath(locale, path) }));
}

/**
 * The cookie that keeps the language a visitor chose (the header's switcher, or the URL of the
 * page they last read); the server reads it too (apps/server/src/lib/locale.ts).
 */
export const LOCALE_COOKIE = 'portico_lang';
