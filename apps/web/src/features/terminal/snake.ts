import { SNAKE_GRID, SNAKE_INITIAL_TAIL } from '@portico/contracts/terminal';

/**
 * The snake game's rules (spec B 4 'Terminal', 9): a 20x20 grid, the snake starts with a tail of 5,
 * moves one tile per frame, wraps at the edges, grows by one for each apple and ends when it runs
 * into itself. Pure: the canvas view draws the state and feeds the keys.
 */
export interface Point {
  x: number;
  y: number;
}

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface SnakeState {
  /** Head last. */
  trail: Point[];
  tail: number;
  direction: Direction;
  /** The direction asked for since the last frame (applied on the next step). */
  next: Direction;
  apple: Point;
  score: number;
  over: boolean;
}

const MOVES: Record<Direction, Point> = {
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
};
const OPPOSITE: Record<Direction, Direction> = { up: 'down', down: 'up', left: 'right', right: 'left' };

const wrap = (n: number) => ((n % SNAKE_GRID) + SNAKE_GRID) % SNAKE_GRID;

function freeTile(trail: readonly Point[], random: () => number): Point {
  for (let attempt = 0; attempt < 1000; attempt += 1) {
    const p = { x: Math.floor(random() * SNAKE_GRID), y: Math.floor(random() * SNAKE_GRID) };
    if (!trail.some((t) => t.x === p.x && t.y === p.y)) return p;
  }
  return { x: 0, y: 0 };
}

export function newGame(random: () => number = Math.random): SnakeState {
  const trail = [{ x: 10, y: 10 }];
  return {
    trail,
    tail: SNAKE_INITIAL_TAIL,
    direction: 'right',
    next: 'right',
    apple: freeTile(trail, random),
    score: 0,
    over: false,
  };
}

/** Asks for a turn; turning back onto itself is ignored. */
export function turn(state: SnakeState, direction: Direction): SnakeState {
  if (state.over || direction === OPPOSITE[state.direction]) return state;
  return { ...state, next: direction };
}

/** One frame. */
export function step(state: SnakeState, random: () => number = Math.random): SnakeState {
  if (state.over) return state;
  const direction = state.next;
  const head = state.trail[state.trail.length - 1]!;
  const move = MOVES[direction];
  const nextHead = { x: wrap(head.x + move.x), y: wrap(head.y + move.y) };
  // The tile the tail leaves this frame is free again.
  const body = state.trail.length >= state.tail ? state.trail.slice(1) : state.trail;
  if (body.some((p) => p.x === nextHead.x && p.y === nextHead.y)) {
    return { ...state, direction, over: true };
  }
  const trail = [...body, nextHead];
  if (nextHead.x === state.apple.x && nextHead.y === state.apple.y) {
    return {
      ...state,
      direction,
      trail,
      tail: state.tail + 1,
      score: state.score + 1,
      apple: freeTile(trail, random),
    };
  }
  return { ...state, direction, trail };
}
