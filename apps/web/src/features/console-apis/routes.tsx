import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const ConsoleApisPage = lazyPage(() => import('./console-apis-page'));
const ProductEditorPage = lazyPage(() => import('./product-editor-page'));
const ProductCreatePage = lazyPage(() => import('./product-create-page'));
const ComparisonEditorPage = lazyPage(() => import('./comparison-editor-page'));

/** The console's API products (issue 27): their order and fields; new versions, their review, publication and notices. */
export const consoleApisRoutes: FeatureRoute[] = [
  { path: paths.adminApis, element: <ConsoleApisPage />, preload: ConsoleApisPage.preload },
  { path: paths.adminProductNew, element: <ProductCreatePage />, preload: ProductCreatePage.preload },
  { path: paths.adminProductRoute, element: <ProductEditorPage />, preload: ProductEditorPage.preload },
  // The same page: without a :tableId it creates a table.
  {
    path: paths.adminComparisonNew,
    element: <ComparisonEditorPage />,
    preload: ComparisonEditorPage.preload,
  },
  {
    path: paths.adminComparisonRoute,
    element: <ComparisonEditorPage />,
    preload: ComparisonEditorPage.preload,
  },
];
