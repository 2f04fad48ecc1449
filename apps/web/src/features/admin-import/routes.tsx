import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const AdminImportPage = lazyPage(() => import('./admin-import-page'));

/** The administrators' import of an OpenAPI document (issue 11). */
export const adminImportRoutes: FeatureRoute[] = [
  { path: paths.adminImportApi, element: <AdminImportPage />, preload: AdminImportPage.preload },
];
