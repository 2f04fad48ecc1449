import { describe, expect, it } from 'vitest';
import { nextTurn, runInTurns, runToEnd, timeSlices } from './turns.ts';

/** Counts the turns of the event loop: a chain of immediates moves on once per turn. */
function turnCounter() {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => {
      running = false;
    },
  };
}

describe('turns of the event loop shared by long tasks', () => {
  it('lets the tasks waiting go on one per turn, in the order they asked', async () => {
    const turns = turnCounter();
    // Let the counter's first immediate run, so that turns are counted from here.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const resumed: { task: string; turn: number }[] = [];
    await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (task) => {
        await nextTurn();
        resumed.push({ task, turn: turns.now() });
      }),
    );
    turns.stop();
    expect(resumed.map((r) => r.task)).toEqual(['a', 'b', 'c', 'd']);
    // With setImmediate alone, all four would go on in the same turn.
    const distinct = new Set(resumed.map((r) => r.turn));
    expect(distinct.size).toBe(4);
    for (let i = 1; i < resumed.length; i++) expect(resumed[i]!.turn).toBeGreaterThan(resumed[i - 1]!.turn);
  });

  it('lets a due timer run between any two slices of work, whichever task they belong to', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const slices: { task: string; ticks: number }[] = [];
    const spin = (ms: number) => {
      const start = performance.now();
      while (performance.now() - start < ms);
    };
    const work = async (task: string) => {
      for (let slice = 0; slice < 5; slice++) {
        await nextTurn();
        slices.push({ task, ticks });
        // The 1 ms timer is always due when a 3 ms slice ends.
        spin(3);
      }
    };
    await Promise.all([work('a'), work('b'), work('c')]);
    clearInterval(timer);
    expect(slices.map((s) => s.task).join('')).toBe('abc'.repeat(5));
    // With setImmediate alone, the three tasks' slices ran back to back in one turn, the timer waiting.
    for (let i = 1; i < slices.length; i++) expect(slices[i]!.ticks).toBeGreaterThan(slices[i - 1]!.ticks);
  });

  it('waits for a later turn once the slice has been worked', async () => {
    const breathe = timeSlices(2);
    let later = false;
    setImmediate(() => {
      later = true;
    });
    const start = performance.now();
    while (performance.now() - start < 3);
    await breathe();
    expect(later).toBe(true);
  });

  it('does not wait while the slice lasts', async () => {
    const breathe = timeSlices(1_000);
    let later = false;
    setImmediate(() => {
      later = true;
    });
    await breathe();
    expect(later).toBe(false);
  });

  it('runs work that pauses to its end at once, or in turns with a turn after each slice', async () => {
    function* squares(n: number, spinMs: number): Generator<void, number[]> {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        while (performance.now() - start < spinMs);
        out.push(i * i);
        yield;
      }
      return out;
    }
    expect(runToEnd(squares(4, 0))).toEqual([0, 1, 4, 9]);

    // Each step works 1 ms; slices of 2 ms: the loop turns several times while the work goes on.
    const turns = turnCounter();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = turns.now();
    const result = await runInTurns(squares(12, 1), 2);
    const during = turns.now() - before;
    turns.stop();
    expect(result).toEqual(Array.from({ length: 12 }, (_, i) => i * i));
    expect(during).toBeGreaterThanOrEqual(3);
    // At once, nothing else runs meanwhile.
    const counter = turnCounter();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const start = counter.now();
    runToEnd(squares(12, 1));
    expect(counter.now()).toBe(start);
    counter.stop();
  });
});
