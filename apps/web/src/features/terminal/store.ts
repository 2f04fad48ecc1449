import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { TERMINAL_HISTORY_MAX } from '@portico/contracts/terminal';

/**
 * The terminal's state (spec B 3 'Terminal'): uuid, command, history (command, canceled, skip,
 * suffix, uuid, created), historyIndex, minified, executing, visible; persisted in localStorage
 * under its own key, for one account at a time (another account starts with an empty history).
 * Part of the shell chunk: the launcher reads `visible`; the window itself is a lazy chunk.
 */
export interface TerminalHistoryItem {
  uuid: string;
  /** The line entered. */
  command: string;
  /** Ctrl+C interrupted it. */
  canceled: boolean;
  /** An answer to an input, not a command: arrow up/down skip it. */
  skip: boolean;
  /** The prompt the line answered ('$ ' for a command). */
  suffix: string;
  created: number;
}

export interface TerminalState {
  /** This terminal's id. */
  uuid: string;
  /** The account the history belongs to. */
  owner: string | null;
  /** The line being typed. */
  command: string;
  history: TerminalHistoryItem[];
  /** Where arrow up/down are in the history; history.length when at the new line. */
  historyIndex: number;
  minified: boolean;
  executing: boolean;
  visible: boolean;
  /** The window's top-left corner once moved; null: the default place. */
  position: { x: number; y: number } | null;
  open(owner: string | null): void;
  close(): void;
  setMinified(minified: boolean): void;
  setExecuting(executing: boolean): void;
  setCommand(command: string): void;
  addHistory(item: Omit<TerminalHistoryItem, 'uuid' | 'created'>): void;
  /** Marks the newest command canceled (Ctrl+C while it ran or asked its inputs). */
  cancelLast(): void;
  setHistoryIndex(index: number): void;
  setPosition(position: { x: number; y: number } | null): void;
}

export const useTerminalStore = create<TerminalState>()(
  persist(
    (set) => ({
      uuid: crypto.randomUUID(),
      owner: null,
      command: '',
      history: [],
      historyIndex: 0,
      minified: false,
      executing: false,
      visible: false,
      position: null,
      open: (owner) =>
        set((s) =>
          s.owner === owner
            ? { visible: true, minified: false }
            : { visible: true, minified: false, owner, history: [], historyIndex: 0, command: '' },
        ),
      close: () => set({ visible: false, executing: false }),
      setMinified: (minified) => set({ minified }),
      setExecuting: (executing) => set({ executing }),
      setCommand: (command) => set({ command }),
      addHistory: (item) =>
        set((s) => {
          const history = [...s.history, { ...item, uuid: crypto.randomUUID(), created: Date.now() }].slice(
            -TERMINAL_HISTORY_MAX,
          );
          return { history, historyIndex: history.length };
        }),
      cancelLast: () =>
        set((s) => {
          const history = [...s.history];
          // The command, not an answer to one of its inputs.
          const at = history.findLastIndex((h) => !h.skip);
          if (at >= 0) history[at] = { ...history[at]!, canceled: true };
          return { history };
        }),
      setHistoryIndex: (historyIndex) => set({ historyIndex }),
      setPosition: (position) => set({ position }),
    }),
    {
      name: 'portico-terminal',
      version: 1,
      storage: createJSONStorage(() => localStorage),
      // executing never survives a reload: nothing runs after it.
      partialize: (s) => ({
        uuid: s.uuid,
        owner: s.owner,
        command: s.command,
        history: s.history,
        historyIndex: s.historyIndex,
        minified: s.minified,
        visible: s.visible,
        position: s.position,
      }),
    },
  ),
);

/**
 * Arrow up/down over the history (spec B 4 'Terminal'): the commands only (answers are skipped).
 * Returns the new index and the line to show; `index === length` is the new, empty line.
 */
export function historyStep(
  history: readonly TerminalHistoryItem[],
  index: number,
  direction: -1 | 1,
): { index: number; line: string } {
  let i = Math.min(Math.max(index, 0), history.length);
  for (;;) {
    i += direction;
    if (i < 0) {
      // Already at the oldest command: stay there.
      const first = history.findIndex((h) => !h.skip);
      return first < 0
        ? { index: history.length, line: '' }
        : { index: first, line: history[first]!.command };
    }
    if (i >= history.length) return { index: history.length, line: '' };
    if (!history[i]!.skip) return { index: i, line: history[i]!.command };
  }
}
