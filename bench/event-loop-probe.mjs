// Preloaded into the portal by bench/large-documents.ts (`node --import`): the longest stretch of
// main-thread CPU time between two ticks of a 2 ms timer, i.e. the longest work the event loop
// did without a turn. CPU time, not wall time, so that other processes on a busy machine do not
// count. SIGUSR2 starts a new measurement; the figures go to BENCH_LOOP_FILE as they change.
import fs from 'node:fs';

const file = process.env.BENCH_LOOP_FILE;
const cpu = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
let last = cpu();
let longest = 0;
let over50 = 0;
let epoch = 0;
// Written aside and renamed, so that a reader never sees half a file.
const write = () => {
  if (!file) return;
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ epoch, longest, over50 }));
  fs.renameSync(`${file}.tmp`, file);
};
setInterval(() => {
  const now = cpu();
  const work = now - last;
  last = now;
  if (work > 50) over50++;
  if (work > longest || work > 50) {
    longest = Math.max(longest, work);
    write();
  }
}, 2).unref();
process.on('SIGUSR2', () => {
  epoch++;
  longest = 0;
  over50 = 0;
  last = cpu();
  write();
});
