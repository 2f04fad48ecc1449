import fs from 'node:fs';
import path from 'node:path';

/** The server's entry point, relative to a checkout. */
export const SERVER_ENTRY = 'apps/server/src/server.ts';

/**
 * How the server's process is started: the Node/V8 flags and the environment variables it starts
 * with. Their one home is the `serve` script of the checkout's package.json (`npm start` runs the
 * same command); whoever starts a server process of a checkout (the browser tests' portal, the
 * benches, a baseline checkout's server) passes what that checkout's script gives, so that it runs
 * as `npm run serve` would run it.
 *
 * Today (decisions 070, 071 and 074):
 * - `--max-semi-space-size=8`: the main thread's young generation in semi-spaces of 8 MB. V8's
 *   default let it grow to 64 MB, which the process kept resident and which every full collection
 *   evacuated in its pause.
 * - `--heap-growing-percent=25`: after a full collection, each heap may grow to 1.25 times what
 *   was live before the next one (V8 picks up to 4 times when collecting is quick), so the garbage
 *   of an import does not stay resident between collections.
 * - `--expose-gc-as=porticoCollectGarbage` (decision 074): V8's collector under a name of the
 *   server's own, which it calls once when its start is done (lib/collector.ts reduceHeap).
 * - `MALLOC_ARENA_MAX=2` (through `env`): glibc gives each thread that allocates a malloc arena of
 *   its own and keeps what they freed; the server's threads (the main one, the document pool's, the
 *   database's, V8's and libuv's helpers) share two.
 * - `MALLOC_MMAP_THRESHOLD_=131072` (through `env`, decision 071 amended): glibc serves every
 *   allocation of 128 KiB or more with a mapping of its own, given back when freed. By default it
 *   raises that threshold up to 32 MB after the first such allocation is freed, so the large
 *   transient blocks of a start and of an import (V8's compiler zones, document buffers) land in
 *   the arenas, whose middles it never gives back. Fixed at 128 KiB: 25-45 MB less at an import's
 *   peak. Lower thresholds saved more but served compressed pages slower (zlib's 64 KiB buffers
 *   then mapped per response).
 */
export interface ServerProcess {
  /** Node and V8 flags, before the entry point. */
  flags: string[];
  /** Environment variables the script sets for the process (`env NAME=value ... node ...`). */
  env: Record<string, string>;
}

export function serverProcess(checkout: string): ServerProcess {
  const pkg = JSON.parse(fs.readFileSync(path.join(checkout, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const serve = pkg.scripts?.serve ?? '';
  const words = serve.split(/\s+/);
  const entry = words.indexOf(SERVER_ENTRY);
  const node = words.lastIndexOf('node', entry);
  if (entry === -1 || node === -1) return { flags: [], env: {} };
  const env: Record<string, string> = {};
  const envCommand = words.lastIndexOf('env', node);
  if (envCommand !== -1) {
    for (const word of words.slice(envCommand + 1, node)) {
      const assignment = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word);
      if (assignment) env[assignment[1]!] = assignment[2]!;
    }
  }
  return { flags: words.slice(node + 1, entry).filter((w) => w.startsWith('--')), env };
}

/** A command that starts a checkout's server: what to give `process.execPath`, and what to add to the environment. */
export interface ServerCommand {
  /** The checkout's flags, then `extraFlags`, then the checkout's entry point (an absolute path). */
  args: string[];
  /** The environment variables the checkout's `serve` script sets. */
  env: Record<string, string>;
}

/**
 * How whoever starts a checkout's server (the browser tests' portal, the server tests that start
 * real processes, the benches and their baseline checkouts) starts it: as its `npm run serve`
 * does, with `extraFlags` (a profiler, a probe, a flag under test) after the script's own.
 */
export function serverCommand(checkout: string, extraFlags: readonly string[] = []): ServerCommand {
  const server = serverProcess(checkout);
  return { args: [...server.flags, ...extraFlags, path.resolve(checkout, SERVER_ENTRY)], env: server.env };
}
