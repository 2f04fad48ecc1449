import type { FeatureRoute } from '../../config/feature-route';

/** Organization pages (spec A 2); filled in by the organizations feature. */
export const organizationsRoutes: FeatureRoute[] = [];
