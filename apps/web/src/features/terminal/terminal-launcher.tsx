import { Button } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconTerminal2 } from '@tabler/icons-react';
import { TERMINAL_MIN_SCREEN_PX } from '@portico/contracts/terminal';
import { Suspense, useEffect } from 'react';
import { lazyPage, showWhenLoaded } from '../../lib/lazy-page';
import { useTranslation } from '../../lib/i18n';
import { useAppStore } from '../../lib/store';
import { useTerminalStore } from './store';

// xterm.js and the commands: their own chunk, loaded when the terminal opens.
const TerminalWindow = lazyPage(() => import('./terminal-window'));

/** Opens the terminal once its chunk is here (lib/lazy-page.tsx showWhenLoaded). */
const openTerminal = (owner: string | null) =>
  showWhenLoaded(TerminalWindow, () => useTerminalStore.getState().open(owner));

/** Whether the focus is where typing goes: the T key must not open the terminal then. */
function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target.closest('[contenteditable="true"], [role="textbox"], [role="combobox"]') !== null
  );
}

const wideQuery = `(min-width: ${TERMINAL_MIN_SCREEN_PX + 1}px)`;

/**
 * The terminal's place in the layout (spec B 2.14): for signed-in users on screens wider than
 * 900 px, a button that opens it, and the T key when no terminal is open and no input is focused.
 */
export function TerminalLauncher() {
  const { t } = useTranslation();
  const loggedIn = useAppStore((s) => s.applicationUser.isLoggedIn);
  const owner = useAppStore((s) => s.applicationUser.uuid);
  const wide = useMediaQuery(wideQuery, window.matchMedia(wideQuery).matches) ?? false;
  const visible = useTerminalStore((s) => s.visible);
  const available = loggedIn && wide;

  // A terminal left open by another account starts afresh for this one.
  useEffect(() => {
    const s = useTerminalStore.getState();
    if (available && s.visible && s.owner !== owner) s.open(owner);
  }, [available, owner]);

  useEffect(() => {
    if (!available) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 't' && e.key !== 'T') return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || e.repeat) return;
      if (
        useTerminalStore.getState().visible ||
        typingTarget(e.target) ||
        typingTarget(document.activeElement)
      )
        return;
      if (window.innerWidth <= TERMINAL_MIN_SCREEN_PX) return;
      // The key opens the terminal; it is not typed into it.
      e.preventDefault();
      openTerminal(owner);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [available, owner]);

  if (!available) return null;
  return (
    <>
      {!visible && (
        <Button
          id="terminal-launcher"
          size="xs"
          variant="filled"
          color="dark"
          leftSection={<IconTerminal2 size={16} />}
          onClick={() => openTerminal(owner)}
          data-testid="terminal-launcher"
        >
          {t('terminal.open')}
        </Button>
      )}
      {visible && (
        <Suspense fallback={null}>
          <TerminalWindow />
        </Suspense>
      )}
    </>
  );
}
