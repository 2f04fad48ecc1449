import type { FeatureRoute } from '../../config/feature-route';
import { paths } from '../../config/paths';
import { lazyPage } from '../../lib/lazy-page';

const SupportPage = lazyPage(() => import('./support-page'));
const ContactPage = lazyPage(() => import('./contact-page'));
const TicketsPage = lazyPage(() => import('./tickets-page'));
const TicketCreatePage = lazyPage(() => import('./ticket-create-page'));
const TicketPage = lazyPage(() => import('./ticket-page'));

/** The support area (spec B 2.1, 2.9; issue 14); its console pages are in admin-routes.tsx. */
export const supportRoutes: FeatureRoute[] = [
  { path: paths.support, element: <SupportPage />, preload: SupportPage.preload },
  { path: paths.supportContact, element: <ContactPage />, preload: ContactPage.preload },
  { path: paths.supportTicketCreate, element: <TicketCreatePage />, preload: TicketCreatePage.preload },
  { path: paths.supportTickets, element: <TicketsPage />, preload: TicketsPage.preload },
  { path: paths.supportTicketRoute, element: <TicketPage />, preload: TicketPage.preload },
];
