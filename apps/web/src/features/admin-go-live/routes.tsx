import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const AdminGoLivePage = lazyPage(() => import('./admin-go-live-page'));

/** The provider's review of go-live requests (issue 5: administrators only). */
export const adminGoLiveRoutes: FeatureRoute[] = [
  { path: paths.adminGoLive, element: <AdminGoLivePage />, preload: AdminGoLivePage.preload },
];
