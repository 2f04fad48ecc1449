import { describe, expect, it } from 'vitest';
import { blankStep, formStepsOf, pagesOf, stepsOf } from './story-steps';
import { conflictOf, isDirty, moved, scheduled, withoutEmptySchedule } from './versioned';

describe("a Quick Start story's steps in the console's form", () => {
  const steps = [
    { target: '#main', content: 'Welcome.', navigationUrl: '/', spotlightClicks: false },
    { target: '[data-tour="send"]', content: 'Press Send.', spotlightClicks: true, styles: { width: 400 } },
  ];

  it('round-trips the steps, each with a key of its own, a missing page as an empty field', () => {
    const form = formStepsOf(steps);
    expect(new Set(form.map((s) => s.key)).size).toBe(2);
    expect(form[1]!.navigationUrl).toBe('');
    expect(stepsOf(form)).toEqual(steps);
  });

  it('sends trimmed texts and no page for a blank one', () => {
    const step = { ...blankStep(), target: ' main h1 ', content: ' Hi. ', navigationUrl: '  ' };
    expect(stepsOf([step])).toEqual([{ target: 'main h1', content: 'Hi.', spotlightClicks: false }]);
  });

  it('gives blank steps different keys', () => {
    expect(blankStep().key).not.toBe(blankStep().key);
  });

  it('names the page every step happens on, the one before when it has none', () => {
    expect(pagesOf([{ navigationUrl: '' }, { navigationUrl: '/a' }, { navigationUrl: '' }])).toEqual([
      null,
      '/a',
      '/a',
    ]);
  });
});

describe('versioned editing', () => {
  it('moves an item up or down and leaves a move past either end alone', () => {
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moved(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });

  it('tells a changed form from the one it started with', () => {
    const start = { title: 'A', steps: [{ key: 1 }] };
    expect(isDirty({ ...start }, start)).toBe(false);
    expect(isDirty({ ...start, title: 'B' }, start)).toBe(true);
  });

  it("keeps a publication time only for the 'scheduled' state, and sends none when there is none", () => {
    const at = '2030-01-01T10:00:00.000Z';
    expect(scheduled({ state: 'draft', publishAt: at }).publishAt).toBeNull();
    expect(scheduled({ state: 'scheduled', publishAt: at }).publishAt).toBe(at);
    expect(withoutEmptySchedule({ title: 'T', state: 'draft', publishAt: at })).toEqual({
      title: 'T',
      state: 'draft',
    });
    expect(withoutEmptySchedule({ state: 'scheduled', publishAt: at })).toEqual({
      state: 'scheduled',
      publishAt: at,
    });
  });

  it("reads a 409's meta, and nothing else", () => {
    const meta = { current: { id: 'x', version: 2 }, changes: [] };
    expect(conflictOf({ meta })).toEqual(meta);
    expect(conflictOf({ errors: [] })).toBeNull();
    expect(conflictOf({ meta: { current: null, changes: [] } })).toBeNull();
    expect(conflictOf(null)).toBeNull();
  });
});
