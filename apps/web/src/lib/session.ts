import { apiRequest, csrfToken } from './api-client';
import { useAppStore, type SessionUserBody } from './store';
import { safeReturnTo } from '@portico/contracts/return-to';
import { clearTryoutToken } from './tryout-token';
import { isLocale, type Locale } from '@portico/contracts/locales';
import { locale as pageLocale } from './i18n';
import { rememberLocale } from './locale-choice';

/**
 * The session calls of spec B 7 and the login flow of spec B 4: the return path is remembered
 * with the state nonce, the browser goes to the identity provider, and the callback exchanges
 * the code for a session.
 */
export async function fetchLoginStatus(): Promise<boolean> {
  const status = await apiRequest<number | string>('/user/login_status', {
    query: { _format: 'json' },
    format: 'json',
  });
  return String(status) === '1';
}

export async function fetchSessionUser(): Promise<SessionUserBody | null> {
  return apiRequest<SessionUserBody | null>('/session/user', { format: 'json' });
}

interface AuthorizationInfo {
  baseUrl: string;
  parameters: Record<string, string>;
}

export async function startLogin(returnTo: string, screen?: string): Promise<void> {
  const info = await apiRequest<AuthorizationInfo>('/openid-connect/authorization-info/generic', {
    format: 'json',
    query: { returnTo, screen },
  });
  const state = info.parameters.state;
  if (state) useAppStore.getState().rememberRedirect(state, returnTo);
  window.location.assign(`${info.baseUrl}?${new URLSearchParams(info.parameters).toString()}`);
}

interface LoginResponse extends SessionUserBody {
  csrfToken: string;
  returnTo: string | null;
}

/**
 * Completes the login; returns where to go next (the remembered path for this state, or /) and in
 * which language: the account's own when it has one (issue 30), else the page's.
 */
export async function completeLogin(query: URLSearchParams): Promise<{ to: string; locale: Locale }> {
  const res = await apiRequest<LoginResponse>('/openid-connect/generic', {
    format: 'json',
    query: Object.fromEntries(query),
  });
  const store = useAppStore.getState();
  const state = query.get('state') ?? '';
  const remembered = store.takeRedirect(state);
  signInsAndOuts += 1;
  store.loggedIn(res, res.csrfToken);
  const locale = isLocale(res.preferredLangcode) ? res.preferredLangcode : pageLocale;
  rememberLocale(locale);
  return { to: safePath(res.returnTo ?? remembered ?? '/'), locale };
}

export async function logout(): Promise<void> {
  signInsAndOuts += 1;
  try {
    // Logout is a GET (spec B); the server also wants it same-origin or with the CSRF token.
    await apiRequest('/user/logout', {
      query: { _format: 'json' },
      format: 'json',
      headers: { 'X-CSRF-Token': await csrfToken() },
    });
  } finally {
    // Even when the call fails (offline), the browser forgets the user, and the try-out's token.
    clearTryoutToken();
    useAppStore.getState().loggedOut();
  }
}

// Whether this page load asked for the signed-in user already (syncSession).
let userRefreshed = false;
// Counts this tab's own sign-ins and sign-outs: an answer asked for before one of them describes
// a session that is gone, and must not bring it back (a sign-out while syncSession waited).
let signInsAndOuts = 0;

/**
 * Compares the browser's idea of the session with the server's (spec B 2.1: on entry the guard
 * fetches the token and the login status). A session that ended on the server opens the expiry
 * modal; one started in another tab is picked up.
 */
export async function syncSession(): Promise<void> {
  const asked = signInsAndOuts;
  const [token, loggedIn] = await Promise.all([
    apiRequest<string>('/session/token', { format: 'json' }),
    fetchLoginStatus(),
  ]);
  if (asked !== signInsAndOuts) return;
  // The state as it is now, after the answers: another check may have changed it meanwhile.
  const store = useAppStore.getState();
  store.setToken(token);
  if (!loggedIn && store.applicationUser.isLoggedIn) store.sessionEnded();
  // Once per page load the signed-in user is asked for again too: provider roles granted or
  // withdrawn since the sign-in (issue 27) show after a reload, not only at the next sign-in.
  if (loggedIn && (!store.applicationUser.isLoggedIn || !userRefreshed)) {
    userRefreshed = true;
    const user = await fetchSessionUser();
    if (user && asked === signInsAndOuts) useAppStore.getState().loggedIn(user, token);
  }
}

/** Only same-site paths (the contracts' safeReturnTo, as the server checks it), else the home page. */
export function safePath(path: string): string {
  return safeReturnTo(path) ?? '/';
}
