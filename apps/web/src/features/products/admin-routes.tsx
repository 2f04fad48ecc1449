import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const DraftPreviewPage = lazyPage(() => import('./draft-preview-page'));

/**
 * The console's preview of a draft (issue 27; app/console-routes.tsx): the
 * documentation page's reference, fed by the draft.
 */
export const adminDraftPreviewRoutes: FeatureRoute[] = [
  { path: paths.adminDraftPreviewRoute, element: <DraftPreviewPage />, preload: DraftPreviewPage.preload },
];
