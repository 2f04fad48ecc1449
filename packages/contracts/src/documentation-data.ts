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

/** One documentation (by uuid or alias) with its products, their images and their changelog. */
export function documentationUrl(idOrAlias: string): string {
  // The query is written out (not built with URLSearchParams) so that it is the same string on
  // both sides: ',' encoded as URLSearchParams does.
  return `/jsonapi/node/api_documentation/${encodeURIComponent(idOrAlias)}?include=field_products%2Cfield_products.field_image%2Cfield_change_log`;
}

/** The operation index: tags, operations, servers and security schemes, no schemas. */
export function operationIndexUrl(alias: string): string {
  return `/api/apidocs/${encodeURIComponent(alias)}/index`;
}

/** One operation's details. */
export function operationUrl(alias: string, key: string): string {
  return `/api/apidocs/${encodeURIComponent(alias)}/operations/${encodeURIComponent(key)}`;
}

/**
 * What the page asks for as soon as it starts: the documentation, and, when the address names the
 * alias, the operation index beside it (with a uuid the index waits for the documentation's
 * alias). A deep link's operation is named in the fragment, which only the browser knows.
 */
export function firstDocumentationRequests(idOrAlias: string): string[] {
  if (!idOrAlias) return [];
  return isUuid(idOrAlias)
    ? [documentationUrl(idOrAlias)]
    : [documentationUrl(idOrAlias), operationIndexUrl(idOrAlias)];
}
