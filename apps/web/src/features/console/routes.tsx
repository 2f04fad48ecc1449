import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const ConsoleHomePage = lazyPage(() => import('./console-home-page'));

/** The provider console (issue 27): its home; each section's pages come from its own feature. */
export const consoleRoutes: FeatureRoute[] = [
  { path: paths.console, element: <ConsoleHomePage />, preload: ConsoleHomePage.preload },
];
