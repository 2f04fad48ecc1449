import { consoleUsersMessages } from './console-users.ts';
import { consoleAuditMessages } from './console-audit.ts';
import { consoleDashboardMessages } from './console-dashboard.ts';

/**
 * The provider console (issue 27): its shell and navigation. Each part of the console keeps its
 * own words in a file of its own (messages/console-*.ts), added below as one area each. The web
 * app registers this area with the console's chunk (features/console), never with the developer
 * pages' messages.
 */
import { consoleContentMessages } from './console-content.ts';
import { consoleSiteMessages } from './console-site.ts';
import { consoleApisMessages } from './console-apis.ts';
import { consolePagesMessages } from './console-pages.ts';
import { consoleProductsMessages } from './console-products.ts';
import { consoleQuickstartMessages } from './console-quickstart.ts';
import { consoleImagesMessages } from './console-images.ts';

export const consoleMessages = {
  title: 'Provider console',
  link: 'Provider console',
  navLabel: 'Console sections',
  homeIntro: 'What your roles let you do here:',
  notForYou: "The provider console is for the API provider's team.",
  rolesOnly: 'This part of the console is for: {{roles}}.',
  nav: {
    dashboard: 'Dashboard',
    users: 'Users',
    audit: 'Audit log',
    goLive: 'Go-live requests',
    products: 'API products',
    importApi: 'Import API',
    content: 'Content',
    quickstart: 'Quick Start stories',
    supportQueue: 'Support queue',
    supportStaff: 'Support staff',
    outbox: 'Outbox',
  },
  users: consoleUsersMessages,
  apis: consoleApisMessages,
  products: consoleProductsMessages,
  roles: {
    administrator: 'Administrator',
    api_manager: 'API manager',
    content_editor: 'Content editor',
    support_agent: 'Support agent',
    go_live_reviewer: 'Go-live reviewer',
  },
  audit: consoleAuditMessages,
  dashboard: consoleDashboardMessages,
  content: consoleContentMessages,
  site: consoleSiteMessages,
  pages: consolePagesMessages,
  quickstart: consoleQuickstartMessages,
  images: consoleImagesMessages,
} as const;
