import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const SupportPage = lazyPage(() => import('./support-page'));
const ContactPage = lazyPage(() => import('./contact-page'));

/** The support area (spec B 2.1, 2.9; issue 14). */
export const supportRoutes: FeatureRoute[] = [
  { path: paths.support, element: <SupportPage />, preload: SupportPage.preload },
  { path: paths.supportContact, element: <ContactPage />, preload: ContactPage.preload },
];
