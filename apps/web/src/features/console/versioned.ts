/**
 * The plain rules of the console's versioned editing (no React): whether a form differs from what
 * was last loaded or saved, what a scheduled state sends, a 409's body, the datetime-local field's
 * values and moving an item of an ordered list. versioned-editor.tsx builds the editors on them.
 */

/** A 409's `meta`: the version saved meanwhile and what it changed against what was sent. */
export function conflictOf<T, C>(body: unknown): { current: T; changes: C[] } | null {
  const meta = (body as { meta?: { current?: unknown; changes?: unknown } } | null)?.meta;
  if (!meta || typeof meta.current !== 'object' || meta.current === null || !Array.isArray(meta.changes))
    return null;
  return meta as { current: T; changes: C[] };
}

/** Whether a form's values differ from the ones it started from (or last saved). */
export function isDirty(values: unknown, baseline: unknown): boolean {
  return JSON.stringify(values) !== JSON.stringify(baseline);
}

/** The fields of a scheduled state: a publication time only while the state is 'scheduled'. */
export function scheduled<F extends { state: string; publishAt: string | null }>(fields: F): F {
  return fields.state === 'scheduled' ? fields : { ...fields, publishAt: null };
}

/**
 * What a save of a page or a FAQ question sends: its publication time only when it has one (the
 * server's fields default it to null).
 */
export function withoutEmptySchedule<F extends { state: string; publishAt: string | null }>(
  fields: F,
): Omit<F, 'publishAt'> & { publishAt?: string } {
  const { publishAt, ...rest } = scheduled(fields);
  return publishAt ? { ...rest, publishAt } : rest;
}

/** An ISO instant as the value of a datetime-local field (local time, seconds included). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A datetime-local field's value as an ISO instant, or null when empty or not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** Moves item `i` of `list` by `by` places; a move past either end leaves the list as it was. */
export function moved<T>(list: readonly T[], i: number, by: number): T[] {
  const to = i + by;
  if (i < 0 || i >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(i, 1);
  next.splice(to, 0, item!);
  return next;
}
