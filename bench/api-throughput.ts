/**
 * Throughput and latency of the portal API under concurrent load, each call next to a plain
 * `node:http` server answering the same bytes in the same run (issue 11, decision 018).
 *   npm run bench:api [-- --duration 5 --connections 10,50]            (PGlite, temp DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:api
 *   npm run bench:api -- --only 'signed in'        (only the calls whose label contains the text)
 *   BENCH_PORTAL_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench:api   (profile)
 * Starts the portal (its own process) on a fresh database with the demo content; through its API
 * the demo developer creates an organization and an application subscribed to the Accounts API
 * and gets a client_credentials token. Then, with autocannon, for each connection count, each call
 * runs right after its baseline (a plain node:http process serving the body that call answered):
 *   - the spec's JSON:API lists, anonymous (the product list as the web app asks for it, the
 *     categories, the changelog, the documentation list);
 *   - the signed-in application list (`/phpsdk/organization/apps`, the session cookie);
 *   - a sandbox call with the bearer token (`/sandbox/accounts-v1/accounts?limit=5`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { autocannon } from './autocannon.ts';
import { freshDatabase } from './database.ts';
import { sandboxClient } from './portal-api.ts';
import { freePort, loadAverage, startPortal, type RunningPortal } from './support.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10,50' },
    only: { type: 'string', default: '' },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = args.connections.split(',').map(Number);

const LIST =
  '/jsonapi/node/api_product?sort=-changed&include=field_image&fields%5Bfile--file%5D=uri,url' +
  '&filter%5Bdeprecated%5D%5Bgroup%5D%5Bconjunction%5D=OR' +
  '&filter%5Bnd%5D%5Bcondition%5D%5Bpath%5D=field_deprecated&filter%5Bnd%5D%5Bcondition%5D%5Bvalue%5D=0' +
  '&filter%5Bnd%5D%5Bcondition%5D%5BmemberOf%5D=deprecated' +
  '&filter%5Bnf%5D%5Bcondition%5D%5Bpath%5D=field_deprecated' +
  '&filter%5Bnf%5D%5Bcondition%5D%5Boperator%5D=IS%20NULL' +
  '&filter%5Bnf%5D%5Bcondition%5D%5BmemberOf%5D=deprecated';

/** A plain node:http server (its own process) answering every request with `body`. */
async function baseline(body: string, contentType: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const code = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY, 'base64');
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': process.env.TYPE, 'content-length': body.length });
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', code], {
    env: { ...process.env, BODY: Buffer.from(body).toString('base64'), TYPE: contentType },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout!, 'data');
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

const { dataDir, databaseUrl, label: dbLabel, remove } = await freshDatabase();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
let portal: RunningPortal | undefined;
try {
  portal = await startPortal({
    port,
    dataDir,
    host: '127.0.0.1',
    env: {
      HOST: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      // A CPU profile of the portal alone (written when it stops).
      ...(process.env.BENCH_PORTAL_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.BENCH_PORTAL_NODE_OPTIONS }
        : {}),
    },
  });
  console.log(
    `database: ${dbLabel}; portal ready in ${(portal.ms / 1000).toFixed(1)} s; load ${loadAverage().join(' ')}`,
  );

  const { developer, token } = await sandboxClient(base, {
    organization: 'Throughput bench',
    title: 'Throughput probe',
  });
  const cookie = developer.cookieHeader();
  const cases: { label: string; path: string; headers: Record<string, string> }[] = [
    { label: 'product list (anonymous, spec filter, include=field_image)', path: LIST, headers: {} },
    {
      label: 'product categories (anonymous)',
      path: '/jsonapi/taxonomy_term/product_categories',
      headers: {},
    },
    { label: 'changelog (anonymous)', path: '/jsonapi/node/change_log', headers: {} },
    { label: 'documentation list (anonymous)', path: '/jsonapi/node/api_documentation', headers: {} },
    { label: 'product list (signed in, cached per user)', path: LIST, headers: { cookie } },
    {
      label: 'application list (signed in)',
      path: '/phpsdk/organization/apps?page%5Blimit%5D=50&_format=json',
      headers: { cookie },
    },
    {
      label: 'sandbox call (bearer token, scopes, validation, recorded)',
      path: '/sandbox/accounts-v1/accounts?limit=5',
      headers: { authorization: `Bearer ${token.access_token}` },
    },
  ];

  const rows: string[] = [];
  for (const c of cases.filter((x) => x.label.includes(args.only))) {
    const res = await fetch(`${base}${c.path}`, { headers: c.headers });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${c.label}: ${res.status} ${body.slice(0, 300)}`);
    const plain = await baseline(body, res.headers.get('content-type') ?? 'application/json');
    try {
      for (const connections of CONNECTIONS) {
        // Warm both, then measure the baseline and the call one after the other.
        await autocannon({ url: plain.url, connections, duration: 1 });
        await autocannon({ url: `${base}${c.path}`, connections, duration: 1, headers: c.headers });
        const b = await autocannon({ url: plain.url, connections, duration: DURATION });
        const r = await autocannon({
          url: `${base}${c.path}`,
          connections,
          duration: DURATION,
          headers: c.headers,
        });
        if (r.non2xx || r.errors) throw new Error(`${c.label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        const share = (100 * r.requests.average) / b.requests.average;
        const row =
          `| ${c.label} | ${connections} | ${Math.round(r.requests.average).toLocaleString('en')} | ` +
          `${r.latency.p50} / ${r.latency.p99} ms | ${Math.round(b.requests.average).toLocaleString('en')} | ` +
          `${share.toFixed(0)} % | ${(body.length / 1024).toFixed(1)} KiB |`;
        rows.push(row);
        console.log(row);
      }
    } finally {
      plain.stop();
    }
  }
  console.log(`\n${dbLabel}, ${DURATION} s per run, load average now ${loadAverage().join(' ')}`);
  console.log('| call | connections | req/s | p50 / p99 | node:http req/s | share | body |');
  console.log('| ---- | ----------- | ----- | --------- | --------------- | ----- | ---- |');
  for (const row of rows) console.log(row);
} finally {
  await portal?.stop();
  await remove();
}
