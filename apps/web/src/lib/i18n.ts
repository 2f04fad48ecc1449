import type { Messages } from '@portico/contracts/messages';
import { format } from '@portico/contracts/format';
import { DEFAULT_LOCALE, LOCALE_TAGS, type Locale } from '@portico/contracts/locales';
import { splitLocalePath } from '@portico/contracts/locale-path';
import enShell from '../locales/en/shell.json';
import enProducts from '../locales/en/products.json';

/**
 * The web app's messages, looked up by dotted key: `t('errors.notFoundTitle')`,
 * `t('user.welcome', { name })` (decisions 015 and 057). The web app only ever needs these two
 * forms (no plurals, nesting or formatters), so a lookup over the catalogue replaces i18next and
 * react-i18next (19 KiB brotli in the first page's JavaScript, bench/README.md; the home page is
 * at its 130 KiB budget, e2e/tests/performance-budget.spec.ts). Placeholders are `{{name}}`, filled
 * by the same `format()` the server uses; React escapes what it renders.
 *
 * Languages (issue 30, decision 057): the messages are JSON files, `src/locales/<lng>/<namespace>.json`,
 * one namespace per feature area; each file holds whole areas of keys (`shell.json` has `menu`,
 * `user`, `errors`...). English, the spec's wording, mirrors packages/contracts' catalogue
 * (locales.test.ts checks both agree). The page's language is its URL's (`/de/...`, contracts'
 * locale-path.ts), fixed for the page's life: switching language loads the page again under the
 * other prefix. The English shell namespaces are in the entry; another language's are fetched
 * before the first render (loadLocale, main.tsx); the features' namespaces come with the pages
 * (loadFeatureMessages, lazyPage). A key missing in a language shows the English text; areas
 * that have no JSON file yet are registered in English only; the console's namespaces come with
 * the console's pages (loadConsoleMessages).
 */

/** Every dotted path to a message: 'site.title', 'products.version', 'language.label'... */
export type MessageKey = KeysOf<Messages> | KeysOf<typeof enShell>;
type KeysOf<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : KeysOf<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** The namespaces the shell shows on every page (loaded before the first render). */
export const SHELL_NAMESPACES = ['shell', 'products'] as const;
/** The namespaces that come with the pages that need them (lib/feature-messages.ts in English). */
export const FEATURE_NAMESPACES = [
  'organizations',
  'applications',
  'credentials',
  'tryout',
  'content',
  'notices',
  'support',
  'forum',
  'terminal',
  'certificates',
  'translations',
] as const;
/**
 * The provider console's namespaces (decision 057): loaded with the console's pages (/admin/*,
 * app/routes.tsx) and with the header's link to the console, never with the developer pages.
 */
export const CONSOLE_NAMESPACES = ['console'] as const;

/** Another language's message files, each fetched on demand (a chunk of its own). */
const files = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/en/*.json'], {
  import: 'default',
});

const english = new Map<string, string>();
const translated = new Map<string, string>();

function collect(into: Map<string, string>, node: object, prefix: string) {
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'string') into.set(prefix + key, value);
    else if (value && typeof value === 'object') collect(into, value as object, `${prefix}${key}.`);
  }
}
collect(english, enShell, '');
collect(english, enProducts, '');

/** The page's language: its URL's prefix (`/de/...`), else English. */
export const locale: Locale =
  typeof window === 'undefined' ? DEFAULT_LOCALE : splitLocalePath(window.location.pathname).locale;

/** The BCP 47 tag for Intl's dates and numbers in the page's language. */
export const localeTag: string = LOCALE_TAGS[locale];

/** Adds areas of contracts' catalogue in English (lib/feature-messages.ts, the console's areas). */
export function registerMessages(areas: Partial<Messages>): void {
  collect(english, areas, '');
}

/** Adds a language's messages of one namespace (its JSON file), for `t` to prefer over English. */
export function registerTranslations(lng: Locale, messages: object): void {
  if (lng === DEFAULT_LOCALE) collect(english, messages, '');
  else if (lng === locale) collect(translated, messages, '');
}

const loaded = new Map<string, Promise<void>>();
/** Fetches one namespace of a language other than English (once). */
function loadNamespace(lng: Locale, namespace: string): Promise<void> {
  const key = `${lng}/${namespace}`;
  let pending = loaded.get(key);
  if (!pending) {
    const file = files[`../locales/${key}.json`];
    pending = file
      ? file().then(
          (messages) => registerTranslations(lng, messages),
          (err: unknown) => {
            loaded.delete(key); // a failed chunk may be fetched again on the next try
            throw err;
          },
        )
      : Promise.resolve();
    loaded.set(key, pending);
  }
  return pending;
}

/** Loads the page's language's shell namespaces (nothing to fetch in English). */
export function loadLocale(lng: Locale = locale): Promise<void> {
  if (lng === DEFAULT_LOCALE) return Promise.resolve();
  return Promise.all(SHELL_NAMESPACES.map((ns) => loadNamespace(lng, ns))).then(() => undefined);
}

let featureMessages: Promise<void> | undefined;
/** Loads the features' namespaces once (English's chunk and the page's language's files). */
export function loadFeatureMessages(): Promise<void> {
  return (featureMessages ??= Promise.all([
    import('./feature-messages'),
    ...(locale === DEFAULT_LOCALE ? [] : FEATURE_NAMESPACES.map((ns) => loadNamespace(locale, ns))),
  ]).then(
    () => {
      featuresIn = true;
    },
    (err: unknown) => {
      featureMessages = undefined; // a failed chunk may be fetched again on the next try
      throw err;
    },
  ));
}

let consoleMessages: Promise<void> | undefined;
/** Loads the console's namespaces once (English's chunk and the page's language's files). */
export function loadConsoleMessages(): Promise<void> {
  return (consoleMessages ??= Promise.all([
    import('./console-messages'),
    ...(locale === DEFAULT_LOCALE ? [] : CONSOLE_NAMESPACES.map((ns) => loadNamespace(locale, ns))),
  ]).then(
    () => undefined,
    (err: unknown) => {
      consoleMessages = undefined; // a failed chunk may be fetched again on the next try
      throw err;
    },
  ));
}

let featuresIn = false;
/** Whether the features' namespaces are in (after loadFeatureMessages resolved). */
export function featureMessagesLoaded(): boolean {
  return featuresIn;
}

/** The message for `key` in the page's language (else English) with its placeholders filled. */
export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const message = translated.get(key) ?? english.get(key);
  return message === undefined ? key : format(message, values);
}

let reverse: Map<string, string> | undefined;
/**
 * An English message of the catalogue, as the page's language says it: for texts that reach the
 * page already written, such as the messages of contracts' shared validation schemas (zod) and
 * the server's English answers. A text the catalogue does not know is returned as it is.
 */
export function translateText(text: string): string {
  if (locale === DEFAULT_LOCALE || translated.size === 0) return text;
  if (!reverse || reverse.size < english.size) {
    reverse = new Map();
    for (const [key, message] of english) if (!reverse.has(message)) reverse.set(message, key);
  }
  const key = reverse.get(text);
  return (key && translated.get(key)) ?? text;
}

/** For components: the same `t` (the language never changes while the page runs). */
export function useTranslation(): { t: typeof t; locale: Locale } {
  return translation;
}
const translation = { t, locale };

/** The type of `t`, for helpers that are handed it. */
export type Translate = typeof t;
