import { apiImportMessages } from '@portico/contracts/messages/api-import';
import { applicationNoticesMessages } from '@portico/contracts/messages/application-notices';
import { applicationsMessages } from '@portico/contracts/messages/applications';
import { certificatesMessages } from '@portico/contracts/messages/certificates';
import { chatBotMessages } from '@portico/contracts/messages/chat-bot';
import { clientSecretsMessages } from '@portico/contracts/messages/client-secrets';
import { clientAuthMessages } from '@portico/contracts/messages/client-auth';
import { contentMessages } from '@portico/contracts/messages/content';
import { forumMessages } from '@portico/contracts/messages/forum';
import { organizationsMessages } from '@portico/contracts/messages/organizations';
import { searchMessages } from '@portico/contracts/messages/search';
import { supportMessages } from '@portico/contracts/messages/support';
import { terminalMessages } from '@portico/contracts/messages/terminal';
import { tokenSecurityMessages } from '@portico/contracts/messages/token-security';
import { tryoutMessages } from '@portico/contracts/messages/tryout';
import { registerMessages } from './i18n';

/**
 * The areas of the message catalogue that only some pages need, in a chunk of their own so the
 * first page's JavaScript stays small (lib/i18n.ts loadFeatureMessages). Every area of contracts'
 * messages.ts that is not in messages/shell.ts is registered here.
 */
registerMessages({
  apiImport: apiImportMessages,
  applications: applicationsMessages,
  applicationNotices: applicationNoticesMessages,
  certificates: certificatesMessages,
  chatBot: chatBotMessages,
  clientSecrets: clientSecretsMessages,
  clientAuth: clientAuthMessages,
  content: contentMessages,
  forum: forumMessages,
  organizations: organizationsMessages,
  search: searchMessages,
  support: supportMessages,
  terminal: terminalMessages,
  tokenSecurity: tokenSecurityMessages,
  tryout: tryoutMessages,
});
