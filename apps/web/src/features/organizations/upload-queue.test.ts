import { afterEach, describe, expect, it, vi } from 'vitest';
import { UploadQueue, type UploadProblem } from './upload-queue';

interface FakeFile {
  name: string;
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const describeError = (e: unknown): UploadProblem => ({ title: 'Could not upload file', detail: String(e) });
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('UploadQueue', () => {
  afterEach(() => vi.useRealTimers());

  it('starts the next upload only when none is running, in the order chosen', async () => {
    const started: string[] = [];
    const pending = new Map<string, ReturnType<typeof deferred>>();
    const queue = new UploadQueue<FakeFile>({ ttlMs: 10_000, describe: describeError });
    const run = (f: FakeFile) => {
      started.push(f.name);
      const d = deferred();
      pending.set(f.name, d);
      return d.promise;
    };
    queue.enqueue([{ name: 'a.txt' }, { name: 'b.pdf' }], run);
    queue.enqueue([{ name: 'c.pem' }], run);
    expect(started).toEqual(['a.txt']);
    expect(queue.getSnapshot().status).toBe(0);
    expect(queue.getSnapshot().entries.map((e) => e.state)).toEqual(['uploading', 'queued', 'queued']);

    pending.get('a.txt')!.resolve();
    await flush();
    expect(started).toEqual(['a.txt', 'b.pdf']);
    pending.get('b.pdf')!.reject('bad');
    await flush();
    expect(started).toEqual(['a.txt', 'b.pdf', 'c.pem']);
    expect(queue.getSnapshot().status).toBe(0);
    const idle = queue.whenIdle();
    pending.get('c.pem')!.resolve();
    await idle;
    const snap = queue.getSnapshot();
    expect(snap.status).toBe(1);
    expect(snap.entries.map((e) => [e.fileName, e.state])).toEqual([
      ['a.txt', 'done'],
      ['b.pdf', 'failed'],
      ['c.pem', 'done'],
    ]);
    expect(snap.entries[1]!.problem).toEqual({ title: 'Could not upload file', detail: 'bad' });
  });

  it('a runner that throws at once fails that file and goes on with the next', async () => {
    const queue = new UploadQueue<FakeFile>({
      ttlMs: 10_000,
      describe: (e) => ({ title: (e as Error).message }),
    });
    queue.enqueue([{ name: 'x.exe' }, { name: 'y.txt' }], (f) => {
      if (f.name.endsWith('.exe')) throw new Error('extension');
      return Promise.resolve();
    });
    await queue.whenIdle();
    expect(queue.getSnapshot().entries.map((e) => e.state)).toEqual(['failed', 'done']);
  });

  it('finished entries vanish after the time to live; whenIdle resolves at once when idle', async () => {
    vi.useFakeTimers();
    const queue = new UploadQueue<FakeFile>({ ttlMs: 10_000, describe: describeError });
    await queue.whenIdle();
    const seen: number[] = [];
    queue.subscribe(() => seen.push(queue.getSnapshot().entries.length));
    queue.enqueue([{ name: 'a.txt' }], () => Promise.reject(new Error('no')));
    await vi.advanceTimersByTimeAsync(0);
    expect(queue.getSnapshot().entries[0]?.state).toBe('failed');
    await vi.advanceTimersByTimeAsync(9_999);
    expect(queue.getSnapshot().entries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queue.getSnapshot().entries).toHaveLength(0);
    expect(seen.at(-1)).toBe(0);
  });
});
