import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serverProcess } from '../node-flags.ts';
import { COLLECTOR_GLOBAL, reduceHeap } from './collector.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const MB = 1024 * 1024;

/**
 * A process started with the given flags leaves garbage in its heap, as a start does, then calls
 * reduceHeap(): whether it ran, and the heap's size before and after.
 */
async function collected(flags: readonly string[]): Promise<{ ran: boolean; before: number; after: number }> {
  const module = pathToFileURL(path.join(import.meta.dirname, 'collector.ts')).href;
  const code = `
    const v8 = await import('node:v8');
    const { reduceHeap } = await import(${JSON.stringify(module)});
    let kept = [];
    for (let i = 0; i < 400; i++) kept.push(Array.from({ length: 20000 }, (_, j) => ({ i, j })));
    kept = null;
    const before = v8.getHeapStatistics().total_heap_size;
    const ran = reduceHeap();
    console.log(JSON.stringify({ ran, before, after: v8.getHeapStatistics().total_heap_size }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...flags, '--input-type=module', '-e', code],
    {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  return JSON.parse(stdout) as { ran: boolean; before: number; after: number };
}

describe("the server's collection once its start is done", () => {
  it("runs under the server's flags and gives the garbage's pages back", async () => {
    expect(serverProcess(root).flags).toContain(`--expose-gc-as=${COLLECTOR_GLOBAL}`);
    const { ran, before, after } = await collected(serverProcess(root).flags);
    expect(ran).toBe(true);
    // About 400 MB of short-lived objects were made; much of their heap is given back.
    expect(before - after).toBeGreaterThan(32 * MB);
  }, 60_000);

  it('does nothing where the launch did not expose the collector', async () => {
    expect((await collected([])).ran).toBe(false);
    expect(reduceHeap()).toBe(false);
  }, 60_000);
});
