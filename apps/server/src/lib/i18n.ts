import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { format } from '@portico/contracts/format';
import { DEFAULT_LOCALE, LOCALES, LOCALE_TAGS, isLocale, type Locale } from '@portico/contracts/locales';
import { escapeHtml } from './html.ts';

/**
 * The server's texts in every language of the portal (issue 30, decision 058): i18next over the
 * message files in `src/locales/<lng>/<namespace>.json`, read once at start-up. Namespaces:
 *
 * - `pages`: the identity provider's (`identity.*`) and the sandbox authorization server's
 *   (`sandboxAuth.*`) HTML pages, and the words of the pages' Markdown (`markdown.*`, with the
 *   reference's `products.*` and `content.faqTitle`; modules/markdown/labels.ts);
 * - `emails`: every e-mail the portal sends, by area;
 * - `errors`: the API's error messages that reach users, keyed by the catalogue's own path
 *   (`organizations.nameRequired`) or `server.*` for the server's own texts.
 *
 * English is the default and the fallback; its files repeat the contracts catalogue's wording byte
 * for byte (locales.test.ts checks it). A third language is one more entry in contracts'
 * LOCALES and one more folder here with the same keys.
 */
export const NAMESPACES = ['pages', 'emails', 'errors'] as const;
export type Namespace = (typeof NAMESPACES)[number];

type Tree = { [key: string]: string | Tree };

function readBundle(locale: Locale, ns: Namespace): Tree {
  return JSON.parse(
    readFileSync(new URL(`../locales/${locale}/${ns}.json`, import.meta.url), 'utf8'),
  ) as Tree;
}

const resources = Object.fromEntries(
  LOCALES.map((locale) => [locale, Object.fromEntries(NAMESPACES.map((ns) => [ns, readBundle(locale, ns)]))]),
);

const instance = i18next.createInstance();
// Resources given in full and no backend: init finishes before it returns (initAsync: false).
void instance.init({
  resources,
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  ns: [...NAMESPACES],
  defaultNS: 'pages',
  initAsync: false,
  // Texts go into HTML only through the pages' own escaping (escapeHtml), never i18next's; the
  // catalogue's `{{name}}` placeholders are i18next's default interpolation syntax.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** A language's texts of one namespace, optionally below a key prefix (`identity`). */
export interface Texts<K extends string = string> {
  readonly locale: Locale;
  /** The text of `key` with its `{{placeholders}}` filled (English when the language lacks it). */
  (key: K, values?: Record<string, string | number>): string;
  /** The text of `key` with its placeholders left as they are (for the pages' escape-then-fill). */
  template(key: K): string;
}

export function texts<K extends string = string>(
  locale: Locale,
  ns: Namespace,
  keyPrefix?: string,
): Texts<K> {
  // i18next's own TFunction types keys against declared resources (a CustomTypeOptions
  // augmentation); our keys are checked by the pages' key types and locales.test.ts instead.
  const t = instance.getFixedT(locale, ns, keyPrefix) as unknown as (
    key: string,
    options?: Record<string, unknown>,
  ) => string;
  const fill = (key: K, values: Record<string, string | number> = {}): string => t(key, values);
  return Object.assign(fill, {
    locale,
    template: (key: K): string => t(key, { skipInterpolation: true }),
  });
}

/** The portal's name in `locale` (pages.json `site.title`), as the web app's header says it. */
export function siteTitle(locale: Locale): string {
  return texts(locale, 'pages')('site.title');
}

/** A page's text as HTML: the text escaped, its placeholders filled with ready `markup`. */
export function fillHtml<K extends string>(M: Texts<K>, key: K, markup: Record<string, string>): string {
  return format(escapeHtml(M.template(key)), markup);
}

/** Every text of a namespace in one language as a flat map of dotted keys (error translation). */
export function flatTexts(locale: Locale, ns: Namespace): Map<string, string> {
  const flat = new Map<string, string>();
  const walk = (node: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') flat.set(prefix + key, value);
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(resources[locale]![ns] as Tree, '');
  return flat;
}

/**
 * The language an OpenID Connect request asks for with `ui_locales` (OIDC Core 3.1.2.1: BCP 47
 * tags separated by spaces, in order of preference): the first one of ours, by its primary
 * subtag, or undefined when it names none.
 */
export function uiLocale(uiLocales: unknown): Locale | undefined {
  if (typeof uiLocales !== 'string') return undefined;
  for (const tag of uiLocales.split(/\s+/)) {
    const primary = tag.split('-')[0]?.toLowerCase();
    if (isLocale(primary)) return primary;
  }
  return undefined;
}

/** A date (and time) the way the language writes it, in UTC (the portal's own time zone). */
export function formatDateTime(locale: Locale, date: Date, withTime = true): string {
  return new Intl.DateTimeFormat(LOCALE_TAGS[locale], {
    dateStyle: 'long',
    ...(withTime ? { timeStyle: 'short' } : {}),
    timeZone: 'UTC',
  }).format(date);
}

/** A number the way the language writes it (grouping, decimal sign). */
export function formatNumber(locale: Locale, value: number): string {
  return new Intl.NumberFormat(LOCALE_TAGS[locale]).format(value);
}

/** The language of an e-mail to an account: its `preferred_langcode` when it is one of ours, else English. */
export function mailLocale(preferred: string | null | undefined): Locale {
  return isLocale(preferred) ? preferred : DEFAULT_LOCALE;
}

/**
 * A number inside a message: plain digits in English, as the catalogue's texts have always been
 * filled (the spec's wording stays byte for byte), the language's own way otherwise.
 */
export function messageNumber(locale: Locale, value: number): string {
  return locale === DEFAULT_LOCALE ? String(value) : formatNumber(locale, value);
}
