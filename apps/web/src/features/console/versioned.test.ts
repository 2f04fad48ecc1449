import { describe, expect, it } from 'vitest';
import {
  conflictOf,
  fromLocalInput,
  isDirty,
  moved,
  scheduled,
  toLocalInput,
  withoutEmptySchedule,
} from './versioned';

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

  it('reads back the time a datetime-local field shows', () => {
    const at = '2030-06-01T08:30:15.000Z';
    expect(fromLocalInput(toLocalInput(at))).toBe(at);
    expect(toLocalInput(null)).toBe('');
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a date')).toBeNull();
  });
});
