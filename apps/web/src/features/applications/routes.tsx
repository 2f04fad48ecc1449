import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

// Each screen is its own chunk; the editor, the product modal and the charts load on demand inside.
const CreateApplicationPage = lazyPage(() => import('./create-application-page'));
const ApplicationViewPage = lazyPage(() => import('./application-view-page'));
const EditApplicationPage = lazyPage(() => import('./edit-application-page'));
const GoLivePage = lazyPage(() => import('./go-live-page'));

/** Application screens (spec A 2). */
export const applicationsRoutes: FeatureRoute[] = [
  {
    path: paths.applicationCreateRoute,
    element: <CreateApplicationPage />,
    preload: CreateApplicationPage.preload,
  },
  {
    path: paths.applicationViewRoute,
    element: <ApplicationViewPage />,
    preload: ApplicationViewPage.preload,
  },
  {
    path: paths.applicationEditRoute,
    element: <EditApplicationPage />,
    preload: EditApplicationPage.preload,
  },
  { path: paths.goLiveRoute, element: <GoLivePage />, preload: GoLivePage.preload },
];
