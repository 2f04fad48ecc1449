import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

// Each page is its own chunk.
const OrganizationsPage = lazyPage(() => import('./organizations-page'));
const OrganizationCreatePage = lazyPage(() => import('./organization-create-page'));
const OrganizationPage = lazyPage(() => import('./organization-page'));
const OrganizationEditPage = lazyPage(() => import('./organization-edit-page'));
const MembersPage = lazyPage(() => import('./members-page'));

/** Organization pages (spec A 2); the provider administrator's outbox is the console's (admin-routes.tsx). */
export const organizationsRoutes: FeatureRoute[] = [
  { path: paths.organizations, element: <OrganizationsPage />, preload: OrganizationsPage.preload },
  {
    path: paths.organizationCreate,
    element: <OrganizationCreatePage />,
    preload: OrganizationCreatePage.preload,
  },
  {
    path: paths.organization(':organizationId'),
    element: <OrganizationPage />,
    preload: OrganizationPage.preload,
  },
  {
    path: paths.organizationEdit(':organizationId'),
    element: <OrganizationEditPage />,
    preload: OrganizationEditPage.preload,
  },
  {
    path: paths.organizationContent(':organizationId'),
    element: <OrganizationPage view="content" />,
    preload: OrganizationPage.preload,
  },
  {
    path: paths.organizationContentAdd(':organizationId'),
    element: <OrganizationPage view="content" />,
    preload: OrganizationPage.preload,
  },
  {
    path: paths.organizationMembers(':organizationId'),
    element: <MembersPage />,
    preload: MembersPage.preload,
  },
];
