import type { ProviderRole } from '@portico/contracts/provider-roles';
import type { MessageKey } from '../../lib/i18n';

/**
 * The console's sections, in the order of its navigation, with the provider roles that may use
 * each (an administrator may use all). The server checks the same roles on every endpoint; this
 * list only decides what the navigation shows.
 */
export interface ConsoleSection {
  path: string;
  label: MessageKey;
  roles: readonly ProviderRole[];
}

export const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  { path: '/admin', label: 'console.nav.dashboard', roles: ['administrator'] },
  { path: '/admin/users', label: 'console.nav.users', roles: ['administrator'] },
  {
    path: '/admin/audit',
    label: 'console.nav.audit',
    roles: ['administrator', 'api_manager', 'content_editor', 'support_agent', 'go_live_reviewer'],
  },
  { path: '/admin/go-live', label: 'console.nav.goLive', roles: ['go_live_reviewer'] },
  { path: '/admin/apis', label: 'console.nav.products', roles: ['api_manager'] },
  { path: '/admin/import-api', label: 'console.nav.importApi', roles: ['api_manager'] },
  { path: '/admin/content', label: 'console.nav.content', roles: ['content_editor'] },
  { path: '/admin/content/quickstart', label: 'console.nav.quickstart', roles: ['content_editor'] },
  { path: '/admin/support', label: 'console.nav.supportQueue', roles: ['support_agent'] },
  { path: '/admin/support/staff', label: 'console.nav.supportStaff', roles: ['administrator'] },
  { path: '/admin/outbox', label: 'console.nav.outbox', roles: ['administrator'] },
];
