/**
 * The try-out console's token, kept for the documentation across a reload (issue 28): in the
 * tab's session storage only, with the user it was issued for, and removed on sign-out
 * (lib/session.ts) or when another user is signed in. Client secrets are never stored.
 */
export const TRYOUT_TOKEN_KEY = 'portico:tryout-token';

export interface StoredTryoutToken {
  /** The signed-in user's uuid when the token was issued. */
  user: string;
  clientId: string;
  accessToken: string;
  /** 'Bearer' or 'DPoP'. */
  tokenType: string;
  expiresAt: number;
  scopes: string[];
  refreshToken?: string;
}

export function loadTryoutToken(user: string | null): StoredTryoutToken | null {
  try {
    const raw = sessionStorage.getItem(TRYOUT_TOKEN_KEY);
    if (!raw) return null;
    const token = JSON.parse(raw) as StoredTryoutToken;
    if (!user || token.user !== user || typeof token.accessToken !== 'string') {
      sessionStorage.removeItem(TRYOUT_TOKEN_KEY);
      return null;
    }
    return token;
  } catch {
    return null;
  }
}

export function saveTryoutToken(token: StoredTryoutToken): void {
  try {
    sessionStorage.setItem(TRYOUT_TOKEN_KEY, JSON.stringify(token));
  } catch {
    // Storage full or refused: the token lives as long as the page.
  }
}

export function clearTryoutToken(): void {
  try {
    sessionStorage.removeItem(TRYOUT_TOKEN_KEY);
  } catch {
    // Storage refused: nothing was kept.
  }
}
