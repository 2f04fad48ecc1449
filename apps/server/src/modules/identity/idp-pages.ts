/**
 * Server-rendered pages of the built-in identity provider: sign in, sign up, password reset.
 * Plain HTML forms (no JavaScript, so the strict CSP holds), labelled fields, errors announced
 * with role="alert". Every dynamic value goes through `esc`.
 */
const esc = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

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
.hint{font-size:13px;color:#55606f;margin-top:4px}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${esc(title)} - Developers Portal</title><style>${STYLE}</style></head>
<body><main><p class="brand">Developers Portal</p><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

const alert = (error?: string) => (error ? `<div class="alert" role="alert">${esc(error)}</div>` : '');

export function signInPage(opts: {
  action: string;
  signUpHref: string;
  resetHref: string;
  email?: string;
  error?: string;
}): string {
  return layout(
    'Sign in',
    `${alert(opts.error)}
<form method="post" action="${esc(opts.action)}" novalidate>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${esc(opts.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<div class="links"><a href="${esc(opts.signUpHref)}">Create an account</a><a href="${esc(opts.resetHref)}">Forgot your password?</a></div>`,
  );
}

export interface SignUpValues {
  firstName?: string;
  lastName?: string;
  email?: string;
}

export function signUpPage(opts: {
  action: string;
  signInHref: string;
  values?: SignUpValues;
  error?: string;
}): string {
  const v = opts.values ?? {};
  return layout(
    'Create your account',
    `${alert(opts.error)}
<form method="post" action="${esc(opts.action)}" novalidate>
<label for="firstName">First name</label><input id="firstName" name="firstName" autocomplete="given-name" required value="${esc(v.firstName ?? '')}" autofocus>
<label for="lastName">Last name</label><input id="lastName" name="lastName" autocomplete="family-name" required value="${esc(v.lastName ?? '')}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${esc(v.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least 8 characters.</p>
<button type="submit">Create account</button></form>
<div class="links"><a href="${esc(opts.signInHref)}">I already have an account</a></div>`,
  );
}

export function resetRequestPage(opts: {
  action: string;
  signInHref?: string;
  sent?: boolean;
  error?: string;
}): string {
  const body = opts.sent
    ? `<div class="ok" role="status">If an account exists for that address, we have sent it a link to choose a new password.</div>`
    : `${alert(opts.error)}<form method="post" action="${esc(opts.action)}" novalidate>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required autofocus>
<button type="submit">Send reset link</button></form>`;
  const back = opts.signInHref
    ? `<div class="links"><a href="${esc(opts.signInHref)}">Back to sign in</a></div>`
    : '';
  return layout('Reset your password', body + back);
}

export function resetPasswordPage(opts: {
  action: string;
  error?: string;
  done?: boolean;
  homeHref: string;
}): string {
  const body = opts.done
    ? `<div class="ok" role="status">Your password has been changed. You can now sign in.</div><div class="links"><a href="${esc(opts.homeHref)}">Go to the portal</a></div>`
    : `${alert(opts.error)}<form method="post" action="${esc(opts.action)}" novalidate>
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="8" autofocus>
<p class="hint">At least 8 characters.</p><button type="submit">Change password</button></form>`;
  return layout('Choose a new password', body);
}

export function errorPage(title: string, message: string, homeHref: string): string {
  return layout(
    title,
    `<div class="alert" role="alert">${esc(message)}</div><div class="links"><a href="${esc(homeHref)}">Go to the portal</a></div>`,
  );
}
