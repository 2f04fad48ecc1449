/**
 * The sandbox authorization server's pages (/oauth): a demo bank customer's sign-in and consent
 * to an application's access. `{{site}}` is the portal's name, en.site.title; `{{client}}` is the
 * application's client id and `{{name}}` the customer's name, both set in code on the page.
 */
export const sandboxAuthMessages = {
  // Every page
  documentTitle: '{{title}} - {{site}} sandbox',
  brand: 'Sandbox bank',
  note: 'A demo bank for trying out APIs: no real accounts or money.',

  // Sign in
  signInTitle: 'Sandbox bank sign-in',
  signInIntro: 'Application {{client}} asks you to sign in to your sandbox bank account.',
  usernameLabel: 'Username',
  passwordLabel: 'Password',
  signInButton: 'Sign in',
  invalidCredentials: 'Invalid username or password.',
  tooManyAttempts: 'Too many failed sign-in attempts. Wait {{seconds}} seconds before you try again.',

  // Consent
  consentTitle: 'Allow access?',
  signedInAs: 'Signed in as {{name}}.',
  unknownCustomer: 'a sandbox customer',
  consentIntro: 'Application {{client}} asks for access to:',
  noScopes: 'No API scopes: the application only learns that you signed in.',
  allowButton: 'Allow',
  denyButton: 'Deny',
  // Sent to the application as error_description with error=access_denied.
  denied: 'The customer denied the access request.',

  // Scripted customers (authz-server/scripted-customers.ts, README 'Sandbox customers').
  scaFailedTitle: 'Strong customer authentication failed',
  scaFailed:
    'We could not confirm it is you: the approval in your sandbox banking app was declined. Your password was right, but without this second step the application gets no access.',
  scaBackButton: 'Back to the application',
  // Sent to the application as error_description with error=access_denied.
  scaFailedDescription:
    'Strong customer authentication failed: the customer did not confirm the second factor.',
  consentRejected: 'The customer rejected the consent request.',
  // Sent with error=invalid_grant when consent.revoked's refresh token is used.
  consentRevoked:
    'The customer revoked the consent for this application; ask the customer to authorize again.',
  // The sandbox's 401 invalid_token for an access token of a revoked consent.
  consentRevokedToken:
    'the customer revoked the consent this access token was issued under; ask the customer to authorize again',

  // Error pages
  signInExpiredTitle: 'Sign-in expired',
  interactionExpired: 'This sign-in has expired. Start again from the application.',
  authorizationProblemTitle: 'Authorization problem',
  requestNotProcessed: 'The authorization request could not be processed.',
} as const;
