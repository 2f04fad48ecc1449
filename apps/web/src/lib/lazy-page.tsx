import { lazy, useState, type ComponentType } from 'react';
import { loadConsoleMessages, loadFeatureMessages } from './i18n';

/**
 * Code splitting without the wait React adds to it. React 19 holds back content that resolves
 * after a Suspense fallback was shown until 300 ms have passed since that fallback (any boundary,
 * even a `null` fallback), which measured as about a third of the documentation page's first load.
 * So the first page's chunk is loaded before the first render (app/routes.tsx preloadRoute), and a
 * page whose chunk is already here renders without suspending. Parts that suspend in that same first
 * commit (the footer's deferred forms) delay only themselves.
 */
export type PreloadableComponent<P extends object> = ComponentType<P> & { preload(): Promise<void> };

export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  /** False for a page that shows only the shell's words (the home page, which is in the entry). */
  /** `console`: the page shows the provider console's words (its namespaces come with it). */
  options: { featureMessages?: boolean; console?: boolean } = {},
): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<void> | undefined;
  // Every page but the home page (in the entry) may show a feature's words: their areas of the
  // message catalogue come with the page (lib/i18n.ts).
  const preload = (): Promise<void> =>
    (pending ??= Promise.all([
      load(),
      options.featureMessages === false ? undefined : loadFeatureMessages(),
      options.console ? loadConsoleMessages() : undefined,
    ])
      .then(([m]) => m)
      .then(
        (m) => {
          loaded = m.default;
        },
        (err: unknown) => {
          pending = undefined; // a failed chunk may be fetched again on the next try
          throw err;
        },
      ));
  const Suspending = lazy(() => preload().then(() => ({ default: loaded as ComponentType<P> })));
  function Page(props: P) {
    // Decided once per mount: switching between the two later would remount the page.
    const [Direct] = useState(() => loaded);
    const Component = Direct ?? Suspending;
    return <Component {...props} />;
  }
  return Object.assign(Page, { preload });
}

/**
 * Shows a lazy part (a console, a window, a sidebar) once its chunk is here, so that it renders
 * without suspending: behind a Suspense fallback, React would hold it back for 300 ms (above). A
 * chunk that fails to load is shown anyway, and its boundary deals with the failure.
 */
export function showWhenLoaded(part: { preload(): Promise<void> }, show: () => void): void {
  void part
    .preload()
    .catch(() => undefined)
    .then(show);
}
