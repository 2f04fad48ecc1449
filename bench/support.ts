/**
 * What the benchmarks share: starting the portal on a DATA_DIR and waiting for /readyz, launching
 * Debian's headless Chromium with the project's arguments, and counting the compressed bytes of the
 * scripts a page fetches.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../e2e/playwright.config.ts';
import { serverCommand } from '../apps/server/src/node-flags.ts';

export const root = path.resolve(import.meta.dirname, '..');

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a portal process on `dataDir`: never a DATABASE_URL or PUBLIC_URL from the
 * caller's shell, only from `extra`.
 */
export function portalEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
}

export interface RunningPortal {
  /** From spawning the process to the first 200 of /readyz. */
  ms: number;
  /** Whether the process has ended (crashed, or was killed by someone else). */
  exited: () => boolean;
  /** The last 4,000 characters the process wrote (its warnings and errors). */
  output: () => string;
  /** SIGTERM (a graceful stop), then how long the process took to end and its exit status. */
  stop: () => Promise<{ ms: number; code: number | null }>;
  pid: number | undefined;
}

/**
 * Starts the server of `checkout` as its `npm run serve` does (node-flags.ts `serverCommand`) on
 * `dataDir` and resolves once /readyz answers 200 (polled every 25 ms at `http://<host>:<port>`);
 * rejects when the process exits first.
 */
export async function startPortal(options: {
  port: number;
  dataDir: string;
  host?: string;
  env?: Record<string, string>;
  /** The checkout whose server runs (another one's, for a baseline); this one by default. */
  checkout?: string;
}): Promise<RunningPortal> {
  const { port, dataDir, host } = options;
  const started = performance.now();
  const checkout = options.checkout ?? root;
  // As that checkout's `npm run serve` starts it: with its package.json's Node flags and
  // environment (decisions 070 and 071).
  const server = serverCommand(checkout);
  const child = spawn(process.execPath, server.args, {
    cwd: checkout,
    env: portalEnv(dataDir, {
      ...server.env,
      PORT: String(port),
      ...(host ? { HOST: host } : {}),
      ...options.env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      keep(Buffer.from(`\n[the portal exited: ${signal ?? `status ${code}`}]\n`));
      resolve(code);
    }),
  );
  for (;;) {
    if (exited) throw new Error(`the portal exited before it was ready:\n${output}`);
    try {
      if ((await fetch(`http://${host ?? 'localhost'}:${port}/readyz`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = performance.now() - started;
  return {
    ms,
    exited: () => exited,
    output: () => output,
    stop: async () => {
      const asked = performance.now();
      if (!exited) child.kill('SIGTERM');
      const code = await exit;
      return { ms: performance.now() - asked, code };
    },
    pid: child.pid,
  };
}

export interface ScriptFetch {
  url: string;
  /** The body as it came over the wire (brotli from the portal), from Chromium's network events. */
  bytes: number;
}

/** Records every script the page fetches; call the returned function to read them once loaded. */
export function trackScripts(page: Page): () => Promise<ScriptFetch[]> {
  const pending: Promise<ScriptFetch>[] = [];
  page.on('requestfinished', (request) => {
    // Not blob: or data: workers, which are made in the page and never fetched.
    if (request.resourceType() !== 'script' || !/^https?:/.test(request.url())) return;
    pending.push(
      request
        .sizes()
        .then((sizes) => ({ url: new URL(request.url()).pathname, bytes: sizes.responseBodySize })),
    );
  });
  return () => Promise.all(pending);
}

/** The machine's 1, 5 and 15 minute load averages, for the reports. */
export function loadAverage(): string[] {
  return os.loadavg().map((n) => n.toFixed(2));
}

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on Linux's every architecture). */
const USER_HZ = 100;

/** A /proc stat line's name and its user + system CPU time in milliseconds. */
function statCpu(file: string): { name: string; ms: number } | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined; // the thread or process ended meanwhile
  }
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  // utime and stime are the 14th and 15th fields of proc_pid_stat(5), the 12th and 13th after ')'.
  return {
    name: stat.slice(stat.indexOf('(') + 1, close),
    ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ,
  };
}

/**
 * CPU time (user + system, ms) a process has used, by kind of thread (Linux's /proc): `main`
 * (the thread that answers requests), and the others by the names Node and V8 give them
 * (`WorkerThread`: worker_threads such as the embedded database's; `V8Worker`: the garbage
 * collector's and compiler's helpers; `libuv-worker`: libuv's pool). Read before and after a
 * run, it tells what a call costs each thread, whatever else shares the machine's cores.
 */
export function threadCpu(pid: number): Map<string, number> {
  const byKind = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return byKind;
  }
  for (const tid of tasks) {
    const cpu = statCpu(`/proc/${pid}/task/${tid}/stat`);
    if (!cpu) continue;
    const kind = tid === String(pid) ? 'main' : cpu.name;
    byKind.set(kind, (byKind.get(kind) ?? 0) + cpu.ms);
  }
  return byKind;
}

/** CPU time (ms) used by every process of this name (`postgres`: the server and its backends). */
export function commandCpu(name: string): number {
  let ms = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cpu = statCpu(`/proc/${pid}/stat`);
    if (cpu?.name === name) ms += cpu.ms;
  }
  return ms;
}

/** Nearest-rank percentiles (and mean, min, max) of a set of timings. */
export function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  return {
    median: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    mean: s.reduce((n, x) => n + x, 0) / s.length,
    min: s[0]!,
    max: s[s.length - 1]!,
  };
}
