import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const SearchPage = lazyPage(() => import('./search-page'));

/** The site search page (spec B 2.6). */
export const searchRoutes: FeatureRoute[] = [
  { path: paths.search, element: <SearchPage />, preload: SearchPage.preload },
];
