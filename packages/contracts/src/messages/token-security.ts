/** The application's token security: DPoP-bound tokens and the FAPI 2.0 profile (issue 28). */
export const tokenSecurityMessages = {
  title: 'Token security',
  intro:
    'Sender-constrained tokens cannot be used by whoever steals them: the sandbox only accepts them with a proof made with your application’s key.',
  dpopLabel: 'DPoP-bound tokens',
  dpopDescription:
    'Access tokens are bound to a key of your application (RFC 9449): send each call with "Authorization: DPoP <token>" and a fresh DPoP proof.',
  fapiLabel: 'FAPI 2.0',
  fapiDescription:
    'The FAPI 2.0 Security Profile: pushed authorization requests, PKCE, sender-constrained tokens and 10-minute access tokens.',
  fapiNeedsKeyAuth: 'FAPI 2.0 requires signed JWT or mutual TLS client authentication',
  save: 'Save token security',
  saved: 'Token security saved.',
  invalidBody: 'Send dpopBoundAccessTokens and fapi as true or false.',
  productionLocked: 'You cannot edit a production application.',
} as const;
