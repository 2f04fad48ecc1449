/**
 * Client secret rotation with overlap (issue 28): the application view's secrets list, the
 * Rotate and Revoke dialogs, the API's errors and the expiry reminder e-mails. `{{name}}` marks a
 * placeholder.
 */
export const clientSecretsMessages = {
  heading: 'Client secrets',
  headingProduction: 'Client secrets (Production)',
  intro:
    'Rotate adds a new secret while the previous ones keep working for the grace period you choose. Reset Secret replaces every secret at once.',
  listLabel: 'Client secrets of the {{environment}} credentials',
  created: 'Created',
  expires: 'Expires',
  status: 'Status',
  actions: 'Actions',
  current: 'Current',
  noExpiry: 'Never (current secret)',
  active: 'Active until it expires',
  expired: 'Expired',
  loading: 'Loading the client secrets…',
  loadFailed: 'The client secrets could not be loaded.',
  rotate: 'Rotate',
  rotateTitle: 'Rotate the client secret',
  rotateIntro:
    'A new secret becomes the current one. The previous secret keeps working for the grace period, then the token endpoint refuses it.',
  gracePeriod: 'Grace period of the previous secret',
  graceHours: {
    '1': '1 hour',
    '6': '6 hours',
    '24': '1 day',
    '72': '3 days',
    '168': '7 days',
    '336': '14 days',
    '720': '30 days',
  },
  rotateConfirm: 'Rotate',
  cancel: 'Cancel',
  rotated: 'The secret was rotated. The previous secret works until {{expires}}.',
  newSecret: 'New client secret',
  revoke: 'Revoke',
  revokeLabel: 'Revoke the secret created {{created}}',
  revokeTitle: 'Revoke this secret?',
  revokeConfirmText:
    'The secret created {{created}} stops working at once: token requests with it are refused.',
  revokeConfirm: 'Revoke secret',
  revoked: 'The secret was revoked.',
  errors: {
    gracePeriod: 'The grace period must be a whole number of hours from 1 (1 hour) to 720 (30 days).',
    environment: "The environment must be 'DEVELOPMENT' or 'PRODUCTION'.",
    publicClient: 'This client is public and has no secret to rotate.',
    unknownSecret: 'This application has no such client secret.',
    currentSecret:
      'The current secret cannot be revoked: rotate first, or use Reset Secret to replace every secret at once.',
    expiredAtToken: 'The client secret expired at {{expiresAt}}; use the current secret.',
  },
  reminder: {
    weekSubject: 'A client secret of {{application}} expires in a week',
    daySubject: 'A client secret of {{application}} expires within a day',
    text: 'A client secret of the application {{application}} ({{environment}} credentials, client id {{clientId}}) expires at {{expiresAt}}.\n\nAfter that, token requests with this secret are refused. Make sure every system uses the current secret, then revoke the old one:\n{{link}}\n',
  },
};
