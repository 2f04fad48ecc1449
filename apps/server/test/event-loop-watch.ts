import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/**
 * The longest time the main thread worked without giving the event loop a turn: the main thread's
 * own CPU time between two ticks of a 2 ms timer. Unlike the wall-clock gap (also reported), it
 * does not count the time the machine gave to other processes (the test machine is shared).
 *
 * `longestWorkBesideGc` is the same less the garbage collector's pauses in that turn (V8's
 * `gc` performance entries), and `longestGc` the longest pause: a scavenge of a test process's
 * young generation took up to 70 ms on the shared test machine, whatever the code under test does
 * between two turns.
 */
export function watchEventLoop() {
  const cpu = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  let longestWork = 0;
  let longestGap = 0;
  let turns = 0;
  let lastCpu = cpu();
  let lastWall = performance.now();
  // Turns that may matter once the collector's pauses are known (they are reported afterwards).
  const long: { from: number; to: number; work: number }[] = [];
  const tick = () => {
    const nowCpu = cpu();
    const nowWall = performance.now();
    const work = nowCpu - lastCpu;
    longestWork = Math.max(longestWork, work);
    longestGap = Math.max(longestGap, nowWall - lastWall);
    if (work > 10) long.push({ from: lastWall, to: nowWall, work });
    lastCpu = nowCpu;
    lastWall = nowWall;
    turns++;
  };
  const pauses: PerformanceEntry[] = [];
  const gc = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  gc.observe({ entryTypes: ['gc'] });
  const timer = setInterval(tick, 2);
  return {
    stop() {
      // The stretch since the last tick counts too (a single long block never lets the timer run).
      tick();
      clearInterval(timer);
      pauses.push(...gc.takeRecords());
      gc.disconnect();
      let longestWorkBesideGc = Math.min(longestWork, 10);
      for (const turn of long) {
        const inTurn = pauses
          .filter((p) => p.startTime >= turn.from && p.startTime < turn.to)
          .reduce((sum, p) => sum + p.duration, 0);
        longestWorkBesideGc = Math.max(longestWorkBesideGc, turn.work - inTurn);
      }
      const longestGc = Math.max(0, ...pauses.map((p) => p.duration));
      return { longestWork, longestGap, turns, longestWorkBesideGc, longestGc };
    },
  };
}
