import { useCallback, useState } from 'react';

/**
 * The forms' "touched" state (spec A 5, B 5: a field's message appears once the field is left, and
 * for every field on submit), shared by every form of the web app.
 *
 * Leaving a field with the mouse happens on the press: the button going down moves the focus, and
 * the release comes later. A message that appeared on that blur would push the pressed control
 * down before the release, and the click would land beside it (issue 26: a grant type or a role
 * that stayed unchecked, a Submit that did nothing). So what a blur reveals waits while a pointer
 * is pressed, and comes right after the release and the click it makes; without a press (the
 * keyboard, a script) it comes at once. The field still gets aria-invalid and its message (Mantine's
 * `error` links them through aria-describedby) as soon as the click is done.
 */

let pressed = false;
let waiting: (() => void)[] = [];
let listening = false;

function flush() {
  if (pressed) return;
  const run = waiting;
  waiting = [];
  for (const job of run) job();
}

function listen() {
  if (listening || typeof document === 'undefined') return;
  listening = true;
  const press = () => {
    pressed = true;
  };
  const release = () => {
    if (!pressed) return;
    pressed = false;
    // The click follows the release in the same task: the work runs after the click's handlers.
    setTimeout(flush, 0);
  };
  // Capture, so the press is known before the focus moves (the blur follows the press's listeners).
  // A touch's mousedown comes after its pointerup, right before the focus moves: it counts too.
  document.addEventListener('pointerdown', press, true);
  document.addEventListener('mousedown', press, true);
  for (const type of ['pointerup', 'mouseup', 'pointercancel', 'dragend'])
    document.addEventListener(type, release, true);
  // A release the page never sees (outside the window, a switched tab) must not hold the work.
  window.addEventListener('blur', release);
  document.addEventListener('visibilitychange', release);
}

/** Runs `work` now, or after the pointer press in progress is released and its click is done. */
export function afterPress(work: () => void): void {
  if (!pressed) {
    work();
    return;
  }
  waiting.push(work);
}

/** Starts listening before the first press, so a press that blurs a field is always seen. */
listen();

export interface Touched<F extends string> {
  /** The fields whose messages show. */
  touched: Partial<Record<F, boolean>>;
  /**
   * Marks a field touched (its onBlur, or a change the user made): now, or after the pointer press
   * that left it (a blur, or a value a field accepts on blur) is released and its click is done.
   */
  touch(field: F): void;
  /** Marks every given field touched now (on submit). */
  touchAll(fields: readonly F[]): void;
  /** Forgets every field (after a successful send that empties the form). */
  reset(): void;
}

/** The touched fields of one form, with a blur that never moves a control under a pressed pointer. */
export function useTouched<F extends string>(): Touched<F> {
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const touch = useCallback(
    (field: F) => afterPress(() => setTouched((s) => (s[field] ? s : { ...s, [field]: true }))),
    [],
  );
  const touchAll = useCallback(
    (fields: readonly F[]) =>
      setTouched((s) => {
        const next = { ...s };
        for (const field of fields) next[field] = true;
        return next;
      }),
    [],
  );
  const reset = useCallback(() => setTouched({}), []);
  return { touched, touch, touchAll, reset };
}
