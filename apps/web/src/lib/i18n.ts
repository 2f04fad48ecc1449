import { en, type Messages } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';

/**
 * The message catalogue of packages/contracts, looked up by dotted key: `t('errors.notFoundTitle')`,
 * `t('user.welcome', { name })`. The web app only ever needs these two forms (no plurals, nesting or
 * formatters), so a lookup over the catalogue replaces i18next and react-i18next (19 KiB brotli in
 * the first page's JavaScript, bench/README.md). Placeholders are the catalogue's `{{name}}`, filled
 * by the same `format()` the server uses; React escapes what it renders. A second language would be
 * one more object of the same shape chosen here.
 */

/** Every dotted path to a message of the catalogue: 'site.title', 'products.version', ... */
export type MessageKey = KeysOf<Messages>;
type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

const flat = new Map<string, string>();
(function collect(node: object, prefix: string) {
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') flat.set(prefix + key, value);
    else if (value && typeof value === 'object') collect(value as object, `${prefix}${key}.`);
  }
})(en, '');

/** The message for `key` with its placeholders filled; an unknown key is shown as itself. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const message = flat.get(key);
  return message === undefined ? key : format(message, values);
}

/** For components: the same `t` (the catalogue never changes while the page runs). */
export function useTranslation(): { t: typeof t } {
  return translation;
}
const translation = { t };

/** The type of `t`, for helpers that are handed it. */
export type Translate = typeof t;
