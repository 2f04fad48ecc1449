/**
 * The built-in identity provider's pages (sign in, sign up, password reset) and e-mail, and the
 * portal's own sign-in messages (issue 2). `{{site}}` is the portal's name, en.site.title.
 */
export const identityMessages = {
  // Every page
  documentTitle: '{{title}} - {{site}}',
  goToPortal: 'Go to the portal',

  // Sign in
  signInTitle: 'Sign in',
  emailLabel: 'Email',
  passwordLabel: 'Password',
  signInButton: 'Sign in',
  createAccountLink: 'Create an account',
  forgotPasswordLink: 'Forgot your password?',
  invalidCredentials: 'Invalid email or password.',
  tooManyAttempts: 'Too many sign-in attempts. Try again in 15 minutes.',
  /** Growing delays (not a lock): `{{wait}}` is waitSeconds or waitMinutes filled in. */
  signInThrottled: 'Too many failed sign-in attempts. Wait {{wait}} before you try again.',
  waitSeconds: '{{count}} seconds',
  waitMinutes: '{{count}} minutes',

  // Sign up
  signUpTitle: 'Create your account',
  firstNameLabel: 'First name',
  lastNameLabel: 'Last name',
  passwordHint: 'At least 8 characters.',
  createAccountButton: 'Create account',
  haveAccountLink: 'I already have an account',
  emailTaken: 'An account with this email already exists.',
  invalidEmail: 'Enter a valid email address.',
  passwordTooShort: 'The password must be at least 8 characters long.',
  namesRequired: 'Enter your first and last name.',
  nameTooLong: 'A name may be at most 100 characters long.',
  emailTooLong: 'An email address may be at most 254 characters long.',
  passwordTooLong: 'The password may be at most 200 characters long.',

  // Password reset
  resetTitle: 'Reset your password',
  sendResetLink: 'Send reset link',
  backToSignIn: 'Back to sign in',
  resetSent: 'If an account exists for that address, we have sent it a link to choose a new password.',
  resetMailSubject: 'Reset your {{site}} password',
  resetMailText:
    'Hello {{name}},\n\nUse this link within one hour to choose a new password:\n{{link}}\n\nIf you did not ask for this, ignore this e-mail.',
  newPasswordTitle: 'Choose a new password',
  newPasswordLabel: 'New password',
  changePasswordButton: 'Change password',
  passwordChanged: 'Your password has been changed. You can now sign in.',
  resetLinkInvalid: 'This password reset link is invalid or has expired.',

  // E-mail verification (issue 10): sign-up proves nothing until the link is opened
  verifyMailSubject: 'Confirm your email address for {{site}}',
  verifyMailText:
    'Hello {{name}},\n\nPlease confirm that {{email}} is your address by opening this link within 24 hours:\n{{link}}\n\nIf you did not create an account, ignore this e-mail.',
  verifyTitle: 'Confirm your email address',
  verifyIntro: 'Confirm that {{email}} is your address.',
  verifyButton: 'Confirm my address',
  verifyDone: 'Thank you: your email address is confirmed.',
  verifyLinkInvalid: 'This confirmation link is invalid, was already used or has expired.',
  emailNotVerified:
    'Please confirm your email address: open the link we sent to {{email}}. Until then you cannot accept invitations.',
  resendVerification: 'Resend verification e-mail',
  verificationSent: 'We sent a new confirmation link to {{email}}.',
  alreadyVerified: 'Your email address is already confirmed.',
  tooManyVerificationMails: 'Too many confirmation e-mails. Try again in an hour.',
  verifyEmailFirst: 'Confirm your email address first: open the link we sent you, then try again.',

  // Logout
  logoutCrossSite: 'Logout was refused: it did not come from this site.',

  // Error pages
  signInExpiredTitle: 'Sign-in expired',
  interactionExpired: 'Your sign-in has expired. Please start again from the portal.',
  signInProblemTitle: 'Sign-in problem',
  requestNotProcessed: 'The sign-in request could not be processed.',

  // The portal's return from the provider (/openid-connect/generic), shown by the web app
  loginStateUnknown: 'This sign-in link has expired or was already used. Please log in again.',
  loginFailed: 'We could not sign you in. Please try again.',
  accountBlocked: "This account has been blocked. Please contact the portal's support.",
  providerRefused: 'The identity provider refused the sign-in: {{error}}',
} as const;
