/**
 * Two checkouts' portals, alternately, on the requests that a launch setting (package.json's
 * `serve` script: Node flags and glibc's environment, decisions 070 and 071) can slow down: the
 * home page compressed per request (zlib's and brotli's work buffers) and the sandbox call.
 *   npm run bench:launch -- --baseline <checkout> [--rounds 2 --duration 4 --connections 10]
 * For each round, the baseline's portal and then this checkout's, each on a fresh PGlite folder
 * with the demo content and started as its own `serve` script starts it; through its API the demo
 * developer gets a client_credentials token for an application subscribed to the Accounts API.
 * Each request runs 1 s of warm-up, then `duration` seconds of autocannon.
 */
import { parseArgs } from 'node:util';
import { autocannon } from './autocannon.ts';
import { freshDatabase } from './database.ts';
import { sandboxClient } from './portal-api.ts';
import { freePort, loadAverage, root, startPortal } from './support.ts';

const { values: args } = parseArgs({
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
  },
});
if (!args.baseline) throw new Error('--baseline <another checkout, with its node_modules and web build>');
const ROUNDS = Number(args.rounds);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);

const checkouts = [
  ['baseline', args.baseline],
  ['this checkout', root],
] as const;
const requests = ['home page, compressed', 'sandbox call'] as const;
const figures = new Map<string, string[]>();

console.log(`load average ${loadAverage().join(' ')}, ${CONNECTIONS} connections, ${DURATION} s runs`);
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, checkout] of checkouts) {
    const database = await freshDatabase({ postgres: false });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const portal = await startPortal({ port, dataDir: database.dataDir, host: '127.0.0.1', checkout });
    try {
      const { token } = await sandboxClient(base, {
        organization: 'Launch settings bench',
        title: 'Launch settings probe',
      });
      const targets: Record<(typeof requests)[number], { path: string; headers: Record<string, string> }> = {
        'home page, compressed': { path: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } },
        'sandbox call': {
          path: '/sandbox/accounts-v1/accounts?limit=5',
          headers: { authorization: `Bearer ${token.access_token}` },
        },
      };
      for (const request of requests) {
        const { path, headers } = targets[request];
        // The response really is what is measured: compressed, or the sandbox's answer.
        const probe = await fetch(base + path, { headers });
        await probe.arrayBuffer();
        if (probe.status !== 200) throw new Error(`${request}: ${probe.status}`);
        if (request === 'home page, compressed' && !probe.headers.get('content-encoding'))
          throw new Error('the home page was not compressed');
        await autocannon({ url: base + path, connections: CONNECTIONS, duration: 1, headers });
        const r = await autocannon({
          url: base + path,
          connections: CONNECTIONS,
          duration: DURATION,
          headers,
        });
        if (r.non2xx || r.errors || r.timeouts)
          throw new Error(`${request}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
        const figure = `${Math.round(r['2xx'] / r.duration).toLocaleString('en')} (p99 ${r.latency.p99} ms)`;
        const key = `${request}|${name}`;
        figures.set(key, [...(figures.get(key) ?? []), figure]);
        console.log(`round ${round}, ${name}, ${request}: ${figure} req/s`);
      }
    } finally {
      await portal.stop();
      await database.remove();
    }
    console.log(`round ${round}, ${name} done; load ${loadAverage()[0]}`);
  }
}

console.log('\n| request | baseline req/s | this checkout req/s |\n| --- | --- | --- |');
for (const request of requests)
  console.log(
    `| ${request} | ${(figures.get(`${request}|baseline`) ?? []).join(', ')} | ${(figures.get(`${request}|this checkout`) ?? []).join(', ')} |`,
  );
console.log(`load average after: ${loadAverage().join(' ')}`);
