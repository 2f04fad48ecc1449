import { beforeEach, describe, expect, it, vi } from 'vitest';

// The stores persist to localStorage, which Node has not: a small one, there before they load.
const saved = vi.hoisted(() => {
  const items = new Map<string, string>();
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    value: {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    },
  });
  return (key: string) => JSON.parse(items.get(key) ?? 'null') as { state: Record<string, unknown> } | null;
});
import { useQuickstartStore } from './quickstart-store';
import { useAppStore, type SessionUserBody } from './store';

const user: SessionUserBody = {
  uid: 7,
  uuid: '8a1c6a0e-0000-4000-8000-000000000007',
  name: 'Quinn',
  mail: 'quinn@example.com',
  roles: ['authenticated'],
  isAdmin: false,
  completedStories: ['server-story'],
};

describe('Quick Start completion kept in the browser (spec B 4)', () => {
  beforeEach(() => {
    useQuickstartStore.setState({ anonymousCompleted: [] });
    useAppStore.getState().loggedOut();
  });

  it('keeps an anonymous visitor’s completed stories once, apart from the signed-in user’s', () => {
    useQuickstartStore.getState().completeAnonymously('first');
    useQuickstartStore.getState().completeAnonymously('first');
    expect(useQuickstartStore.getState().anonymousCompleted).toEqual(['first']);
    useAppStore.getState().loggedIn(user, 'token');
    expect(useAppStore.getState().applicationUser.completedStories).toEqual(['server-story']);
    expect(useQuickstartStore.getState().anonymousCompleted).toEqual(['first']);
  });

  it('survives a sign-out and an ended session, which reset the user', () => {
    useQuickstartStore.getState().completeAnonymously('first');
    useAppStore.getState().loggedIn(user, 'token');
    useAppStore.getState().loggedOut();
    expect(useAppStore.getState().applicationUser.completedStories).toEqual([]);
    expect(useQuickstartStore.getState().anonymousCompleted).toEqual(['first']);
    useAppStore.getState().loggedIn(user, 'token');
    useAppStore.getState().sessionEnded();
    expect(useQuickstartStore.getState().anonymousCompleted).toEqual(['first']);
  });

  it('is saved in the browser under the Quick Start key, which a sign-out leaves alone', () => {
    useQuickstartStore.getState().completeAnonymously('first');
    useAppStore.getState().loggedIn(user, 'token');
    useAppStore.getState().loggedOut();
    expect(saved('portico-quickstart')?.state).toEqual({
      cancelled: false,
      dock: 'left',
      anonymousCompleted: ['first'],
    });
    expect(saved('portico')?.state.applicationUser).toMatchObject({ completedStories: [] });
  });
});

describe('the tour running flag (try-out calls made by the tour)', () => {
  it('is set and cleared by the tour runner, and never persisted', () => {
    useAppStore.getState().setTourRunning(true);
    expect(useAppStore.getState().tourRunning).toBe(true);
    expect(Object.keys(saved('portico')?.state ?? {})).not.toContain('tourRunning');
    expect(Object.keys(saved('portico')?.state ?? {})).toContain('applicationUser');
    useAppStore.getState().setTourRunning(false);
    expect(useAppStore.getState().tourRunning).toBe(false);
  });
});
