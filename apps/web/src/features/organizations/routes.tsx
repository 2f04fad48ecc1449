import { lazy } from 'react';
import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';

// Each page is its own chunk.
const OrganizationsPage = lazy(() => import('./organizations-page'));
const OrganizationCreatePage = lazy(() => import('./organization-create-page'));
const OrganizationPage = lazy(() => import('./organization-page'));
const OrganizationEditPage = lazy(() => import('./organization-edit-page'));
const MembersPage = lazy(() => import('./members-page'));
const AdminOutboxPage = lazy(() => import('./admin-outbox-page'));

/** Organization pages (spec A 2) and the provider administrator's outbox. */
export const organizationsRoutes: FeatureRoute[] = [
  { path: paths.organizations, element: <OrganizationsPage /> },
  { path: paths.organizationCreate, element: <OrganizationCreatePage /> },
  { path: paths.organization(':organizationId'), element: <OrganizationPage /> },
  { path: paths.organizationEdit(':organizationId'), element: <OrganizationEditPage /> },
  { path: paths.organizationContent(':organizationId'), element: <OrganizationPage view="content" /> },
  { path: paths.organizationContentAdd(':organizationId'), element: <OrganizationPage view="content" /> },
  { path: paths.organizationMembers(':organizationId'), element: <MembersPage /> },
  { path: paths.adminOutbox, element: <AdminOutboxPage /> },
  { path: paths.adminOutboxMessage(':messageId'), element: <AdminOutboxPage /> },
];
