/**
 * The upload queue of spec A 4 'Organization and membership': selected files are uploaded one by one,
 * the next upload starts only when none is running, and the status is 1 once every upload is done
 * (0 while some wait or run). Finished entries (uploaded or failed, with the server's title and
 * detail) stay visible for `ttlMs` and then vanish (spec A 8: 'vanishes after 10 seconds').
 * Framework-free so that the ordering rules are unit-tested; `useUploadQueue` binds it to React.
 * Each file comes with the function that sends it.
 */
export type UploadEntryState = 'queued' | 'uploading' | 'done' | 'failed';

export interface UploadProblem {
  title: string;
  detail?: string;
}

export interface UploadEntry {
  key: number;
  fileName: string;
  state: UploadEntryState;
  problem?: UploadProblem;
}

export interface UploadSnapshot {
  entries: readonly UploadEntry[];
  /** Spec A 4: 1 once all uploads are done, 0 while waiting. */
  status: 0 | 1;
}

export type UploadRunner<F> = (file: F) => Promise<unknown>;

export interface UploadQueueOptions {
  ttlMs: number;
  /** Turns a failure into the message shown beside the file name. */
  describe: (error: unknown) => UploadProblem;
}

export class UploadQueue<F extends { name: string }> {
  private readonly options: UploadQueueOptions;
  private entries: UploadEntry[] = [];
  private files = new Map<number, { file: F; run: UploadRunner<F> }>();
  private running = false;
  private nextKey = 1;
  private snapshot: UploadSnapshot = { entries: [], status: 1 };
  private listeners = new Set<() => void>();
  private idleWaiters: (() => void)[] = [];
  private timers = new Map<number, ReturnType<typeof setTimeout>>();

  constructor(options: UploadQueueOptions) {
    this.options = options;
  }

  /** Adds files, each to be sent by `run` (given here, so it sees the caller's current organization). */
  enqueue(files: readonly F[], run: UploadRunner<F>): void {
    for (const file of files) {
      const key = this.nextKey++;
      this.files.set(key, { file, run });
      this.entries.push({ key, fileName: file.name, state: 'queued' });
    }
    this.publish();
    this.pump();
  }

  /** Resolves once nothing waits or runs (at once when the queue is idle). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  dismiss(key: number): void {
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
    this.entries = this.entries.filter(
      (e) => e.key !== key || e.state === 'queued' || e.state === 'uploading',
    );
    this.publish();
  }

  /** Stops the vanish timers (the page is leaving); uploads already sent still finish. */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): UploadSnapshot => this.snapshot;

  private isIdle(): boolean {
    return !this.running && !this.entries.some((e) => e.state === 'queued');
  }

  private pump(): void {
    if (this.running) return;
    const next = this.entries.find((e) => e.state === 'queued');
    if (!next) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
      return;
    }
    const { file, run } = this.files.get(next.key)!;
    this.running = true;
    this.update(next.key, { state: 'uploading' });
    let outcome: Promise<Partial<UploadEntry>>;
    try {
      outcome = run(file).then(
        () => ({ state: 'done' as const }),
        (error: unknown) => ({ state: 'failed' as const, problem: this.options.describe(error) }),
      );
    } catch (error) {
      outcome = Promise.resolve({ state: 'failed' as const, problem: this.options.describe(error) });
    }
    void outcome.then((change) => {
      this.files.delete(next.key);
      // Not running any more before publishing, so the snapshot's status is already 1 when this was the last.
      this.running = false;
      this.update(next.key, change);
      this.timers.set(
        next.key,
        setTimeout(() => this.dismiss(next.key), this.options.ttlMs),
      );
      this.pump();
    });
  }

  private update(key: number, change: Partial<UploadEntry>): void {
    this.entries = this.entries.map((e) => (e.key === key ? { ...e, ...change } : e));
    this.publish();
  }

  private publish(): void {
    const status = this.isIdle() ? 1 : 0;
    this.snapshot = { entries: this.entries, status };
    for (const listener of this.listeners) listener();
  }
}
