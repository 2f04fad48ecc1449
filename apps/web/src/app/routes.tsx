import { Navigate, Route, Routes, matchRoutes, useLocation, useParams } from 'react-router';
import type { QueryClient } from '@tanstack/react-query';
import type { FeatureRoute } from '../config/feature-route';
import { paths } from '../config/paths';
import { applicationsRoutes } from '../features/applications/routes';
import { organizationsRoutes } from '../features/organizations/routes';
import { certificatesRoutes } from '../features/certificates/routes';
import HomePageModule from '../features/home/home-page';
import { productsRoutes } from '../features/products/routes';
import { searchRoutes } from '../features/search/routes';
import { supportRoutes } from '../features/support/routes';
import { forumRoutes } from '../features/forum/routes';
import { blogRoutes } from '../features/blog/routes';
import { faqRoutes } from '../features/faq/routes';
import { startedRoutes } from '../features/started/routes';
import { cloudDocsRoutes } from '../features/cloud-docs/routes';
import { lazyPage } from '../lib/lazy-page';
import { AppLayout } from './layout/app-layout';

// Every page is its own chunk (spec: keep the first page's JavaScript small), except the home
// page: most visits start there, and in the entry it costs the other pages about 3 KiB while the
// home page saves the round trip to its chunk and the small shared chunks it needed.
const HomePage = lazyPage(() => Promise.resolve({ default: HomePageModule }), { featureMessages: false });
const LoginPage = lazyPage(() => import('../features/auth/login-page'));
const CallbackPage = lazyPage(() => import('../features/auth/callback-page'));
const RedocCallbackPage = lazyPage(() => import('../features/auth/redoc-callback-page'));
const CookieSettingsPage = lazyPage(() => import('../features/cookies/cookie-settings-page'));
const NotFoundPage = lazyPage(() => import('../features/errors/not-found-page'));
const ProfilePage = lazyPage(() => import('../features/profile/profile-page'));
const BasicPage = lazyPage(() => import('../features/pages/basic-page'));
// The provider console (issue 27): one entry for all of /admin; its own route table, with its
// pages, is a chunk of its own (app/console-routes.tsx), and so are its words (lib/i18n.ts).
const loadConsole = () => import('./console-routes');
const ConsolePages = lazyPage(loadConsole, { console: true });

/** /partner/... is stripped: the visitor lands on the rest of the path (spec B 2.1). */
function StripPartner() {
  const location = useLocation();
  const rest = location.pathname.replace(/^\/partner/, '') || '/';
  return <Navigate to={rest + location.search + location.hash} replace />;
}

/** /news and news article URLs go to /blog (spec B 2.1). */
function NewsToBlog() {
  const { '*': rest } = useParams();
  return <Navigate to={rest ? `${paths.blog}/${rest}` : paths.blog} replace />;
}

/** Every page route: the shell's own, then those contributed by features, one list per feature. */
const pageRoutes: FeatureRoute[] = [
  { path: paths.home, element: <HomePage />, preload: HomePage.preload },
  { path: paths.login, element: <LoginPage />, preload: LoginPage.preload },
  { path: paths.loginCallback, element: <CallbackPage />, preload: CallbackPage.preload },
  { path: paths.redocCallback, element: <RedocCallbackPage />, preload: RedocCallbackPage.preload },
  { path: paths.cookieSettings, element: <CookieSettingsPage />, preload: CookieSettingsPage.preload },
  { path: paths.profile, element: <ProfilePage />, preload: ProfilePage.preload },
  { path: paths.notFound, element: <NotFoundPage />, preload: NotFoundPage.preload },
  ...organizationsRoutes,
  ...certificatesRoutes,
  ...productsRoutes,
  ...applicationsRoutes,
  {
    path: paths.consolePages,
    element: <ConsolePages />,
    preload: ConsolePages.preload,
    preloadWithin: async (pathname, client) => (await loadConsole()).preloadConsoleRoute(pathname, client),
  },
  ...searchRoutes,
  ...supportRoutes,
  ...forumRoutes,
  // Public content (issue 13).
  ...blogRoutes,
  ...faqRoutes,
  ...startedRoutes,
  ...cloudDocsRoutes,
  // The catch-all basic page (spec B 2.1 '/{page}') comes last.
  { path: '*', element: <BasicPage />, preload: BasicPage.preload },
];

/** Redirecting routes: no page of their own. */
const redirects = [
  { path: '/partner/*', element: <StripPartner /> },
  { path: '/partner', element: <StripPartner /> },
  { path: '/news/*', element: <NewsToBlog /> },
];

/**
 * Every path pattern of this router, for the check against the server's list (contracts/web-routes):
 * the console's pages are behind its one pattern (paths.consolePages), in its own table.
 */
export function routePatterns(): string[] {
  return [...pageRoutes, ...redirects].map((r) => r.path);
}

/**
 * Loads the chunk of the page that `pathname` shows (nothing for a redirect), so that the first
 * render needs no Suspense fallback (lib/lazy-page.tsx says why that matters), and the data the
 * page shows first where its route says which (FeatureRoute.preloadData).
 */
export function preloadRoute(pathname: string, client: QueryClient): Promise<void> {
  const all: FeatureRoute[] = [
    ...redirects.map((r) => ({ ...r, preload: () => Promise.resolve() })),
    ...pageRoutes,
  ];
  const matched = matchRoutes(all, pathname)?.at(-1);
  if (!matched) return Promise.resolve();
  const { route, params } = matched;
  return Promise.all([
    route.preload(),
    route.preloadData?.(params, client),
    route.preloadWithin?.(pathname, client),
  ]).then(() => undefined);
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {[...redirects, ...pageRoutes].map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
      </Route>
    </Routes>
  );
}
