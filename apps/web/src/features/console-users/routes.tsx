import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const UsersPage = lazyPage(() => import('./users-page'));
const UserPage = lazyPage(() => import('./user-page'));

/** The console's users and roles (issue 27): administrators only. */
export const consoleUserRoutes: FeatureRoute[] = [
  { path: paths.adminUsers, element: <UsersPage />, preload: UsersPage.preload },
  { path: paths.adminUserRoute, element: <UserPage />, preload: UserPage.preload },
];
