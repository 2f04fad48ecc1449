import { firstDocumentationRequests } from '@portico/contracts/documentation-data';

/** /documentation/:apiDocumentationId, the one page whose first data is worth preloading (below). */
const DOCUMENTATION_PAGE = /^\/documentation\/([^/]+)\/?$/;

/**
 * `<link rel="preload" as="fetch">` hints for the data a page asks for as soon as it starts, so
 * that the browser fetches it beside the scripts instead of once they have run (decision 034).
 * Only the documentation page has them: its operation index is the largest first answer of the
 * web app. The URLs and the credentials mode (`use-credentials`, the web app's
 * `credentials: 'include'`) are exactly what the page then requests, or the preload is not used.
 */
export function dataPreloadLinks(pathname: string): string[] {
  const match = DOCUMENTATION_PAGE.exec(pathname);
  if (!match?.[1]) return [];
  let id: string;
  try {
    // The router hands the page the decoded segment, which the page encodes again.
    id = decodeURIComponent(match[1]);
  } catch {
    return [];
  }
  return firstDocumentationRequests(id).map(
    // encodeURIComponent leaves no '"', '<' or '&' in a path; the query is a constant.
    (url) => `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${url}">`,
  );
}
