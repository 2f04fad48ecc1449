// The terminal's words are a feature area of the catalogue, loaded with the pages (lib/i18n.ts).
import '../../lib/feature-messages';
import { describe, expect, it } from 'vitest';
import { SNAKE_GRID, SNAKE_INITIAL_TAIL } from '@portico/contracts/terminal';
import { loremParagraphs, loremSentence } from './commands/lorem';
import { newGame, step, turn, type SnakeState } from './snake';
import { historyStep, type TerminalHistoryItem } from './store';

function seq(values: number[]) {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('lorem (spec B 9)', () => {
  it('makes sentences of 4 to 16 words, capitalised with a full stop', () => {
    for (let i = 0; i < 200; i += 1) {
      const s = loremSentence();
      const words = s.slice(0, -1).split(' ');
      expect(words.length).toBeGreaterThanOrEqual(4);
      expect(words.length).toBeLessThanOrEqual(16);
      expect(s).toMatch(/^[A-Z][a-z ]+\.$/);
    }
    expect(loremSentence(seq([0])).split(' ')).toHaveLength(4);
    expect(loremSentence(seq([0.999])).split(' ')).toHaveLength(16);
  });
  it('makes the asked paragraphs of the asked sentences', () => {
    const paragraphs = loremParagraphs(2, 3);
    expect(paragraphs).toHaveLength(2);
    for (const p of paragraphs) expect(p.match(/\./g)).toHaveLength(3);
  });
});

describe('snake (spec B 4, 9)', () => {
  const run = (s: SnakeState, n: number) => {
    for (let i = 0; i < n; i += 1) s = step(s, seq([0.99]));
    return s;
  };
  it('starts with a tail of 5 and grows to it', () => {
    const s = newGame(seq([0.99]));
    expect(s.tail).toBe(SNAKE_INITIAL_TAIL);
    expect(run(s, 10).trail).toHaveLength(SNAKE_INITIAL_TAIL);
  });
  it('wraps at the edges', () => {
    let s = newGame(seq([0.99]));
    s = run(s, SNAKE_GRID - 10);
    expect(s.trail.at(-1)).toEqual({ x: 0, y: 10 });
    s = turn(s, 'up');
    s = run(s, 11);
    expect(s.trail.at(-1)).toEqual({ x: 0, y: SNAKE_GRID - 1 });
  });
  it('ignores a turn back onto itself and ends when it runs into itself', () => {
    let s = run(newGame(seq([0.99])), 6);
    expect(turn(s, 'left').next).toBe('right');
    s = turn(s, 'down');
    s = step(s);
    s = turn(s, 'left');
    s = step(s);
    s = turn(s, 'up');
    s = step(s);
    expect(s.over).toBe(true);
    expect(step(s)).toBe(s);
  });
  it('eats an apple: the tail grows and the score rises', () => {
    const s: SnakeState = { ...newGame(seq([0.99])), apple: { x: 11, y: 10 } };
    const after = step(s, seq([0.5]));
    expect(after.score).toBe(1);
    expect(after.tail).toBe(SNAKE_INITIAL_TAIL + 1);
  });
});

describe('history arrows', () => {
  const item = (command: string, skip = false): TerminalHistoryItem => ({
    uuid: command,
    command,
    canceled: false,
    skip,
    suffix: '$ ',
    created: 0,
  });
  const history = [item('ls'), item('answer', true), item('guid')];
  it('walks back over commands only, and forward to the empty line', () => {
    let at = historyStep(history, history.length, -1);
    expect(at).toEqual({ index: 2, line: 'guid' });
    at = historyStep(history, at.index, -1);
    expect(at).toEqual({ index: 0, line: 'ls' });
    expect(historyStep(history, at.index, -1)).toEqual({ index: 0, line: 'ls' });
    at = historyStep(history, at.index, 1);
    expect(at).toEqual({ index: 2, line: 'guid' });
    expect(historyStep(history, at.index, 1)).toEqual({ index: 3, line: '' });
    expect(historyStep([], 0, -1)).toEqual({ index: 0, line: '' });
  });
});
