import { lazy } from 'react';
import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';

// Each page is its own chunk: the first page of the portal loads none of this.
const ProductsPage = lazy(() => import('./products-page'));
const ProductPage = lazy(() => import('./product-page'));
const DocumentationPage = lazy(() => import('./documentation-page'));

/** API products, product detail and documentation pages (spec B 2.10-2.12). */
export const productsRoutes: FeatureRoute[] = [
  { path: paths.apiProducts, element: <ProductsPage /> },
  { path: '/apiProduct/:apiProductId/:viewMode?', element: <ProductPage /> },
  { path: '/documentation/:apiDocumentationId', element: <DocumentationPage /> },
];
