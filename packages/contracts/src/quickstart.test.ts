import { describe, expect, it } from 'vitest';
import { progressPercent, quickstartStepSchema, storiesFor, storyDisabled } from './quickstart.ts';

const a = { uuid: 'a', disableForAnonymous: false };
const b = { uuid: 'b', disableForAnonymous: true };
const c = { uuid: 'c', disableForAnonymous: true };
const d = { uuid: 'd', disableForAnonymous: false };
const none = new Set<string>();

describe('storyDisabled (spec B 4)', () => {
  it('disables anonymous-restricted stories for anonymous visitors only', () => {
    expect(storyDisabled([a, b], 0, false, none)).toBe(false);
    expect(storyDisabled([a, b], 1, false, none)).toBe(true);
    expect(storyDisabled([a, b], 1, false, new Set(['a']))).toBe(true);
  });
  it('enables a signed-in story when the previous one is completed or not restricted', () => {
    const stories = [a, b, c, d];
    expect(storyDisabled(stories, 0, true, none)).toBe(false);
    // b follows a, which is not restricted
    expect(storyDisabled(stories, 1, true, none)).toBe(false);
    // c follows b, restricted and not completed
    expect(storyDisabled(stories, 2, true, none)).toBe(true);
    expect(storyDisabled(stories, 2, true, new Set(['b']))).toBe(false);
    // d follows c
    expect(storyDisabled(stories, 3, true, none)).toBe(true);
    expect(storyDisabled(stories, 3, true, new Set(['c']))).toBe(false);
  });
  it('treats an index out of range as disabled', () => {
    expect(storyDisabled([a], 3, true, none)).toBe(true);
  });
});

describe('progressPercent (spec B 4)', () => {
  it('counts completed stories for anonymous visitors', () => {
    expect(progressPercent([a, b, c], false, none)).toBe(0);
    expect(progressPercent([a, b, c], false, new Set(['a']))).toBe(33);
    expect(progressPercent([a, b, c], false, new Set(['a', 'b']))).toBe(67);
  });
  it('adds the unrestricted stories for signed-in users, rounded and at most 100', () => {
    expect(progressPercent([a, b, c], true, none)).toBe(33);
    expect(progressPercent([a, b, c], true, new Set(['b']))).toBe(67);
    expect(progressPercent([a, b, c, d], true, new Set(['a', 'b', 'c', 'd']))).toBe(100);
  });
  it('ignores unknown completed ids and empty lists', () => {
    expect(progressPercent([a, b], false, new Set(['zzz']))).toBe(0);
    expect(progressPercent([], true, new Set(['a']))).toBe(0);
  });
});

describe('storiesFor', () => {
  it('computes disabled and completed', () => {
    expect(storiesFor([a, b], false, new Set(['a']))).toEqual([
      { ...a, disabled: false, completed: true },
      { ...b, disabled: true, completed: false },
    ]);
  });
});

describe('quickstartStepSchema', () => {
  it('accepts a step and defaults spotlightClicks', () => {
    expect(quickstartStepSchema.parse({ target: 'body', content: 'Hi', navigationUrl: '/x' })).toEqual({
      target: 'body',
      content: 'Hi',
      navigationUrl: '/x',
      spotlightClicks: false,
    });
  });
  it('rejects a navigation URL that is not a path and unknown keys', () => {
    expect(
      quickstartStepSchema.safeParse({ target: 'a', content: 'b', navigationUrl: 'http://x' }).success,
    ).toBe(false);
    expect(quickstartStepSchema.safeParse({ target: 'a', content: 'b', foo: 1 }).success).toBe(false);
  });
});
