import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { PRELOADER_REMOVE_MS } from '@portico/contracts/constants';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { queryClient } from './lib/query-client';
import { isInternetExplorer, renderBrowserNotSupported } from './features/errors/browser-not-supported';
import { attachAppStyles, holdRootBehindFirstScreen } from './lib/first-screen';
import { loadLocale, locale } from './lib/i18n';
import { rememberLocale } from './lib/locale-choice';
import { splitLocalePath } from '@portico/contracts/locale-path';

/** How long the first render waits for the first page's chunk at most. */
const FIRST_PAGE_PATIENCE_MS = 1500;

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

if (isInternetExplorer(navigator.userAgent)) {
  renderBrowserNotSupported(root);
} else {
  // The first page's chunk comes before the first render (lib/lazy-page.tsx), with the data it shows
  // first where its route says which, under the preloader (or the server's first screen); a slow or
  // failed fetch does not hold the page back for long: it then loads as it renders.
  const firstPage = preloadRoute(splitLocalePath(window.location.pathname).path, queryClient).catch(() => {});
  // The page's language is its URL's (decision 057): remembered for the next visit, and its shell
  // messages (English is in the entry) in before the first render.
  rememberLocale(locale);
  document.documentElement.lang = locale;
  const messages = loadLocale().catch(() => {});
  const patience = new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_PATIENCE_MS));
  // Behind a first screen the app's style sheets were only preloaded (decision 043): attached now.
  const styled = attachAppStyles();
  void Promise.all([Promise.race([firstPage, patience]), styled, messages]).then(() => {
    // A page the server wrote a first screen for keeps it until the app's own is ready (decision 043).
    holdRootBehindFirstScreen(root);
    const reactRoot = createRoot(root);
    // A transition: React renders the app in slices of a few milliseconds instead of one task of
    // 100 ms and more, so that a click on the server's first screen, or its paint, is not held back
    // while the app starts behind it (decision 043).
    startTransition(() => {
      reactRoot.render(
        <StrictMode>
          <App />
        </StrictMode>,
      );
    });
    // The preloader covers the first paint; it goes 2 s after render (spec B 2.14).
    setTimeout(() => document.getElementById('preloader')?.remove(), PRELOADER_REMOVE_MS);
  });
}
