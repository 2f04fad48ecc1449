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

  // Error pages
  signInExpiredTitle: 'Sign-in expired',
  interactionExpired: 'Your sign-in has expired. Please start again from the portal.',
  signInProblemTitle: 'Sign-in problem',
  requestNotProcessed: 'The sign-in request could not be processed.',

  // The portal's return from the provider (/openid-connect/generic), shown by the web app
  loginStateUnknown: 'This sign-in link has expired or was already used. Please log in again.',
  loginFailed: 'We could not sign you in. Please try again.',
  providerRefused: 'The identity provider refused the sign-in: {{error}}',
} as const;
