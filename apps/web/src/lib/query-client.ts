import { QueryClient } from '@tanstack/react-query';

/**
 * The app's one query cache: provided to the tree by app/app.tsx, and filled before the first
 * render with the first page's own data where its route says which (app/routes.tsx preloadRoute).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    // Spec B 9: no refetch on window focus.
    queries: { refetchOnWindowFocus: false, retry: 1, staleTime: 30_000 },
  },
});
