import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { PERSIST_VERSION } from '@portico/contracts/constants';

/**
 * Client state (spec B 3 'Current user', 4 'Persistence'): only applicationUser, tryout and
 * cookies are persisted (version 1, with a migration hook). Server data lives in TanStack Query,
 * not here. On logout the persisted state is reset except the cookie choices.
 */
export interface ApplicationUser {
  isLoggedIn: boolean;
  manuallyLoggedOut: boolean;
  /** The session's CSRF token (GET /session/token). */
  token: string | null;
  name: string | null;
  mail: string | null;
  uid: number | null;
  uuid: string | null;
  /** As the server sent them: the route guard refuses any role other than user and anonymous. */
  roles: string[];
  isAdmin: boolean;
  /** Provider roles (issue 27): which parts of the console at /admin the user may use. */
  providerRoles: string[];
  /**
   * False while the signed-in account has not opened the link sent to its address. Kept with the
   * user so that the notice asking for it comes with the page's first render, not after a fetch.
   */
  emailVerified: boolean;
  /**
   * The signed-in user's completed Quick Start stories, as the server keeps them. An anonymous
   * visitor's are in the Quick Start store (lib/quickstart-store.ts): logout resets this object.
   */
  completedStories: string[];
  /** Return paths keyed by the login state nonce. */
  redirects: Record<string, string>;
  /** The text of the last login response when it was a string, or its error message. */
  loginError: string | null;
}

export interface TryoutHistoryItem {
  uuid: string;
  documentationId: string;
  method: string;
  path: string;
  description: string;
  form: {
    header: Record<string, string>;
    query: Record<string, string>;
    path: Record<string, string>;
    body: string;
  };
  response: { status: number; data: unknown } | null;
  created: number;
  favorite: boolean;
  imported: boolean;
  fromTour: boolean;
}

export interface TryoutState {
  history: TryoutHistoryItem[];
  /**
   * The try-out console's value history (spec B 3): per 'documentation method path', the last
   * values of each field ('query.limit'), newest first. Never secrets.
   */
  values: Record<string, Record<string, string[]>>;
}

export interface CookiesState {
  /** 'accept' or 'dismiss' once the visitor answered the popup; null shows it. */
  cookiesConsentAction: 'accept' | 'dismiss' | null;
  cookiesEnabled: { analytics: boolean };
}

export interface SessionUserBody {
  uid: number;
  uuid: string;
  name: string;
  mail: string;
  roles: string[];
  isAdmin: boolean;
  /** Absent from servers before the provider console (issue 27). */
  providerRoles?: string[];
  /** False until the account opens the link sent to its address (not persisted). */
  emailVerified?: boolean;
  completedStories: string[];
  /** The account's language (issue 30), null until the user chooses one. */
  preferredLangcode?: string | null;
}

interface AppState {
  applicationUser: ApplicationUser;
  tryout: TryoutState;
  cookies: CookiesState;
  /** Not persisted: the 'Your session has expired' modal. */
  sessionExpired: boolean;
  /**
   * Not persisted: a Quick Start story or a documentation's tour is running (set by the tour
   * runner while it is mounted). The try-out console marks the calls sent meanwhile fromTour.
   */
  tourRunning: boolean;
  setToken(token: string): void;
  rememberRedirect(state: string, returnTo: string): void;
  takeRedirect(state: string): string | undefined;
  loggedIn(user: SessionUserBody, token: string): void;
  loginFailed(message: string): void;
  /** The server says the session is gone (expiry or logout elsewhere). */
  sessionEnded(): void;
  loggedOut(): void;
  setSessionExpired(open: boolean): void;
  setCookieConsent(action: 'accept' | 'dismiss', analytics: boolean): void;
  setTryout(update: (t: TryoutState) => TryoutState): void;
  setCompletedStories(stories: string[]): void;
  setTourRunning(running: boolean): void;
}

export const initialApplicationUser: ApplicationUser = {
  isLoggedIn: false,
  manuallyLoggedOut: false,
  token: null,
  name: null,
  mail: null,
  uid: null,
  uuid: null,
  roles: ['anonymous'],
  isAdmin: false,
  providerRoles: [],
  emailVerified: true,
  completedStories: [],
  redirects: {},
  loginError: null,
};
const initialTryout: TryoutState = { history: [], values: {} };
const initialCookies: CookiesState = { cookiesConsentAction: null, cookiesEnabled: { analytics: false } };

export const useAppStore = create<AppState>()(
  persist(
    (set, get) => ({
      applicationUser: initialApplicationUser,
      tryout: initialTryout,
      cookies: initialCookies,
      sessionExpired: false,
      tourRunning: false,
      setToken: (token) => set((s) => ({ applicationUser: { ...s.applicationUser, token } })),
      rememberRedirect: (state, returnTo) =>
        set((s) => ({
          applicationUser: {
            ...s.applicationUser,
            redirects: { ...s.applicationUser.redirects, [state]: returnTo },
          },
        })),
      takeRedirect: (state) => {
        const { redirects } = get().applicationUser;
        const target = redirects[state];
        const rest = { ...redirects };
        delete rest[state];
        set((s) => ({ applicationUser: { ...s.applicationUser, redirects: rest } }));
        return target;
      },
      loggedIn: (user, token) =>
        set((s) => ({
          sessionExpired: false,
          applicationUser: {
            ...s.applicationUser,
            isLoggedIn: true,
            manuallyLoggedOut: false,
            loginError: null,
            token,
            name: user.name,
            mail: user.mail,
            uid: user.uid,
            uuid: user.uuid,
            roles: user.roles,
            isAdmin: user.isAdmin,
            providerRoles: user.providerRoles ?? [],
            emailVerified: user.emailVerified !== false,
            completedStories: user.completedStories,
          },
        })),
      loginFailed: (message) =>
        set((s) => ({ applicationUser: { ...s.applicationUser, isLoggedIn: false, loginError: message } })),
      sessionEnded: () =>
        set((s) => ({
          // The manual-logout flag decides whether the expiry modal shows (spec B 2.2). Two session
          // checks that both saw the session end (a page and its layout mounting together) must
          // not close the modal the first one opened.
          sessionExpired:
            s.sessionExpired || (!s.applicationUser.manuallyLoggedOut && s.applicationUser.isLoggedIn),
          applicationUser: {
            ...initialApplicationUser,
            manuallyLoggedOut: s.applicationUser.manuallyLoggedOut,
          },
          tryout: initialTryout,
        })),
      loggedOut: () =>
        set({
          sessionExpired: false,
          applicationUser: { ...initialApplicationUser, manuallyLoggedOut: true },
          tryout: initialTryout,
        }),
      setSessionExpired: (open) => set({ sessionExpired: open }),
      setCookieConsent: (action, analytics) =>
        set({ cookies: { cookiesConsentAction: action, cookiesEnabled: { analytics } } }),
      setTryout: (update) => set((s) => ({ tryout: update(s.tryout) })),
      setCompletedStories: (stories) =>
        set((s) => ({ applicationUser: { ...s.applicationUser, completedStories: stories } })),
      setTourRunning: (running) => set({ tourRunning: running }),
    }),
    {
      name: 'portico',
      version: PERSIST_VERSION,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ applicationUser: s.applicationUser, tryout: s.tryout, cookies: s.cookies }),
      // Version 1 is the first persisted shape; older or unknown data starts fresh but keeps the
      // cookie choice, which the visitor should not be asked for again.
      migrate: (persisted, version) => {
        const old = (persisted ?? {}) as Partial<Pick<AppState, 'cookies'>>;
        if (version < 1) return { cookies: old.cookies ?? initialCookies };
        return persisted as Pick<AppState, 'applicationUser' | 'tryout' | 'cookies'>;
      },
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<AppState>;
        return {
          ...current,
          applicationUser: { ...current.applicationUser, ...p.applicationUser },
          tryout: { ...current.tryout, ...p.tryout },
          cookies: { ...current.cookies, ...p.cookies },
        };
      },
    },
  ),
);

export const useUser = () => useAppStore((s) => s.applicationUser);
export const useIsLoggedIn = () => useAppStore((s) => s.applicationUser.isLoggedIn);
