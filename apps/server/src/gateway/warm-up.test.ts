import { afterAll, describe, expect, it } from 'vitest';
import { warmSandboxWorker } from './documents.ts';
import { closeDocumentWorkers } from '../openapi/index.ts';

/**
 * The sandbox's worker thread is started and loaded before the first call needs it (decision
 * 038): server.ts warms it once the portal listens, and the pool keeps that thread.
 */
describe('the sandbox worker warm-up', () => {
  afterAll(() => closeDocumentWorkers());

  it('loads the validator generator in a worker thread, and the same thread answers afterwards', async () => {
    const first = await warmSandboxWorker();
    // Not the main thread (0): the generation ran where the sandbox's first calls will run it.
    expect(first).toBeGreaterThan(0);
    expect(await warmSandboxWorker()).toBe(first);
  });
});
