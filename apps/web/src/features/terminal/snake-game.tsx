import { SNAKE_CANVAS_PX, SNAKE_FPS, SNAKE_GRID, SNAKE_TILE_PX } from '@portico/contracts/terminal';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { newGame, step, turn, type Direction, type SnakeState } from './snake';
import classes from './terminal.module.css';

const KEYS: Record<string, Direction> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
};

function draw(ctx: CanvasRenderingContext2D, state: SnakeState) {
  ctx.fillStyle = '#111418';
  ctx.fillRect(0, 0, SNAKE_CANVAS_PX, SNAKE_CANVAS_PX);
  ctx.strokeStyle = '#2b3138';
  ctx.strokeRect(0.5, 0.5, SNAKE_CANVAS_PX - 1, SNAKE_CANVAS_PX - 1);
  ctx.fillStyle = '#ff6b6b';
  ctx.fillRect(
    state.apple.x * SNAKE_TILE_PX,
    state.apple.y * SNAKE_TILE_PX,
    SNAKE_TILE_PX - 2,
    SNAKE_TILE_PX - 2,
  );
  ctx.fillStyle = state.over ? '#868e96' : '#7ee787';
  for (const p of state.trail) {
    ctx.fillRect(p.x * SNAKE_TILE_PX, p.y * SNAKE_TILE_PX, SNAKE_TILE_PX - 2, SNAKE_TILE_PX - 2);
  }
}

/**
 * Snake on a 400x400 canvas of 20 px tiles at 15 frames per second (spec B 9). Arrow keys steer,
 * Enter plays again after a game over, Escape quits, Ctrl+C quits and cancels like any command.
 */
export function SnakeGame({ onExit }: { onExit(interrupted: boolean): void }) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const stateRef = useRef<SnakeState>(newGame());
  const [status, setStatus] = useState({ score: 0, over: false });

  useEffect(() => {
    canvasRef.current?.focus();
    const ctx = canvasRef.current?.getContext('2d');
    const timer = window.setInterval(() => {
      const before = stateRef.current;
      const after = step(before);
      stateRef.current = after;
      if (ctx) draw(ctx, after);
      // For tests and assistive checks: the state the picture shows.
      const canvas = canvasRef.current;
      if (canvas) {
        canvas.dataset.direction = after.direction;
        canvas.dataset.length = String(after.trail.length);
      }
      if (after.score !== before.score || after.over !== before.over) {
        setStatus({ score: after.score, over: after.over });
      }
    }, 1000 / SNAKE_FPS);
    return () => window.clearInterval(timer);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const direction = KEYS[e.key];
    if (direction) {
      e.preventDefault();
      stateRef.current = turn(stateRef.current, direction);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onExit(false);
    } else if (e.key.toLowerCase() === 'c' && e.ctrlKey) {
      e.preventDefault();
      onExit(true);
    } else if (e.key === 'Enter' && stateRef.current.over) {
      e.preventDefault();
      stateRef.current = newGame();
      setStatus({ score: 0, over: false });
    }
  };

  return (
    <div className={classes.game} data-testid="snake">
      <p className={classes.gameStatus} role="status" data-testid="snake-status">
        {status.over
          ? t('terminal.snakeGameOver', { score: status.score })
          : `${t('terminal.snakeScore', { score: status.score })} · ${t('terminal.snakeHelp')}`}
      </p>
      <canvas
        ref={canvasRef}
        className={classes.canvas}
        width={SNAKE_CANVAS_PX}
        height={SNAKE_CANVAS_PX}
        tabIndex={0}
        role="application"
        aria-label={t('terminal.snakeLabel')}
        data-grid={SNAKE_GRID}
        data-fps={SNAKE_FPS}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
