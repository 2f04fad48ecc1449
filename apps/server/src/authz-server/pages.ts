/**
 * Server-rendered pages of the sandbox's authorization server (/oauth): the bank customer's
 * sign-in and the consent to an application's access. Plain HTML forms without JavaScript (the
 * strict CSP holds), labelled fields, errors announced with role="alert". The texts are the
 * `pages` namespace's `sandboxAuth.*` in the page's language (lib/i18n.ts; English is the
 * catalogue's en.sandboxAuth), set as the page's `lang`; they and every dynamic value go through `esc`.
 */
import type { sandboxAuthMessages } from '@portico/contracts/messages/sandbox-auth';
import type { Locale } from '@portico/contracts/locales';
import { escapeHtml as esc } from '../lib/html.ts';
import { fillHtml, texts, type Texts, siteTitle } from '../lib/i18n.ts';

export type SandboxAuthKey = keyof typeof sandboxAuthMessages;
/** The sandbox bank's texts in a language (`pages` namespace, `sandboxAuth.*`). */
export const sandboxTexts = (locale: Locale): Texts<SandboxAuthKey> =>
  texts<SandboxAuthKey>(locale, 'pages', 'sandboxAuth');

const STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef3f1;color:#17302a}
main{max-width:440px;margin:8vh auto;background:#fff;border-radius:10px;box-shadow:0 4px 24px rgba(20,60,50,.12);padding:32px}
.brand{font-weight:700;color:#1d6b57;letter-spacing:.04em;margin:0 0 6px;font-size:14px;text-transform:uppercase}
.note{font-size:13px;color:#4f625d;margin:0 0 20px}
h1{font-size:24px;margin:0 0 20px}label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
input{width:100%;padding:10px 12px;border:1px solid #b5c6c0;border-radius:6px;font-size:16px}
input:focus{outline:3px solid #8fd1bd;border-color:#1d6b57}
button{margin-top:22px;width:100%;padding:12px;border:0;border-radius:6px;background:#1d6b57;color:#fff;font-size:16px;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#1d6b57;border:1px solid #1d6b57;margin-top:10px}
button:focus{outline:3px solid #8fd1bd}.alert{background:#fdecec;color:#8a1c1c;border-radius:6px;padding:10px 12px;margin-bottom:8px}
ul{padding-left:20px}li{margin:4px 0}code{background:#eef3f1;padding:1px 5px;border-radius:4px}`;

function layout(M: Texts<SandboxAuthKey>, title: string, body: string): string {
  return `<!doctype html><html lang="${M.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${fillHtml(M, 'documentTitle', { title: esc(title), site: esc(siteTitle(M.locale)) })}</title><style>${STYLE}</style></head>
<body><main><p class="brand">${esc(M('brand'))}</p><p class="note">${esc(M('note'))}</p><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

const alert = (error?: string) => (error ? `<div class="alert" role="alert">${esc(error)}</div>` : '');

export function sandboxSignInPage(opts: {
  locale: Locale;
  action: string;
  clientId: string;
  username?: string;
  error?: string;
}): string {
  const M = sandboxTexts(opts.locale);
  return layout(
    M,
    M('signInTitle'),
    `${alert(opts.error)}
<p>${fillHtml(M, 'signInIntro', { client: `<code>${esc(opts.clientId)}</code>` })}</p>
<form method="post" action="${esc(opts.action)}" novalidate>
<label for="username">${esc(M('usernameLabel'))}</label><input id="username" name="username" autocomplete="username" required autofocus value="${esc(opts.username ?? '')}">
<label for="password">${esc(M('passwordLabel'))}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${esc(M('signInButton'))}</button></form>`,
  );
}

export function sandboxConsentPage(opts: {
  locale: Locale;
  action: string;
  denyAction: string;
  clientId: string;
  customerName: string;
  scopes: string[];
}): string {
  const M = sandboxTexts(opts.locale);
  const list = opts.scopes.length
    ? `<ul>${opts.scopes.map((s) => `<li><code>${esc(s)}</code></li>`).join('')}</ul>`
    : `<p>${esc(M('noScopes'))}</p>`;
  return layout(
    M,
    M('consentTitle'),
    `<p>${fillHtml(M, 'signedInAs', { name: `<strong>${esc(opts.customerName)}</strong>` })}</p>
<p>${fillHtml(M, 'consentIntro', { client: `<code>${esc(opts.clientId)}</code>` })}</p>${list}
<form method="post" action="${esc(opts.action)}"><button type="submit">${esc(M('allowButton'))}</button></form>
<form method="post" action="${esc(opts.denyAction)}"><button type="submit" class="secondary">${esc(M('denyButton'))}</button></form>`,
  );
}

/** An error page: `title` is a key of `sandboxAuth.*`, `message` the text to show. */
export function sandboxErrorPage(locale: Locale, title: SandboxAuthKey, message: string): string {
  const M = sandboxTexts(locale);
  return layout(M, M(title), `<div class="alert" role="alert">${esc(message)}</div>`);
}

/** sca.fails after the password: the second step failed; the button ends the authorization. */
export function sandboxScaFailedPage(opts: { locale: Locale; action: string }): string {
  const M = sandboxTexts(opts.locale);
  return layout(
    M,
    M('scaFailedTitle'),
    `<div class="alert" role="alert">${esc(M('scaFailed'))}</div>
<form method="post" action="${esc(opts.action)}"><input type="hidden" name="reason" value="sca"><button type="submit">${esc(M('scaBackButton'))}</button></form>`,
  );
}
