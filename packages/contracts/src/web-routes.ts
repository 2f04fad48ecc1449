/**
 * The route patterns of the web app's own pages and redirects (react-router syntax: `:param`,
 * `:param?`, a trailing `*`), for the server: a path that matches none of them, and is no basic
 * page either, answers 404 with the web app (whose 404 page sets the `status-code` meta marker),
 * so that crawlers and monitors see that no page exists. The web app's router
 * (apps/web/src/app/routes.tsx and the features' routes.tsx) uses the same patterns; a unit test
 * there checks that both lists agree. The not-found page itself (/404) is not listed.
 */
export const WEB_ROUTE_PATTERNS = [
  '/',
  '/login',
  '/oauth2/callback',
  '/oauth2/redoc-callback',
  '/cookie-settings',
  '/profile',
  '/organizations',
  '/organization/create',
  '/organization/:organizationId',
  '/organization/:organizationId/edit',
  '/organization/:organizationId/content',
  '/organization/:organizationId/content/add',
  '/organization/:organizationId/members',
  '/organization/:organizationId/certificates',
  '/admin',
  '/admin/users',
  '/admin/users/:userId',
  '/admin/audit',
  '/admin/outbox',
  '/admin/outbox/:messageId',
  '/apiProducts',
  '/apiProduct/:apiProductId/:viewMode?',
  '/documentation/:apiDocumentationId',
  '/application',
  '/application/:applicationId',
  '/application/:applicationId/edit',
  '/goLive/:applicationId',
  '/admin/go-live',
  '/admin/import-api',
  // The console's content (issue 27, features/console-content).
  '/admin/content',
  '/admin/content/articles/new',
  '/admin/content/articles/:articleId',
  '/admin/content/pages',
  '/admin/content/pages/new',
  '/admin/content/pages/:pageId',
  '/admin/content/site',
  '/admin/content/faq',
  '/admin/content/faq/new',
  '/admin/content/faq/:faqId',
  '/admin/content/faq/categories/:categoryId',
  '/admin/content/categories',
  '/admin/content/categories/:categoryId',
  '/admin/content/quickstart',
  '/admin/content/quickstart/new',
  '/admin/content/quickstart/:storyId',
  '/admin/apis',
  '/admin/apis/products/new',
  '/admin/apis/products/:productId',
  // A draft's documentation before it is published (API managers; features/products).
  '/admin/apis/:alias/drafts/:draftId/preview',
  '/admin/apis/comparison-tables/new',
  '/admin/apis/comparison-tables/:tableId',
  // Site search (features/search).
  '/search',
  // Support (issue 14).
  '/support',
  '/support/contact',
  '/support/ticket/create',
  '/support/ticket/all',
  '/support/ticket/:ticketId',
  '/admin/support',
  '/admin/support/staff',
  // Redirects (spec B 2.1).
  '/partner',
  '/partner/*',
  '/news/*',
  // Forums (spec B 2.1, 2.13; issue 14).
  '/forum',
  '/forum/new',
  '/forum/most-popular',
  '/forum/unanswered',
  '/forum/:forum_id',
  '/forum-topic/:forum_id',
  '/forum-create-topic/:forum_id',
  // Public content (issue 13).
  '/blog',
  '/blog/internal',
  '/blog/:articleSlug',
  '/faq-page',
  '/started',
  '/google-doc/callback',
  '/google-doc/:fileId',
] as const;

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** Whether `pattern` matches `pathname` as react-router matches it (case-insensitive). */
export function matchesRoutePattern(pattern: string, pathname: string): boolean {
  const want = segments(pattern);
  const got = segments(pathname);
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*') return true;
    const g = got[i];
    if (w.startsWith(':')) {
      if (g === undefined) return w.endsWith('?') && i === want.length - 1;
      continue;
    }
    if (g === undefined || g.toLowerCase() !== w.toLowerCase()) return false;
  }
  return got.length === want.length;
}

/** Whether a page or redirect of the web app answers `pathname` (basic pages aside). */
export function isWebRoute(pathname: string): boolean {
  return WEB_ROUTE_PATTERNS.some((pattern) => matchesRoutePattern(pattern, pathname));
}
