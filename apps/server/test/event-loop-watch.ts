/**
 * The longest time the main thread worked without giving the event loop a turn: the main thread's
 * own CPU time between two ticks of a 2 ms timer. Unlike the wall-clock gap (also reported), it
 * does not count the time the machine gave to other processes (the test machine is shared).
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
  const tick = () => {
    const nowCpu = cpu();
    const nowWall = performance.now();
    longestWork = Math.max(longestWork, nowCpu - lastCpu);
    longestGap = Math.max(longestGap, nowWall - lastWall);
    lastCpu = nowCpu;
    lastWall = nowWall;
    turns++;
  };
  const timer = setInterval(tick, 2);
  return {
    stop() {
      // The stretch since the last tick counts too (a single long block never lets the timer run).
      tick();
      clearInterval(timer);
      return { longestWork, longestGap, turns };
    },
  };
}
