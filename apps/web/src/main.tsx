import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRELOADER_REMOVE_MS } from '@portico/contracts/constants';
import { App } from './app/app';
import { isInternetExplorer, renderBrowserNotSupported } from './features/errors/browser-not-supported';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

if (isInternetExplorer(navigator.userAgent)) {
  renderBrowserNotSupported(root);
} else {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  // The preloader covers the first paint; it goes 2 s after render (spec B 2.14).
  setTimeout(() => document.getElementById('preloader')?.remove(), PRELOADER_REMOVE_MS);
}
