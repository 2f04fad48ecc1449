import enApplications from '../locales/en/applications.json';
import enCertificates from '../locales/en/certificates.json';
import enContent from '../locales/en/content.json';
import enCredentials from '../locales/en/credentials.json';
import enForum from '../locales/en/forum.json';
import enNotices from '../locales/en/notices.json';
import enOrganizations from '../locales/en/organizations.json';
import enSupport from '../locales/en/support.json';
import enTerminal from '../locales/en/terminal.json';
import enTryout from '../locales/en/tryout.json';
import enTranslations from '../locales/en/translations.json';
import { registerTranslations } from './i18n';

/**
 * The areas of the message catalogue that only some pages need, in a chunk of their own so the
 * first page's JavaScript stays small (lib/i18n.ts loadFeatureMessages): the English of the features'
 * namespaces (src/locales/en/<namespace>.json; other languages' files are fetched by lib/i18n.ts),
 * and the areas of contracts' catalogue that have no message files yet, English in every language.
 */
for (const messages of [
  enApplications,
  enCertificates,
  enContent,
  enCredentials,
  enForum,
  enNotices,
  enOrganizations,
  enSupport,
  enTerminal,
  enTryout,
  enTranslations,
])
  registerTranslations('en', messages);
