import { ActionIcon, Group, Paper, Title } from '@mantine/core';
import { IconMinus, IconWindowMaximize, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { TERMINAL_DEFAULT_HEIGHT_PX, TERMINAL_DEFAULT_WIDTH_PX } from '@portico/contracts/terminal';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { TerminalController } from './controller';
import { SnakeGame } from './snake-game';
import { useTerminalStore } from './store';
import classes from './terminal.module.css';

const TITLE_BAR_PX = 36;
const MARGIN_PX = 16;

function defaultPosition() {
  return {
    x: Math.max(0, window.innerWidth - TERMINAL_DEFAULT_WIDTH_PX - MARGIN_PX),
    y: Math.max(0, window.innerHeight - TERMINAL_DEFAULT_HEIGHT_PX - TITLE_BAR_PX - MARGIN_PX),
  };
}

function clamp(p: { x: number; y: number }) {
  return {
    x: Math.min(Math.max(0, p.x), Math.max(0, window.innerWidth - 120)),
    y: Math.min(Math.max(0, p.y), Math.max(0, window.innerHeight - TITLE_BAR_PX)),
  };
}

/**
 * The terminal window (spec B 2.17): 700x400, movable by its title bar (pointer, or arrow keys on
 * the focused title bar), minified by 'mini' or its button, closed by its button. Its own chunk,
 * loaded when the terminal opens. xterm.js draws the screen; controller.ts handles the keys.
 */
export default function TerminalWindow() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const minified = useTerminalStore((s) => s.minified);
  const stored = useTerminalStore((s) => s.position);
  const position = clamp(stored ?? defaultPosition());
  const screenRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const controllerRef = useRef<TerminalController | null>(null);
  const [game, setGame] = useState<{ done: () => void } | null>(null);

  const close = useCallback(() => {
    useTerminalStore.getState().close();
    // The launcher comes back once the window is gone: the focus returns to it.
    requestAnimationFrame(() => document.getElementById('terminal-launcher')?.focus());
  }, []);

  useEffect(() => {
    const element = screenRef.current;
    if (!element) return;
    const term = new Terminal({
      cursorBlink: true,
      convertEol: false,
      fontSize: 14,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      scrollback: 1000,
      theme: { background: '#111418', foreground: '#e6e6e6', brightRed: '#ff8a8a', brightGreen: '#7ee787' },
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(element);
    fit.fit();
    termRef.current = term;
    const controller = new TerminalController(
      { write: (text) => term.write(text), clear: () => term.clear() },
      {
        minify: () => useTerminalStore.getState().setMinified(true),
        navigate: (path) => void navigate(path),
        changed: () => void queryClient.invalidateQueries(),
        play: () =>
          new Promise<void>((resolve) => {
            setGame({
              done: () => {
                // Back to the prompt at once: the keys typed right after Escape go to the terminal
                // (a focus moved on the next frame lost them to the page while the game unmounted).
                term.focus();
                setGame(null);
                resolve();
              },
            });
          }),
      },
    );
    controllerRef.current = controller;
    const data = term.onData((d) => void controller.onData(d));
    void controller.start();
    term.focus();
    return () => {
      data.dispose();
      controller.dispose();
      term.dispose();
      termRef.current = null;
      controllerRef.current = null;
    };
  }, [navigate, queryClient]);

  useEffect(() => {
    if (!minified) requestAnimationFrame(() => termRef.current?.focus());
  }, [minified]);

  const drag = useRef<{ dx: number; dy: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    drag.current = { dx: e.clientX - position.x, dy: e.clientY - position.y };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    useTerminalStore
      .getState()
      .setPosition(clamp({ x: e.clientX - drag.current.dx, y: e.clientY - drag.current.dy }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onTitleKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-20, 0],
      ArrowRight: [20, 0],
      ArrowUp: [0, -20],
      ArrowDown: [0, 20],
    };
    const move = moves[e.key];
    if (!move || e.target !== e.currentTarget) return;
    e.preventDefault();
    useTerminalStore.getState().setPosition(clamp({ x: position.x + move[0], y: position.y + move[1] }));
  };

  return (
    <Paper
      component="section"
      role="dialog"
      aria-labelledby="terminal-title"
      shadow="xl"
      radius="md"
      className={classes.window}
      data-testid="terminal-window"
      data-minified={minified || undefined}
      style={{ left: position.x, top: position.y, width: TERMINAL_DEFAULT_WIDTH_PX }}
    >
      <div
        className={classes.titleBar}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onKeyDown={onTitleKey}
        tabIndex={0}
        role="toolbar"
        aria-label={t('terminal.moveHint')}
        data-testid="terminal-title-bar"
      >
        <Title order={2} size="h6" id="terminal-title" className={classes.title}>
          {t('terminal.windowTitle')}
        </Title>
        <Group gap={4}>
          <ActionIcon
            variant="subtle"
            color="gray.0"
            aria-label={minified ? t('terminal.restore') : t('terminal.minify')}
            onClick={() => useTerminalStore.getState().setMinified(!minified)}
          >
            {minified ? <IconWindowMaximize size={16} /> : <IconMinus size={16} />}
          </ActionIcon>
          <ActionIcon variant="subtle" color="gray.0" aria-label={t('terminal.close')} onClick={close}>
            <IconX size={16} />
          </ActionIcon>
        </Group>
      </div>
      <div className={classes.body} style={{ height: TERMINAL_DEFAULT_HEIGHT_PX }} hidden={minified}>
        <div ref={screenRef} className={classes.screen} data-testid="terminal-screen" />
        {game && (
          <SnakeGame
            onExit={(interrupted) => {
              const done = game.done;
              if (interrupted) controllerRef.current?.interrupt();
              done();
            }}
          />
        )}
      </div>
    </Paper>
  );
}
