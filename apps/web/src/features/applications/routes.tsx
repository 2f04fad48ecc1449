import { lazy } from 'react';
import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';

// Each screen is its own chunk; the editor, the product modal and the charts load on demand inside.
const CreateApplicationPage = lazy(() => import('./create-application-page'));
const ApplicationViewPage = lazy(() => import('./application-view-page'));
const EditApplicationPage = lazy(() => import('./edit-application-page'));
const GoLivePage = lazy(() => import('./go-live-page'));

/** Application screens (spec A 2). */
export const applicationsRoutes: FeatureRoute[] = [
  { path: paths.applicationCreateRoute, element: <CreateApplicationPage /> },
  { path: paths.applicationViewRoute, element: <ApplicationViewPage /> },
  { path: paths.applicationEditRoute, element: <EditApplicationPage /> },
  { path: paths.goLiveRoute, element: <GoLivePage /> },
];
