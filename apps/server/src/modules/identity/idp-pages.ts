/**
 * Server-rendered pages of the built-in identity provider: sign in, sign up, password reset.
 * Plain HTML forms (no JavaScript, so the strict CSP holds), labelled fields, errors announced
 * with role="alert". The texts are the `pages` namespace's `identity.*` in the page's language
 * (lib/i18n.ts; English is the catalogue's en.identity), set as the page's `lang`; they and every
 * dynamic value go through `esc`.
 */
import type { identityMessages } from '@portico/contracts/messages/identity';
import type { mcpMessages } from '@portico/contracts/messages/mcp';
import type { Locale } from '@portico/contracts/locales';
import { escapeHtml as esc } from '../../lib/html.ts';
import { fillHtml, texts, type Texts, siteTitle } from '../../lib/i18n.ts';

/** The identity provider's texts in a language (`pages` namespace, `identity.*`). */
export type IdentityKey = keyof typeof identityMessages;
export const identityTexts = (locale: Locale): Texts<IdentityKey> =>
  texts<IdentityKey>(locale, 'pages', 'identity');

/**
 * The texts of an assistant's consent page in a language (`pages` namespace, `mcp.*`: the page's
 * keys of the catalogue's en.mcp; the tools' answers are not there).
 */
type McpKey = keyof typeof mcpMessages;
const mcpTexts = (locale: Locale): Texts<McpKey> => texts<McpKey>(locale, 'pages', 'mcp');

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f4f8;color:#1a2433}
main{max-width:420px;margin:8vh auto;background:#fff;border-radius:10px;box-shadow:0 4px 24px rgba(20,40,80,.12);padding:32px}
.brand{font-weight:700;color:#1c4e80;letter-spacing:.04em;margin:0 0 20px;font-size:14px;text-transform:uppercase}
h1{font-size:24px;margin:0 0 20px}label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
input{width:100%;padding:10px 12px;border:1px solid #b9c3d1;border-radius:6px;font-size:16px}
input:focus{outline:3px solid #8ab4f8;border-color:#1c4e80}
button{margin-top:22px;width:100%;padding:12px;border:0;border-radius:6px;background:#1c4e80;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
button:focus{outline:3px solid #8ab4f8}.alert{background:#fdecec;color:#8a1c1c;border-radius:6px;padding:10px 12px;margin-bottom:8px}
.ok{background:#e7f6ec;color:#185c2f;border-radius:6px;padding:10px 12px;margin-bottom:8px}
.links{margin-top:18px;display:flex;justify-content:space-between;font-size:14px}a{color:#1c4e80}
.hint{font-size:13px;color:#55606f;margin-top:4px}
ul{padding-left:20px}li{margin:6px 0}code{background:#f1f4f8;padding:1px 5px;border-radius:4px}
button.secondary{background:#fff;color:#1c4e80;border:1px solid #1c4e80;margin-top:10px}`;

function layout(M: Texts<IdentityKey>, title: string, body: string): string {
  return `<!doctype html><html lang="${M.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${fillHtml(M, 'documentTitle', { title: esc(title), site: esc(siteTitle(M.locale)) })}</title><style>${STYLE}</style></head>
<body><main><p class="brand">${esc(siteTitle(M.locale))}</p><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

const alert = (error?: string) => (error ? `<div class="alert" role="alert">${esc(error)}</div>` : '');

export function signInPage(opts: {
  locale: Locale;
  action: string;
  signUpHref: string;
  resetHref: string;
  email?: string;
  error?: string;
}): string {
  const M = identityTexts(opts.locale);
  return layout(
    M,
    M('signInTitle'),
    `${alert(opts.error)}
<form method="post" action="${esc(opts.action)}" novalidate>
<label for="email">${esc(M('emailLabel'))}</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${esc(opts.email ?? '')}">
<label for="password">${esc(M('passwordLabel'))}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${esc(M('signInButton'))}</button></form>
<div class="links"><a href="${esc(opts.signUpHref)}">${esc(M('createAccountLink'))}</a><a href="${esc(opts.resetHref)}">${esc(M('forgotPasswordLink'))}</a></div>`,
  );
}

export interface SignUpValues {
  firstName?: string;
  lastName?: string;
  email?: string;
}

export function signUpPage(opts: {
  locale: Locale;
  action: string;
  signInHref: string;
  values?: SignUpValues;
  error?: string;
}): string {
  const M = identityTexts(opts.locale);
  const v = opts.values ?? {};
  return layout(
    M,
    M('signUpTitle'),
    `${alert(opts.error)}
<form method="post" action="${esc(opts.action)}" novalidate>
<label for="firstName">${esc(M('firstNameLabel'))}</label><input id="firstName" name="firstName" autocomplete="given-name" required value="${esc(v.firstName ?? '')}" autofocus>
<label for="lastName">${esc(M('lastNameLabel'))}</label><input id="lastName" name="lastName" autocomplete="family-name" required value="${esc(v.lastName ?? '')}">
<label for="email">${esc(M('emailLabel'))}</label><input id="email" name="email" type="email" autocomplete="email" required value="${esc(v.email ?? '')}">
<label for="password">${esc(M('passwordLabel'))}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-hint">
<p class="hint" id="password-hint">${esc(M('passwordHint'))}</p>
<button type="submit">${esc(M('createAccountButton'))}</button></form>
<div class="links"><a href="${esc(opts.signInHref)}">${esc(M('haveAccountLink'))}</a></div>`,
  );
}

export function resetRequestPage(opts: {
  locale: Locale;
  action: string;
  signInHref?: string;
  sent?: boolean;
  error?: string;
}): string {
  const M = identityTexts(opts.locale);
  const body = opts.sent
    ? `<div class="ok" role="status">${esc(M('resetSent'))}</div>`
    : `${alert(opts.error)}<form method="post" action="${esc(opts.action)}" novalidate>
<label for="email">${esc(M('emailLabel'))}</label><input id="email" name="email" type="email" autocomplete="email" required autofocus>
<button type="submit">${esc(M('sendResetLink'))}</button></form>`;
  const back = opts.signInHref
    ? `<div class="links"><a href="${esc(opts.signInHref)}">${esc(M('backToSignIn'))}</a></div>`
    : '';
  return layout(M, M('resetTitle'), body + back);
}

export function resetPasswordPage(opts: {
  locale: Locale;
  action: string;
  error?: string;
  done?: boolean;
  homeHref: string;
}): string {
  const M = identityTexts(opts.locale);
  const body = opts.done
    ? `<div class="ok" role="status">${esc(M('passwordChanged'))}</div><div class="links"><a href="${esc(opts.homeHref)}">${esc(M('goToPortal'))}</a></div>`
    : `${alert(opts.error)}<form method="post" action="${esc(opts.action)}" novalidate>
<label for="password">${esc(M('newPasswordLabel'))}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" autofocus>
<p class="hint">${esc(M('passwordHint'))}</p><button type="submit">${esc(M('changePasswordButton'))}</button></form>`;
  return layout(M, M('newPasswordTitle'), body);
}

export function verifyEmailPage(opts: {
  locale: Locale;
  action: string;
  email: string;
  homeHref: string;
  done?: boolean;
}): string {
  const M = identityTexts(opts.locale);
  const body = opts.done
    ? `<div class="ok" role="status">${esc(M('verifyDone'))}</div><div class="links"><a href="${esc(opts.homeHref)}">${esc(M('goToPortal'))}</a></div>`
    : `<p>${fillHtml(M, 'verifyIntro', { email: `<strong>${esc(opts.email)}</strong>` })}</p>
<form method="post" action="${esc(opts.action)}"><button type="submit">${esc(M('verifyButton'))}</button></form>`;
  return layout(M, M('verifyTitle'), body);
}

/** An error page: `title` is a key of `identity.*`, `message` the text to show. */
export function errorPage(locale: Locale, title: IdentityKey, message: string, homeHref: string): string {
  const M = identityTexts(locale);
  return layout(
    M,
    M(title),
    `<div class="alert" role="alert">${esc(message)}</div><div class="links"><a href="${esc(homeHref)}">${esc(M('goToPortal'))}</a></div>`,
  );
}

/**
 * The consent an assistant (an MCP client) asks for: who asks, what it may do, where it goes back.
 * `clientName`: the client's registered name, or undefined for the page's "unnamed assistant".
 */
export function agentConsentPage(opts: {
  locale: Locale;
  action: string;
  denyAction: string;
  clientName: string | undefined;
  userName: string;
  redirectHost: string;
}): string {
  const A = mcpTexts(opts.locale);
  const capabilities = [
    A('capabilityRead'),
    A('capabilityCreate'),
    A('capabilitySubscribe'),
    A('capabilitySandbox'),
    A('capabilitySupport'),
  ];
  const client = opts.clientName || A('unknownClient');
  return layout(
    identityTexts(opts.locale),
    A('consentTitle'),
    `<p>${fillHtml(A, 'signedInAs', { name: `<strong>${esc(opts.userName)}</strong>` })}</p>
<p>${fillHtml(A, 'consentIntro', { client: `<strong>${esc(client)}</strong>` })}</p>
<ul>${capabilities.map((c) => `<li>${esc(c)}</li>`).join('')}</ul>
<p class="hint">${esc(A('consentLimits'))}</p>
<p class="hint">${esc(A('consentRevoke'))}</p>
<p class="hint">${fillHtml(A, 'redirectNote', { uri: `<code>${esc(opts.redirectHost)}</code>` })}</p>
<form method="post" action="${esc(opts.action)}"><button type="submit">${esc(A('allowButton'))}</button></form>
<form method="post" action="${esc(opts.denyAction)}"><button type="submit" class="secondary">${esc(A('denyButton'))}</button></form>`,
  );
}
