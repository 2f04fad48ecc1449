/**
 * The portal's MCP server (issue 30; server module modules/mcp): the consent page an assistant's
 * user sees at the identity provider, and what the tools answer in words.
 */
export const mcpMessages = {
  consentTitle: 'Allow an AI assistant to act for you',
  signedInAs: 'Signed in as {{name}}.',
  consentIntro: '{{client}} asks to use the developer portal for you. It will be able to:',
  /** The capabilities the `portal` scope grants, one line each. */
  capabilityRead: 'see your organizations and their applications',
  capabilityCreate: 'create development applications in your organizations',
  capabilitySubscribe: 'subscribe your applications to API products',
  capabilitySandbox: 'get sandbox access tokens for your applications and call the sandbox with them',
  capabilitySupport: 'open support tickets in your name',
  consentLimits:
    'It can do only what you can do in the portal, with your roles in each organization. It cannot go live, delete anything or change your account.',
  consentRevoke: 'The permission lasts until you sign out of the portal everywhere or change your password.',
  redirectNote: 'After you decide, you go back to {{uri}}.',
  allowButton: 'Allow',
  denyButton: 'Deny',
  denied: 'You did not allow the assistant to use the portal.',
  unknownClient: 'An unnamed assistant',
  tooManyRegistrations: 'Too many client registrations from this address. Try again later.',
  /** Tool answers. */
  signInRequired: 'This tool acts for a signed-in user: connect with the portal’s authorization.',
  tooManyCalls: 'Too many calls through the assistant. Try again in {{seconds}} seconds.',
  notFound: 'Nothing public matches {{what}}.',
  noResults: 'No results for “{{q}}”.',
  refused: 'The portal refused the call ({{status}}): {{reason}}',
} as const;
