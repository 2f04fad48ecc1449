/**
 * Turns of the event loop for the server's long tasks (issue 11: no turn of the loop over 50 ms).
 *
 * A long task (parsing a big stored document, writing its YAML, building a router, reading rows)
 * works a slice of a few milliseconds, then waits here for a later turn. The tasks waiting go on
 * one per turn of the event loop, in the order they asked, and requests and I/O are served between
 * them. `setImmediate` alone lets every waiting task go on in the same turn (all immediates queued
 * before a turn's check phase run in it): four requests for a big document, each working its 8 ms
 * slice, held single turns for 40-52 ms (the reference's detail, the JSON and YAML downloads and the
 * original, in large-documents.test.ts).
 */

/** Work a long task does between two turns of the event loop. */
export const SLICE_MS = 4;

const waiting: (() => void)[] = [];

/** Lets the first waiting task go on; the next one goes in the next turn (an immediate queued from
 * a check phase runs in the next turn's). Invariant: a release is queued while anything waits. */
function release() {
  const next = waiting.shift();
  if (waiting.length) setImmediate(release);
  next?.();
}

/** Resolves in a later turn of the event loop, after the tasks that were waiting before. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) setImmediate(release);
  });
}

/**
 * A task's time slices: the function returned waits for a later turn (nextTurn) once `sliceMs`
 * of work has been done since the last wait (or since the slices began), else resolves at once.
 */
export function timeSlices(sliceMs = SLICE_MS): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since > sliceMs) {
      await nextTurn();
      since = performance.now();
    }
  };
}

/**
 * Work written as a generator that yields where it may pause (between two properties, two
 * paths…), run to its end at once: for the worker threads and for small inputs.
 */
export function runToEnd<T>(work: Generator<void, T>): T {
  let step = work.next();
  while (!step.done) step = work.next();
  return step.value;
}

/** The same work on the main thread, with a turn of the event loop after every slice (timeSlices). */
export async function runInTurns<T>(work: Generator<void, T>, sliceMs = SLICE_MS): Promise<T> {
  // The clock is read at each pause, but only a spent slice awaits: work that fits in one slice (a
  // sandbox's small answer) costs no promise per pause.
  let since = performance.now();
  let step = work.next();
  while (!step.done) {
    if (performance.now() - since > sliceMs) {
      await nextTurn();
      since = performance.now();
    }
    step = work.next();
  }
  return step.value;
}
