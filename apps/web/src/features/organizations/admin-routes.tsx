import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const AdminOutboxPage = lazyPage(() => import('./admin-outbox-page'));

/** The provider administrator's outbox: a page of the console (app/console-routes.tsx). */
export const adminOutboxRoutes: FeatureRoute[] = [
  { path: paths.adminOutbox, element: <AdminOutboxPage />, preload: AdminOutboxPage.preload },
  {
    path: paths.adminOutboxMessage(':messageId'),
    element: <AdminOutboxPage />,
    preload: AdminOutboxPage.preload,
  },
];
