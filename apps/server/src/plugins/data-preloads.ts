import { DEFAULT_LOCALE, type Locale } from '@portico/contracts/locales';
import { documentationPageId, firstDocumentationRequests } from '@portico/contracts/documentation-data';

/**
 * `<link rel="preload" as="fetch">` hints for the data a page asks for as soon as it starts, so
 * that the browser fetches it beside the scripts instead of once they have run (decision 034).
 * Only the documentation page has them: its operation index is the largest first answer of the
 * web app. The URLs and the credentials mode (`use-credentials`, the web app's
 * `credentials: 'include'`) are exactly what the page then requests, or the preload is not used.
 */
export function dataPreloadLinks(pathname: string, search = '', locale: Locale = DEFAULT_LOCALE): string[] {
  const id = documentationPageId(pathname);
  if (id === undefined) return [];
  // The operation the query names (operationAddress), opened by the page at once.
  const operation = new URLSearchParams(search).get('operation');
  return firstDocumentationRequests(id, operation, locale).map(preloadLink);
}

/** One preload hint; `url` is one of the contracts' documentation URLs. */
export function preloadLink(url: string): string {
  // encodeURIComponent leaves no '"', '<' or '&' in their paths; their queries are constants.
  return `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${url}">`;
}
