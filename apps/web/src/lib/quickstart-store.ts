import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { QuickstartStep } from '@portico/contracts/quickstart';

/**
 * The Quick Start tour's local state (spec B 2.14, 2.15, 4): `cancelled` is the local flag that
 * hides the Quick Start button (set by cancelling, cleared by opening a URL with #quickstart), the
 * dock side, and the stories an anonymous visitor completed; persisted in localStorage under a key
 * of its own, which logout leaves alone (spec B 4: anonymous completion is kept locally; a
 * signed-in user's is saved on the user). Which tour runs is not persisted. Part of the shell
 * chunk (the layout's button reads it); the sidebar and the tour are a lazy chunk.
 */
export type Dock = 'left' | 'bottom';

/** A running tour: a Quick Start story, or a documentation's own tour ('Take the tour'). */
export type ActiveTour =
  | {
      kind: 'story';
      uuid: string;
      title: string;
      steps: QuickstartStep[];
      /** The steps' language when not the page's (an untranslated story, decision 064). */
      lang?: string | undefined;
    }
  | { kind: 'documentation'; title: string; steps: QuickstartStep[] };

interface QuickstartState {
  cancelled: boolean;
  dock: Dock;
  /** The sidebar is open. */
  open: boolean;
  active: ActiveTour | null;
  /** The uuids of the stories completed while signed out, in this browser. */
  anonymousCompleted: string[];
  openSidebar(): void;
  closeSidebar(): void;
  /** Cancels the tour: closes it and hides the Quick Start button until #quickstart. */
  cancel(): void;
  /** #quickstart: the button shows again and the sidebar opens. */
  reenable(): void;
  setDock(dock: Dock): void;
  start(tour: ActiveTour): void;
  stop(): void;
  completeAnonymously(story: string): void;
}

export const useQuickstartStore = create<QuickstartState>()(
  persist(
    (set) => ({
      cancelled: false,
      dock: 'left',
      open: false,
      active: null,
      anonymousCompleted: [],
      openSidebar: () => set({ open: true }),
      closeSidebar: () => set({ open: false, active: null }),
      cancel: () => set({ cancelled: true, open: false, active: null }),
      reenable: () => set({ cancelled: false, open: true }),
      setDock: (dock) => set({ dock }),
      start: (tour) => set({ active: tour, open: tour.kind === 'story' }),
      stop: () => set({ active: null }),
      completeAnonymously: (story) =>
        set((s) =>
          s.anonymousCompleted.includes(story) ? s : { anonymousCompleted: [...s.anonymousCompleted, story] },
        ),
    }),
    {
      name: 'portico-quickstart',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      // anonymousCompleted joined version 1 later: older saved states merge with its default [].
      partialize: (s) => ({ cancelled: s.cancelled, dock: s.dock, anonymousCompleted: s.anonymousCompleted }),
    },
  ),
);
