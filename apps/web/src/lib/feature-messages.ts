import { apiImportMessages } from '@portico/contracts/messages/api-import';
import { certificatesMessages } from '@portico/contracts/messages/certificates';
import { forumMessages } from '@portico/contracts/messages/forum';
import { supportMessages } from '@portico/contracts/messages/support';
import { terminalMessages } from '@portico/contracts/messages/terminal';
import enApplications from '../locales/en/applications.json';
import enContent from '../locales/en/content.json';
import enCredentials from '../locales/en/credentials.json';
import enNotices from '../locales/en/notices.json';
import enOrganizations from '../locales/en/organizations.json';
import enTryout from '../locales/en/tryout.json';
import enTranslations from '../locales/en/translations.json';
import { registerMessages, registerTranslations } from './i18n';

/**
 * The areas of the message catalogue that only some pages need, in a chunk of their own so the
 * first page's JavaScript stays small (lib/i18n.ts loadFeatureMessages): the English of the features'
 * namespaces (src/locales/en/<namespace>.json; other languages' files are fetched by lib/i18n.ts),
 * and the areas of contracts' catalogue that have no message files yet, English in every language.
 */
for (const messages of [
  enApplications,
  enContent,
  enCredentials,
  enNotices,
  enOrganizations,
  enTryout,
  enTranslations,
])
  registerTranslations('en', messages);
registerMessages({
  apiImport: apiImportMessages,
  certificates: certificatesMessages,
  forum: forumMessages,
  support: supportMessages,
  terminal: terminalMessages,
});
