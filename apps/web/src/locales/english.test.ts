import { describe, expect, it } from 'vitest';
import { shellMessages } from '@portico/contracts/messages/shell';
import { organizationsMessages } from '@portico/contracts/messages/organizations';
import { applicationsMessages } from '@portico/contracts/messages/applications';
import { tryoutMessages } from '@portico/contracts/messages/tryout';
import { clientSecretsMessages } from '@portico/contracts/messages/client-secrets';
import { clientAuthMessages } from '@portico/contracts/messages/client-auth';
import { tokenSecurityMessages } from '@portico/contracts/messages/token-security';
import credentials from './en/credentials.json';
import content from './en/content.json';
import { contentMessages } from '@portico/contracts/messages/content';
import { searchMessages } from '@portico/contracts/messages/search';
import shell from './en/shell.json';
import products from './en/products.json';
import organizations from './en/organizations.json';
import applications from './en/applications.json';
import tryout from './en/tryout.json';

/**
 * The web app's English message files carry the spec's wording, which contracts' catalogue holds
 * for the server and the tests (decision 057): every area they share is the same, word for word.
 */
describe('the English message files', () => {
  it('say what contracts says', () => {
    // The web app's own areas (not in contracts): the switcher's and the layout's labels.
    const { language, layout, ...shared } = shell;
    expect(language.label).toBe('Language');
    expect(layout.breadcrumb).toBe('Breadcrumb');
    for (const [area, messages] of Object.entries(shared)) {
      expect(messages, area).toEqual(shellMessages[area as keyof typeof shellMessages]);
    }
    expect(products.products).toEqual(shellMessages.products);
    expect(organizations.organizations).toEqual(organizationsMessages);
    expect(applications.applications).toEqual(applicationsMessages);
    expect(tryout.tryout).toEqual(tryoutMessages);
    expect(content).toEqual({ content: contentMessages, search: searchMessages });
    expect(credentials).toEqual({
      clientSecrets: clientSecretsMessages,
      clientAuth: clientAuthMessages,
      tokenSecurity: tokenSecurityMessages,
    });
  });
});
