import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const ConsoleAuditPage = lazyPage(() => import('./console-audit-page'));

/** The console's audit log (issue 27): every provider role may read it. */
export const consoleAuditRoutes: FeatureRoute[] = [
  { path: paths.adminAudit, element: <ConsoleAuditPage />, preload: ConsoleAuditPage.preload },
];
