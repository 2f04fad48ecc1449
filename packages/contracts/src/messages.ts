/**
 * Every user-facing string of the portal, in one catalogue. The spec's exact wording lives here
 * once: the web app looks it up by dotted key (apps/web/src/lib/i18n.ts), the server uses it for the
 * messages it returns, and tests import it instead of repeating the text. Keys are grouped by
 * area; a second language is one more object of the same shape. The areas the web app's shell
 * needs at once are in messages/shell.ts; the others, each owned by one feature, are added here
 * (the web app loads them with the pages that use them).
 */
import { shellMessages } from './messages/shell.ts';
import { tryoutMessages } from './messages/tryout.ts';
import { supportMessages } from './messages/support.ts';
import { searchMessages } from './messages/search.ts';
import { forumMessages } from './messages/forum.ts';
import { contentMessages } from './messages/content.ts';
import { terminalMessages } from './messages/terminal.ts';
import { chatBotMessages } from './messages/chat-bot.ts';
import { organizationsMessages } from './messages/organizations.ts';
import { applicationsMessages } from './messages/applications.ts';
import { apiImportMessages } from './messages/api-import.ts';
import { consoleMessages } from './messages/console.ts';
import { applicationNoticesMessages } from './messages/application-notices.ts';
import { tokenSecurityMessages } from './messages/token-security.ts';
import { clientSecretsMessages } from './messages/client-secrets.ts';
import { certificatesMessages } from './messages/certificates.ts';
import { clientAuthMessages } from './messages/client-auth.ts';
import { markdownMessages } from './messages/markdown.ts';
import { mcpMessages } from './messages/mcp.ts';
import { translationsMessages } from './messages/translations.ts';

export const en = {
  ...shellMessages,
  organizations: organizationsMessages,
  applications: applicationsMessages,
  tryout: tryoutMessages,
  support: supportMessages,
  search: searchMessages,
  forum: forumMessages,
  content: contentMessages,
  terminal: terminalMessages,
  chatBot: chatBotMessages,
  apiImport: apiImportMessages,
  console: consoleMessages,
  applicationNotices: applicationNoticesMessages,
  tokenSecurity: tokenSecurityMessages,
  clientSecrets: clientSecretsMessages,
  certificates: certificatesMessages,
  clientAuth: clientAuthMessages,
  markdown: markdownMessages,
  mcp: mcpMessages,
  translations: translationsMessages,
};

export type Messages = typeof en;
