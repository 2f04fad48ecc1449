import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const FaqPage = lazyPage(() => import('./faq-page'));

/** FAQs (spec B 2.5). */
export const faqRoutes: FeatureRoute[] = [
  { path: paths.faq, element: <FaqPage />, preload: FaqPage.preload },
];
