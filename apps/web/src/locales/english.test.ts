import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONSOLE_NAMESPACES, FEATURE_NAMESPACES, SHELL_NAMESPACES } from '../lib/i18n';
import { shellMessages } from '@portico/contracts/messages/shell';
import { catalogMessages } from '@portico/contracts/messages/catalog';
import { identityMessages } from '@portico/contracts/messages/identity';
import { organizationsMessages } from '@portico/contracts/messages/organizations';
import { applicationsMessages } from '@portico/contracts/messages/applications';
import { tryoutMessages } from '@portico/contracts/messages/tryout';
import { clientSecretsMessages } from '@portico/contracts/messages/client-secrets';
import { clientAuthMessages } from '@portico/contracts/messages/client-auth';
import { tokenSecurityMessages } from '@portico/contracts/messages/token-security';
import credentials from './en/credentials.json';
import notices from './en/notices.json';
import { chatBotMessages } from '@portico/contracts/messages/chat-bot';
import { applicationNoticesMessages } from '@portico/contracts/messages/application-notices';
import content from './en/content.json';
import { contentMessages } from '@portico/contracts/messages/content';
import { searchMessages } from '@portico/contracts/messages/search';
import shell from './en/shell.json';
import products from './en/products.json';
import organizations from './en/organizations.json';
import applications from './en/applications.json';
import tryout from './en/tryout.json';
import consoleFile from './en/console.json';
import { consoleMessages } from '@portico/contracts/messages/console';
import { apiImportMessages } from '@portico/contracts/messages/api-import';
import support from './en/support.json';
import forum from './en/forum.json';
import terminal from './en/terminal.json';
import certificates from './en/certificates.json';
import { supportMessages } from '@portico/contracts/messages/support';
import { forumMessages } from '@portico/contracts/messages/forum';
import { terminalMessages } from '@portico/contracts/messages/terminal';
import { certificatesMessages } from '@portico/contracts/messages/certificates';
import translations from './en/translations.json';
import { translationsMessages } from '@portico/contracts/messages/translations';

/**
 * The web app's English message files carry the spec's wording, which contracts' catalogue holds
 * for the server and the tests (decision 057): every area they share is the same, word for word.
 */
describe('the English message files', () => {
  it('say what contracts says', () => {
    // The web app's own areas (not in contracts): the switcher's and the layout's labels.
    const { language, layout, identity, ...shared } = shell;
    expect(language.label).toBe('Language');
    expect(layout.breadcrumb).toBe('Breadcrumb');
    for (const [area, messages] of Object.entries(shared)) {
      expect(messages, area).toEqual(shellMessages[area as keyof typeof shellMessages]);
    }
    // The few messages of the server's areas (identity, catalog) that the web app shows itself:
    // each as contracts says it.
    for (const [key, text] of Object.entries(identity)) {
      expect(text, `identity.${key}`).toBe(identityMessages[key as keyof typeof identityMessages]);
    }
    for (const [key, text] of Object.entries(products.catalog)) {
      expect(text, `catalog.${key}`).toBe(catalogMessages[key as keyof typeof catalogMessages]);
    }
    expect(Object.keys(identity).length + Object.keys(products.catalog).length).toBeGreaterThan(0);
    expect(products.products).toEqual(shellMessages.products);
    expect(organizations.organizations).toEqual(organizationsMessages);
    expect(applications.applications).toEqual(applicationsMessages);
    expect(tryout.tryout).toEqual(tryoutMessages);
    expect(translations.translations).toEqual(translationsMessages);
    expect(content).toEqual({ content: contentMessages, search: searchMessages });
    expect(notices).toEqual({ chatBot: chatBotMessages, applicationNotices: applicationNoticesMessages });
    expect(support).toEqual({ support: supportMessages });
    expect(forum).toEqual({ forum: forumMessages });
    expect(terminal).toEqual({ terminal: terminalMessages });
    expect(certificates).toEqual({ certificates: certificatesMessages });
    expect(credentials).toEqual({
      clientSecrets: clientSecretsMessages,
      clientAuth: clientAuthMessages,
      tokenSecurity: tokenSecurityMessages,
    });
    // The console's: the audit log's action labels are contracts' audit-actions, shown by
    // auditActionLabel() and not looked up by key, so the file leaves them out.
    const { actions, ...audit } = consoleMessages.audit;
    expect(Object.keys(actions).length).toBeGreaterThan(0);
    expect(consoleFile).toEqual({ console: { ...consoleMessages, audit }, apiImport: apiImportMessages });
  });

  it('are each loaded, with the shell or with the pages', () => {
    const files = fs
      .readdirSync(new URL('./en/', import.meta.url))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect([...SHELL_NAMESPACES, ...FEATURE_NAMESPACES, ...CONSOLE_NAMESPACES].sort()).toEqual(files.sort());
  });
});
