import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/**
 * How background threads run below the answering thread (decisions 066 and 069): the embedded
 * database's thread and the document worker pool's threads take a lower CPU priority than the
 * thread that answers requests, and keep a small young generation, so that their work neither
 * delays answers nor holds memory at rest. (The file's name is older than the young generation.)
 */

/**
 * The niceness the portal's background threads add to their own (decision 066): the embedded
 * database's thread and the document worker pool's threads. When they and the thread that answers
 * requests want the same core, the scheduler gives the answering thread about ten times their
 * share, so a big import no longer delays `/healthz` by a scheduler's time slice; when the main
 * thread is idle they run at full speed.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the CPU priority of the calling thread alone, by `increment` nice levels. On Linux a
 * thread is a task of its own to setpriority(2), named by its id (`/proc/thread-self`); elsewhere,
 * or when that cannot be read, nothing changes (a priority is a preference, never a correctness
 * matter). Answers the thread's niceness afterwards, or undefined when unchanged.
 */
export function lowerThisThreadsPriority(increment = BACKGROUND_NICENESS): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const target = fs.readlinkSync('/proc/thread-self'); // `<pid>/task/<tid>`
    const tid = Number(target.slice(target.lastIndexOf('/') + 1));
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + increment));
    return os.getPriority(tid);
  } catch {
    return undefined;
  }
}

/**
 * The young generation of the background threads' heaps, in MB (Worker `resourceLimits`,
 * decision 069). V8 lets a thread's young generation grow to tens of megabytes when it allocates
 * fast (parsing a 13 MB document, a database answer of many rows) and the process keeps those
 * pages resident: the embedded database's thread and two document threads held about 210 MB more
 * at rest after an import of GitHub's description (bench:large), for no gain a user sees.
 */
export const BACKGROUND_YOUNG_GENERATION_MB = 8;

/**
 * Whether this process was launched with a semi-space size for its heaps (the `serve` script's
 * `--max-semi-space-size=8`, on the command line or in NODE_OPTIONS).
 */
export function launchedWithSemiSpaceFlag(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) =>
    /^--max[-_]semi[-_]space[-_]size\b/.test(arg),
  );
}

let semiSpaceFlagChecked = false;

/**
 * The `resourceLimits` of a background thread (the embedded database's, the document pool's).
 * The server starts with `--max-semi-space-size=8` for its main thread (decision 070, the `serve`
 * script), and V8 applies a process's flag to every isolate created after it, over a worker's own
 * limit: each background thread then kept 16 MB of young generation, not its 8 (decision 072).
 * A heap reads the flag when it is created, so once the main thread's heap exists the flag is set
 * back to V8's default (0: none) before the first background thread starts; from then on each
 * worker's limit applies, and the main thread keeps the semi-spaces it started with. A process
 * launched without the flag (the test runner's, an embedder's) has nothing to undo, and V8's
 * flags are left alone there: Node's documentation warns against changing them after start-up.
 */
export function backgroundResourceLimits(): ResourceLimits {
  if (!semiSpaceFlagChecked) {
    semiSpaceFlagChecked = true;
    if (launchedWithSemiSpaceFlag()) v8.setFlagsFromString('--max-semi-space-size=0');
  }
  return { maxYoungGenerationSizeMb: BACKGROUND_YOUNG_GENERATION_MB };
}
