import { describe, expect, it } from 'vitest';
import { useAppStore, type SessionUserBody } from './store';

const user: SessionUserBody = {
  uid: 1,
  uuid: '8a1c6a0e-0000-4000-8000-000000000001',
  name: 'Dev Eloper',
  mail: 'dev@example.com',
  roles: ['authenticated'],
  isAdmin: false,
  completedStories: [],
};

describe('session state (spec B 2.2, 4)', () => {
  it('opens the expiry modal once the session ends, and a second check that saw the same end keeps it open', () => {
    const store = useAppStore.getState();
    store.loggedIn(user, 'token');
    useAppStore.getState().sessionEnded();
    expect(useAppStore.getState().sessionExpired).toBe(true);
    expect(useAppStore.getState().applicationUser.isLoggedIn).toBe(false);
    useAppStore.getState().sessionEnded();
    expect(useAppStore.getState().sessionExpired).toBe(true);
  });

  it('shows no expiry modal after a manual logout', () => {
    useAppStore.getState().loggedIn(user, 'token');
    useAppStore.getState().loggedOut();
    useAppStore.getState().sessionEnded();
    expect(useAppStore.getState().sessionExpired).toBe(false);
  });
});
