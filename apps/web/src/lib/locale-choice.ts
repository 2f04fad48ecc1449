import { isLocale, type Locale } from '@portico/contracts/locales';
import { LOCALE_COOKIE, localizedPath, splitLocalePath } from '@portico/contracts/locale-path';
import { apiRequest } from './api-client';
import { useAppStore } from './store';

/** A year: the visitor's choice outlives the session. */
const COOKIE_MAX_AGE = 365 * 24 * 3600;

/**
 * Keeps the language of the page being read in the `portico_lang` cookie (decision 057): the
 * server sends a visitor to that language's URLs (plugins/web-app.ts), and writes its own pages,
 * e-mails and messages in it (apps/server/src/lib/locale.ts).
 */
export function rememberLocale(locale: Locale): void {
  if (chosenLocale() === locale) return;
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax`;
}

/** The language in the cookie, if any. */
export function chosenLocale(): Locale | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LOCALE_COOKIE && isLocale(value)) return value;
  }
  return undefined;
}

/** Stores the language on the signed-in user's account (`preferred_langcode`). */
export async function saveAccountLocale(uuid: string, locale: Locale): Promise<void> {
  await apiRequest(`/jsonapi/user/user/${uuid}`, {
    method: 'PATCH',
    body: { data: { type: 'user--user', id: uuid, attributes: { preferred_langcode: locale } } },
  });
}

/** The address of the current page in another language (same path, query and fragment). */
export function pageIn(locale: Locale, location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return localizedPath(locale, splitLocalePath(location.pathname).path) + location.search + location.hash;
}

/**
 * Switches the page to another language: the cookie, the account for a signed-in user (a failure
 * to store it does not hold the switch back), then the same page under the language's prefix.
 */
export async function switchLocale(locale: Locale): Promise<void> {
  rememberLocale(locale);
  const user = useAppStore.getState().applicationUser;
  if (user.isLoggedIn && user.uuid) {
    await saveAccountLocale(user.uuid, locale).catch(() => undefined);
  }
  window.location.assign(pageIn(locale, window.location));
}
