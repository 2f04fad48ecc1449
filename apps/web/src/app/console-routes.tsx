import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes, Route, Routes } from 'react-router';
import type { FeatureRoute } from '../config/feature-route';
import { paths } from '../config/paths';
import { lazyPage } from '../lib/lazy-page';
import { adminGoLiveRoutes } from '../features/admin-go-live/routes';
import { adminImportRoutes } from '../features/admin-import/routes';
import { consoleApisRoutes } from '../features/console-apis/routes';
import { consoleAuditRoutes } from '../features/console-audit/routes';
import { consoleContentRoutes } from '../features/console-content/routes';
import { consoleUserRoutes } from '../features/console-users/routes';
import { adminOutboxRoutes } from '../features/organizations/admin-routes';
import { adminDraftPreviewRoutes } from '../features/products/admin-routes';
import { adminSupportRoutes } from '../features/support/admin-routes';
import { consoleRoutes } from '../features/console/routes';

/**
 * The console's route table (issue 27): every page under /admin, from the features that have
 * pages there. It is a chunk of its own, which the developer pages' router (routes.tsx) loads for
 * `/admin/*` only, so a console page adds nothing to the shell. The paths stay absolute here (the
 * contracts' list, the build's route-chunks.json); the descendant <Routes> below matches the rest
 * of the path after /admin.
 */
const BasicPage = lazyPage(() => import('../features/pages/basic-page'));

const consolePageRoutes: FeatureRoute[] = [
  ...consoleRoutes,
  ...consoleUserRoutes,
  ...consoleAuditRoutes,
  ...adminOutboxRoutes,
  ...adminGoLiveRoutes,
  ...adminImportRoutes,
  ...consoleContentRoutes,
  ...consoleApisRoutes,
  ...adminDraftPreviewRoutes,
  ...adminSupportRoutes,
];

/**
 * Any other path under /admin: a basic page there, or else the 404 page, as at the top level.
 * Written element first, so that the build takes no hints from it (vite.config.ts routeChunks):
 * the top level's '*' has the basic page's.
 */
const otherPath: FeatureRoute = { element: <BasicPage />, path: '*', preload: BasicPage.preload };

/** The path below /admin that the descendant <Routes> matches ('' for /admin itself). */
function below(path: string): string {
  return path === paths.console ? '' : path.slice(paths.console.length + 1);
}

/** Every path pattern of the console (absolute), for the check against the server's list. */
export function consoleRoutePatterns(): string[] {
  return consolePageRoutes.map((r) => r.path);
}

/**
 * Loads the chunk of the console page that `pathname` shows, and its first data where its route
 * names it (routes.tsx preloadRoute, for the first page).
 */
export function preloadConsoleRoute(pathname: string, client: QueryClient): Promise<void> {
  const matched = matchRoutes([...consolePageRoutes, otherPath], pathname)?.at(-1);
  if (!matched) return Promise.resolve();
  const { route, params } = matched;
  return Promise.all([route.preload(), route.preloadData?.(params, client)]).then(() => undefined);
}

/** The console's pages, mounted by the developer router at /admin/*. */
export default function ConsoleRoutes() {
  return (
    <Routes>
      {consolePageRoutes.map((r) => (
        <Route key={r.path} path={below(r.path)} element={r.element} />
      ))}
      <Route path={otherPath.path} element={otherPath.element} />
    </Routes>
  );
}
