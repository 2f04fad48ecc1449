import type { Messages } from '@portico/contracts/messages';
import { shellMessages } from '@portico/contracts/messages/shell';
import { format } from '@portico/contracts/format';

/**
 * The message catalogue of packages/contracts, looked up by dotted key: `t('errors.notFoundTitle')`,
 * `t('user.welcome', { name })`. The web app only ever needs these two forms (no plurals, nesting or
 * formatters), so a lookup over the catalogue replaces i18next and react-i18next (19 KiB brotli in
 * the first page's JavaScript, bench/README.md). Placeholders are the catalogue's `{{name}}`, filled
 * by the same `format()` the server uses; React escapes what it renders. A second language would be
 * one more object of the same shape chosen here.
 *
 * The shell starts with the areas of contracts' messages/shell.ts; the other areas (each feature's
 * own) come with the pages: lazyPage loads them with every page's chunk (loadFeatureMessages), and
 * a shell component that shows one of them waits for them (FeatureMessages, lib/feature-messages-gate).
 */

/** Every dotted path to a message of the catalogue: 'site.title', 'products.version', ... */
export type MessageKey = KeysOf<Messages>;
type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

const flat = new Map<string, string>();
function collect(node: object, prefix: string) {
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') flat.set(prefix + key, value);
    else if (value && typeof value === 'object') collect(value as object, `${prefix}${key}.`);
  }
}
collect(shellMessages, '');

/** Adds areas of the catalogue (lib/feature-messages.ts). */
export function registerMessages(areas: Partial<Messages>): void {
  collect(areas, '');
}

let featureMessages: Promise<void> | undefined;
/** Loads the features' areas of the catalogue once (their own chunk); resolves when they are in. */
export function loadFeatureMessages(): Promise<void> {
  return (featureMessages ??= import('./feature-messages').then(
    () => undefined,
    (err: unknown) => {
      featureMessages = undefined; // a failed chunk may be fetched again on the next try
      throw err;
    },
  ));
}

/** Whether the features' areas are in (after loadFeatureMessages resolved). */
export function featureMessagesLoaded(): boolean {
  return flat.has('search.title');
}

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
