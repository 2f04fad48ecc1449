import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * A page route a feature contributes: each feature exports its list from features/<name>/routes.tsx
 * (pages lazily imported there), and app/routes.tsx mounts every list inside the layout; the lists
 * of the console's pages (under /admin) are app/console-routes.tsx's, a lazily loaded table of its own.
 */
export interface FeatureRoute {
  path: string;
  element: ReactNode;
  /** Loads the page's chunk; called for the first page before the first render (lib/lazy-page). */
  preload: () => Promise<void>;
  /**
   * Fills the cache with the data the page shows first, for the first page before the first
   * render (a page whose HTML preloads that data, decision 034): its first render then has it, in
   * the first render's transition, instead of an update when it arrives, which React renders in
   * one task (an external store's update always is).
   */
  preloadData?: (params: Record<string, string | undefined>, client: QueryClient) => Promise<unknown>;
  /**
   * For a route whose page is a route table of its own (the console's `/admin/*`): loads what that
   * table's route for `pathname` needs before the first render, as above (its page's chunk, its data).
   */
  preloadWithin?: (pathname: string, client: QueryClient) => Promise<unknown>;
}
