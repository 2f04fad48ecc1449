import { afterEach, describe, expect, it, vi } from 'vitest';
import { logout, syncSession } from './session';
import { useAppStore, type SessionUserBody } from './store';

const user: SessionUserBody = {
  uid: 1,
  uuid: '8a1c6a0e-0000-4000-8000-000000000002',
  name: 'Dev Eloper',
  mail: 'dev@example.com',
  roles: ['authenticated'],
  isAdmin: false,
  completedStories: [],
};

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
  useAppStore.getState().loggedOut();
});

describe('syncSession against a sign-out in the same tab', () => {
  it('an answer about the signed-in user that arrives after the sign-out does not sign the user back in', async () => {
    useAppStore.getState().loggedIn(user, 'token');
    let answerUser: (r: Response) => void = () => undefined;
    const userAnswered = new Promise<Response>((resolve) => (answerUser = resolve));
    let userAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (userAsked = resolve));
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL) => {
        const url = String(input);
        if (url.includes('/session/user')) {
          userAsked();
          return userAnswered;
        }
        if (url.includes('/user/login_status')) return Promise.resolve(json(1));
        if (url.includes('/user/logout')) return Promise.resolve(new Response(null, { status: 204 }));
        return Promise.resolve(json('csrf'));
      }),
    );
    const sync = syncSession();
    await asked;
    await logout();
    expect(useAppStore.getState().applicationUser.isLoggedIn).toBe(false);
    // The server answered the user question before the sign-out reached it.
    answerUser(json(user));
    await sync;
    expect(useAppStore.getState().applicationUser.isLoggedIn).toBe(false);
  });
});
