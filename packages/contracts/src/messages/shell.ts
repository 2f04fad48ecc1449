/**
 * The areas of the message catalogue the web app's shell needs at once (messages.ts composes the
 * whole catalogue; the web app loads the other areas with the pages that use them, lib/i18n.ts).
 *
 * Every user-facing string of the portal, in one catalogue. The spec's exact wording lives here
 * once: the web app looks it up by dotted key (apps/web/src/lib/i18n.ts), the server uses it for the
 * messages it returns, and tests import it instead of repeating the text.
 * Keys are grouped by area; a second language is one more object of the same shape. Large areas
 * live in messages/<area>.ts, each owned by one feature, and are composed here.
 */
import { apiMessages } from './api.ts';
import { catalogMessages } from './catalog.ts';
import { identityMessages } from './identity.ts';
import { productsMessages } from './products.ts';
import { sandboxAuthMessages } from './sandbox-auth.ts';
import { quickstartMessages } from './quickstart.ts';

export const shellMessages = {
  site: {
    title: 'Developers Portal',
    skipToContent: 'Skip to content',
    copyright: '© 2019 Developers Portal. All rights reserved.',
  },
  home: {
    hero: 'CONNECT ON A GLOBAL SCALE',
    discoverApis: 'DISCOVER APIs',
    register: 'REGISTER',
    internalLine: 'This is the developer portal for internal developers.',
    featuredApis: 'FEATURED APIs',
    latestPosts: 'LATEST BLOG POSTS',
    previousSlide: 'Previous slide',
    nextSlide: 'Next slide',
    startTitle: 'START',
    step1Title: 'Join or create an organization',
    step1Text: 'Applications belong to organizations: create one for your team or accept an invitation.',
    step1Action: 'MY ORGANIZATIONS',
    step2Title: 'Pick your APIs',
    step2Text: 'Browse the API products, read their documentation and subscribe an application.',
    step2Action: 'API PRODUCTS',
    step3Title: 'Try it and go live',
    step3Text: 'Call the sandbox with your development credentials, then ask to go live.',
    step3Action: 'GETTING STARTED',
  },
  menu: {
    home: 'HOME',
    gettingStarted: 'GETTING STARTED',
    apiProducts: 'API PRODUCTS',
    apps: 'APPS',
    support: 'SUPPORT',
    blog: 'BLOG',
    faqs: 'FAQS',
    search: 'Search',
    cookieSettings: 'Cookie settings',
    mainMenu: 'Main menu',
    openMenu: 'Open menu',
  },
  user: {
    welcome: 'Welcome {{name}}',
    myProfile: 'My Profile',
    signOut: 'Sign Out',
    login: 'LOGIN',
    signUp: 'SIGN UP',
  },
  errors: {
    notFoundTitle: '404 NOT FOUND',
    notFoundText: 'We were not able to find this page.',
    loginToView: 'LOGIN TO VIEW',
    onlyMembers: 'Only logged in members have access to this page',
    unauthorized: 'UNAUTHORIZED',
    notAllowed: 'You are not allowed to view this page.',
    sessionExpired: 'Your session has expired',
    sessionExpiredText: 'Please log in again to continue.',
    browserNotSupported: 'Browser not supported',
    browserNotSupportedText:
      'Internet Explorer is not supported. Please use a recent version of Chrome, Firefox, Edge or Safari.',
    somethingWentWrong: 'Something went wrong.',
    loginFailed: 'Something went wrong, please try again later.',
    goHome: 'Go to the home page',
  },
  session: {
    loggingIn: 'Signing you in…',
    loggingOut: 'Signing you out…',
  },
  cookies: {
    popupBody:
      'This website uses cookies to ensure you get the best experience and top navigation on our website.',
    ok: 'OK',
    decline: 'Decline',
    analyticsLabel: 'I accept the use of cookies for analytics',
    settingsTitle: 'Cookie settings',
    technicalTitle: 'Technical cookies',
    technicalText:
      'These cookies are necessary for the site to work and cannot be switched off. The session cookie (its name starts with SESS) keeps you signed in.',
    analysisTitle: 'Analysis cookies',
    analysisText:
      'These optional cookies (_ga, _gat, _gid) help us understand how the site is used so that we can improve it.',
    save: 'Save',
    saved: 'Updated cookie preferences successfully.',
    privacyLink: 'Privacy policy',
    settingsLink: 'Cookie settings',
  },
  newsletter: {
    title: 'Subscribe to our newsletter',
    email: 'Email',
    subscribe: 'SUBSCRIBE',
    success: 'Thank you for subscribing.',
    failure: 'We could not subscribe you. Try again later.',
    required: 'Required',
    invalidEmail: 'Invalid email',
  },
  footer: {
    privacy: 'Privacy',
    terms: 'Terms',
    backToTop: 'Back to top',
  },
  products: productsMessages,
  catalog: catalogMessages,
  api: apiMessages,
  identity: identityMessages,
  sandboxAuth: sandboxAuthMessages,
  // The layout's Quick Start button is on every page.
  quickstart: quickstartMessages,
  profile: {
    email: 'E-mail',
    firstName: 'First name',
    lastName: 'Last name',
    save: 'Save',
    saved: 'Your profile has been saved.',
  },
  form: {
    required: 'Required',
    invalidEmail: 'Invalid email',
  },
  dialog: {
    /** The accessible name of every modal's and drawer's close button. */
    close: 'Close',
  },
} as const;
