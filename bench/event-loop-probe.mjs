// Preloaded into the portal by bench/large-documents.ts (`node --import`): the longest stretch of
// main-thread CPU time between two ticks of a 2 ms timer, i.e. the longest work the event loop
// did without a turn. CPU time, not wall time, so that other processes on a busy machine do not
// count. SIGUSR2 starts a new measurement; the figures go to BENCH_LOOP_FILE as they change.
//
// Also the wall-clock view (bench/writes.ts): perf_hooks' monitorEventLoopDelay at a 2 ms
// resolution, its max and p99 (`delayMaxMs`, `delayP99Ms`: the longest interval between two of
// its ticks, so at least 2 ms; on a busy machine it also counts time the process was not
// scheduled), written every 250 ms.
//
// Each turn over 50 ms (BENCH_TURN_MS if set) is also kept with its window on the monotonic clock in microseconds
// (`from`, `to`: the clock of `--cpu-prof` profiles, process.hrtime), so that a profile of the same
// process can say what ran in it (bench/profile-turns.mjs; `npm run bench:large -- --profile`).
import fs from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

// Node runs `--import` modules in every worker thread too (the embedded database's, the document
// pool's): only the main thread writes the figures. Before 2026-12-04 every thread wrote the same
// file, so a worker's long task (a PGlite statement, an import pipeline) could be reported as the
// main thread's turn (decision 061).
const file = isMainThread ? process.env.BENCH_LOOP_FILE : undefined;
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
const clockUs = () => Number(process.hrtime.bigint() / 1000n);
let last = cpu();
let lastUs = clockUs();
let longest = 0;
let over50 = 0;
let epoch = 0;
/** The turns over 50 ms of this measurement (the first 100). */
let turns = [];
/** The turns kept and named are those over this much CPU time (ms): BENCH_TURN_MS, 50 unless set. */
const keepOver = Number(process.env.BENCH_TURN_MS ?? 50);
/** V8's collector pauses of this thread since the last tick (ms), and the longest one measured. */
let gcSince = 0;
let gcLongest = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcSince += e.duration;
    gcLongest = Math.max(gcLongest, e.duration);
  }
}).observe({ entryTypes: ['gc'] });
const delay = monitorEventLoopDelay({ resolution: 2 });
delay.enable();
const ms = (ns) => Math.round(ns / 1e4) / 100;
// Written aside and renamed, so that a reader never sees half a file.
const write = () => {
  if (!file) return;
  fs.writeFileSync(
    `${file}.tmp`,
    JSON.stringify({
      epoch,
      longest,
      over50,
      turns,
      gcLongestMs: Math.round(gcLongest * 10) / 10,
      delayMaxMs: ms(delay.max),
      delayP99Ms: ms(delay.percentile(99)),
    }),
  );
  fs.renameSync(`${file}.tmp`, file);
};
setInterval(() => {
  const now = cpu();
  const nowUs = clockUs();
  const work = now - last;
  const fromUs = lastUs;
  // Entries are delivered after the pause, so a turn's own may count in the next one: an estimate.
  const gcMs = gcSince;
  gcSince = 0;
  last = now;
  lastUs = nowUs;
  if (work > 50) over50++;
  if (work > keepOver) {
    if (turns.length < 100)
      turns.push({
        from: fromUs,
        to: nowUs,
        cpuMs: Math.round(work * 10) / 10,
        gcMs: Math.round(gcMs * 10) / 10,
      });
  }
  if (work > longest || work > 50) {
    longest = Math.max(longest, work);
    write();
  }
}, 2).unref();
setInterval(write, 250).unref();
process.on('SIGUSR2', () => {
  epoch++;
  longest = 0;
  over50 = 0;
  turns = [];
  gcLongest = 0;
  delay.reset();
  last = cpu();
  lastUs = clockUs();
  write();
});
