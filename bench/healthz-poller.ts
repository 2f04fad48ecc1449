/**
 * Polls a URL (a portal's `/healthz`) every `interval` ms, one request at a time, in a process of
 * its own, until its standard input ends; then prints the latencies (ms) as a JSON array, and the
 * longest delay of its own event loop, so that a bench's measurement of the portal is not made of
 * the bench's own work (its uploads, downloads and collector pauses).
 *
 *   node bench/healthz-poller.ts <url> [interval ms, default 10]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const [url, interval = '10'] = process.argv.slice(2);
if (!url) throw new Error('usage: node bench/healthz-poller.ts <url> [interval ms]');
const latencies: number[] = [];
let polling = true;
process.stdin.on('data', () => {});
process.stdin.once('end', () => (polling = false));
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
while (polling) {
  const started = performance.now();
  try {
    await (await fetch(url)).arrayBuffer();
    latencies.push(performance.now() - started);
  } catch (err) {
    process.stderr.write(`${String(err)}\n`);
  }
  await new Promise((r) => setTimeout(r, Number(interval)));
}
delay.disable();
process.stdout.write(JSON.stringify({ latencies, ownLoopDelayMaxMs: delay.max / 1e6 }));
