import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

// Each page is its own chunk: the first page of the portal loads none of this.
const ProductsPage = lazyPage(() => import('./products-page'));
const ProductPage = lazyPage(() => import('./product-page'));
const DocumentationPage = lazyPage(() => import('./documentation-page'));

/** API products, product detail and documentation pages (spec B 2.10-2.12). */
export const productsRoutes: FeatureRoute[] = [
  { path: paths.apiProducts, element: <ProductsPage />, preload: ProductsPage.preload },
  { path: '/apiProduct/:apiProductId/:viewMode?', element: <ProductPage />, preload: ProductPage.preload },
  {
    path: '/documentation/:apiDocumentationId',
    element: <DocumentationPage />,
    preload: DocumentationPage.preload,
    // Its own chunk's module, shared with the page: the entry stays as it is.
    preloadData: async ({ apiDocumentationId = '' }, client) =>
      (await import('./api-documentation')).preloadDocumentationPage(client, apiDocumentationId),
  },
];
