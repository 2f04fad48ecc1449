import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const StartedPage = lazyPage(() => import('./started-page'));

/** Getting Started (spec B 2.3). */
export const startedRoutes: FeatureRoute[] = [
  { path: paths.started, element: <StartedPage />, preload: StartedPage.preload },
];
