import { threadId } from 'node:worker_threads';

/** Tasks for pool.test.ts, run in the document worker threads. */

let warmed = false;
const kept: number[][] = [];

/** A warm-up (keepDocumentWorkersWarm): marks the thread. */
export function warmUp(): number {
  warmed = true;
  return threadId;
}

/** Which thread answers, and whether the warm-up ran in it first. */
export function whoAmI(): { threadId: number; warmed: boolean } {
  return { threadId, warmed };
}

/** Keeps about `mb` MB alive in this thread's heap, as a big document's parse grows it. */
export function grow(task: { mb: number }): { threadId: number } {
  for (let i = 0; i < task.mb; i++) kept.push(new Array<number>(128 * 1024).fill(i + 0.5));
  return { threadId };
}
