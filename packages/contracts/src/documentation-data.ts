import { DEFAULT_LOCALE, type Locale } from './locales.ts';

/**
 * The data the documentation page (/documentation/:apiDocumentationId, spec B 2.12) asks for
 * first, by URL. The web app requests exactly these, and the HTML the server sends for the page
 * preloads them (decision 034): a preload is used only by a request for the very same URL, so
 * both sides build it here.
 */

/** Matches a uuid (spec B 5: the documentation route id is a uuid, else an alias). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The reader's language as the public reads take it (decision 063): none for the default. */
const langcodeQuery = (locale: Locale, first: boolean) =>
  locale === DEFAULT_LOCALE ? '' : `${first ? '?' : '&'}langcode=${locale}`;

/**
 * One documentation (by uuid or alias) with its products, their images and their changelog, its
 * title in the page's language.
 */
export function documentationUrl(idOrAlias: string, locale: Locale = DEFAULT_LOCALE): string {
  // The query is written out (not built with URLSearchParams) so that it is the same string on
  // both sides: ',' encoded as URLSearchParams does.
  return `/jsonapi/node/api_documentation/${encodeURIComponent(idOrAlias)}?include=field_products%2Cfield_products.field_image%2Cfield_change_log${langcodeQuery(locale, false)}`;
}

/**
 * The operation index: tags, operations, servers and security schemes, no schemas; its title,
 * description and tags' descriptions in the page's language.
 */
export function operationIndexUrl(alias: string, locale: Locale = DEFAULT_LOCALE): string {
  return `/api/apidocs/${encodeURIComponent(alias)}/index${langcodeQuery(locale, true)}`;
}

/** One operation's details. */
export function operationUrl(alias: string, key: string): string {
  return `/api/apidocs/${encodeURIComponent(alias)}/operations/${encodeURIComponent(key)}`;
}

/**
 * What the page asks for as soon as it starts: the documentation, and, when the address names the
 * alias, the operation index beside it (with a uuid the index waits for the documentation's
 * alias). A deep link's operation (`operationAddress` below) is asked for beside them; the server
 * knows it when the query names it, the fragment only the browser knows.
 */
export function firstDocumentationRequests(
  idOrAlias: string,
  operationKey?: string | null,
  locale: Locale = DEFAULT_LOCALE,
): string[] {
  if (!idOrAlias) return [];
  if (isUuid(idOrAlias)) return [documentationUrl(idOrAlias, locale)];
  return [
    documentationUrl(idOrAlias, locale),
    operationIndexUrl(idOrAlias, locale),
    ...(operationKey ? [operationUrl(idOrAlias, operationKey)] : []),
  ];
}

/** /documentation/:apiDocumentationId, the page with preloaded data and a first screen. */
const DOCUMENTATION_PAGE = /^\/documentation\/([^/]+)\/?$/;

/** The documentation's id (alias or uuid) when the path is the documentation page's. */
export function documentationPageId(pathname: string): string | undefined {
  const match = DOCUMENTATION_PAGE.exec(pathname);
  if (!match?.[1]) return undefined;
  try {
    // The router hands the page the decoded segment, which the page encodes again.
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

const HASH_PREFIX = '#operation/';

/**
 * The address of one operation of the documentation page (decision 043): the query names it for
 * the server, whose first screen then shows its details, and the fragment for the web app, which
 * opens it and scrolls to it. The page's other query parameters (the chosen product) stay.
 */
export function operationAddress(pathname: string, search: string, key: string): string {
  const params = new URLSearchParams(search);
  params.set('operation', key);
  return `${pathname}?${params.toString()}${HASH_PREFIX}${encodeURIComponent(key)}`;
}

/** The operation a documentation page's address names: its fragment, else its query; or null. */
export function deepLinkedOperation(search: string, hash: string): string | null {
  if (hash.startsWith(HASH_PREFIX) && hash.length > HASH_PREFIX.length) {
    const raw = hash.slice(HASH_PREFIX.length);
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return new URLSearchParams(search).get('operation') || null;
}

/** The id of the documentation page's first screen in its HTML (decision 043), for both sides. */
export const FIRST_SCREEN_ID = 'first-screen';

/** The messages of the count label, by their keys in the products messages. */
export type CountMessage = 'operationsCount' | 'operationsCount_one' | 'webhooksCount' | 'webhooksCount_one';

/**
 * The reference's count: '1 operation', '12 operations', '12 operations · 2 webhooks'; a document
 * of webhooks only reads '2 webhooks', never '0 operations'. Written by the server's first screen
 * and by the app (each with its own way to say a message), so that the two always read the same.
 */
export function countLabel(
  count: { operations: number; webhooks: number },
  say: (message: CountMessage, count: number) => string,
): string {
  const operations = say(
    count.operations === 1 ? 'operationsCount_one' : 'operationsCount',
    count.operations,
  );
  if (count.webhooks === 0) return operations;
  const webhooks = say(count.webhooks === 1 ? 'webhooksCount_one' : 'webhooksCount', count.webhooks);
  return count.operations === 0 ? webhooks : `${operations} · ${webhooks}`;
}
