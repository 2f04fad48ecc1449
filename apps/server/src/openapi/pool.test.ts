import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  closeDocumentWorkers,
  documentWorkerThreadIds,
  RETIRE_WHEN_IDLE_MS,
  keepDocumentWorkersWarm,
  RETIRED_THREAD_HEAP_BYTES,
  runInDocumentWorker,
} from './pool.ts';

const TASKS = new URL('./pool.test-tasks.ts', import.meta.url);
type Who = { threadId: number; warmed: boolean };

/**
 * A document thread whose heap grew past RETIRED_THREAD_HEAP_BYTES in a task is replaced by a new
 * one once the pool is idle, which loads the warm-ups before anything else (decision 073); a
 * thread that stayed small is kept (decision 039).
 */
describe('the document worker threads', () => {
  afterAll(() => closeDocumentWorkers());

  it('keep a thread that stays small, and replace one that grew, warmed again', async () => {
    const first = await keepDocumentWorkersWarm<number>(TASKS, 'warmUp');
    expect(first).toBeGreaterThan(0);
    expect(await runInDocumentWorker<Who>(TASKS, 'whoAmI', null)).toEqual({ threadId: first, warmed: true });
    expect(await runInDocumentWorker<Who>(TASKS, 'whoAmI', null)).toEqual({ threadId: first, warmed: true });

    // Doubles are kept unboxed, 8 bytes each: 1 MB an array.
    const mb = Math.ceil((RETIRED_THREAD_HEAP_BYTES * 1.25) / (1024 * 1024));
    expect((await runInDocumentWorker<{ threadId: number }>(TASKS, 'grow', { mb })).threadId).toBe(first);

    // Replaced once the pool has been idle RETIRE_WHEN_IDLE_MS; no task is sent meanwhile.
    await vi.waitFor(() => expect(documentWorkerThreadIds()).not.toContain(first), {
      timeout: RETIRE_WHEN_IDLE_MS + 30_000,
      interval: 100,
    });
    const who = await runInDocumentWorker<Who>(TASKS, 'whoAmI', null);
    expect(who.threadId).not.toBe(first);
    expect(who.warmed).toBe(true);
    // And it stays: its heap is small.
    expect(await runInDocumentWorker<Who>(TASKS, 'whoAmI', null)).toEqual(who);
  }, 90_000);
});
