import type { ReactNode } from 'react';

/**
 * A page route a feature contributes: each feature exports its list from features/<name>/routes.tsx
 * (pages lazily imported there), and app/routes.tsx mounts every list inside the layout.
 */
export interface FeatureRoute {
  path: string;
  element: ReactNode;
  /** Loads the page's chunk; called for the first page before the first render (lib/lazy-page). */
  preload: () => Promise<void>;
}
