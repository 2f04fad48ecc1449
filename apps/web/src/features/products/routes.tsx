import type { FeatureRoute } from '../../config/feature-route';

/** API products, product detail and documentation pages (spec B 2.10-2.12). */
export const productsRoutes: FeatureRoute[] = [];
