import type { FeatureRoute } from '../../config/feature-route';
import { lazyPage } from '../../lib/lazy-page';

const GoogleDocPage = lazyPage(() => import('./google-doc-page'));
const CallbackPage = lazyPage(() => import('./callback-page'));

/** The cloud document viewer (spec B 2.1 '/google-doc/{fileId}') and its sign-in callback. */
export const cloudDocsRoutes: FeatureRoute[] = [
  { path: '/google-doc/callback', element: <CallbackPage />, preload: CallbackPage.preload },
  { path: '/google-doc/:fileId', element: <GoogleDocPage />, preload: GoogleDocPage.preload },
];
