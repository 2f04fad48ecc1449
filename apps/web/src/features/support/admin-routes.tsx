import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const AdminSupportPage = lazyPage(() => import('./admin-support-page'));
const AdminStaffPage = lazyPage(() => import('./admin-staff-page'));

/** Support's pages in the console (issue 14; app/console-routes.tsx): tickets and staff. */
export const adminSupportRoutes: FeatureRoute[] = [
  { path: paths.adminSupport, element: <AdminSupportPage />, preload: AdminSupportPage.preload },
  { path: paths.adminSupportStaff, element: <AdminStaffPage />, preload: AdminStaffPage.preload },
];
