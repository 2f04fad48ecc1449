import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const CertificatesPage = lazyPage(() => import('./certificates-page'));

/** An organization's sandbox test certificates (issue 28). */
export const certificatesRoutes: FeatureRoute[] = [
  {
    path: paths.organizationCertificates(':organizationId'),
    element: <CertificatesPage />,
    preload: CertificatesPage.preload,
  },
];
