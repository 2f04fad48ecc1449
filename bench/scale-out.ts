/**
 * Scale out (issue 29): one, two and four Portico instances on one PostgreSQL database behind a
 * real load balancer (HAProxy from Debian's packages: `apt-get install -y haproxy`).
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale
 *       (TEST_DATABASE_URL or DATABASE_URL are used when BENCH_DATABASE_URL is not set)
 *   npm run bench:scale -- --duration 5 --connections 50 --instances 1,2,4
 *
 * A new database on that server (dropped at the end); the instances share it, one SECRET_KEY and
 * PUBLIC_URL (the load balancer's address), each its own DATA_DIR (README, "Several instances behind
 * one address"); the first imports the demo content. For each count of instances the bench writes
 * an HAProxy configuration on a free port (round robin, keep-alive, `/readyz` health checks),
 * starts `haproxy -db` on it, and with autocannon through it, one call after the other: the
 * anonymous product list (as the web app asks for it), the signed-in application list, and a
 * sandbox call with a bearer token (recorded). The baseline is the same calls through the same
 * load balancer with one instance, in the same run.
 *
 * Then the proof that the instances share one state: the demo developer's session, signed in
 * through the load balancer, reads its application list through every instance directly (each
 * caches it per user), creates an application through instance A and at once reads the list through
 * B, C, ... directly, each time; every read must show the new application (`--rounds` times).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TestClient } from '../apps/server/test/http-client.ts';
import { autocannon } from './autocannon.ts';
import { freshDatabase } from './database.ts';
import { check, json, sandboxClient } from './portal-api.ts';
import { freePort, loadAverage, startPortal, type RunningPortal } from './support.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    instances: { type: 'string', default: '1,2,4' },
    rounds: { type: 'string', default: '20' },
  },
});
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const COUNTS = args.instances.split(',').map(Number);
const MAX = Math.max(...COUNTS);
const ROUNDS = Number(args.rounds);
// The list read is one page of 50, which the demo developer's applications and these must fit.
if (!(ROUNDS >= 1 && ROUNDS <= 40)) throw new Error('--rounds must be between 1 and 40');
const HAPROXY = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
if (HAPROXY.status !== 0) throw new Error('haproxy is not installed: apt-get install -y haproxy');
const HAPROXY_VERSION = /version (\S+)/.exec(HAPROXY.stdout)?.[1] ?? '?';
const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!POSTGRES_URL)
  throw new Error(
    'Several instances share one PostgreSQL database: set BENCH_DATABASE_URL (or TEST_DATABASE_URL)',
  );

const LIST =
  '/jsonapi/node/api_product?sort=-changed&include=field_image&fields%5Bfile--file%5D=uri,url' +
  '&filter%5Bdeprecated%5D%5Bgroup%5D%5Bconjunction%5D=OR' +
  '&filter%5Bnd%5D%5Bcondition%5D%5Bpath%5D=field_deprecated&filter%5Bnd%5D%5Bcondition%5D%5Bvalue%5D=0' +
  '&filter%5Bnd%5D%5Bcondition%5D%5BmemberOf%5D=deprecated' +
  '&filter%5Bnf%5D%5Bcondition%5D%5Bpath%5D=field_deprecated' +
  '&filter%5Bnf%5D%5Bcondition%5D%5Boperator%5D=IS%20NULL' +
  '&filter%5Bnf%5D%5Bcondition%5D%5BmemberOf%5D=deprecated';
const APPS = '/phpsdk/organization/apps?page%5Blimit%5D=50&_format=json';

/** HAProxy in front of `ports` on `port`, in the foreground; stop() ends it. */
async function loadBalancer(port: number, ports: number[], dir: string) {
  const config = path.join(dir, `haproxy-${ports.length}.cfg`);
  fs.writeFileSync(
    config,
    [
      'global',
      '  maxconn 4096',
      'defaults',
      '  mode http',
      '  option http-keep-alive',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      'frontend portal',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  http-reuse safe',
      '  option httpchk GET /readyz',
      ...ports.map((p, i) => `  server portal${i + 1} 127.0.0.1:${p} check inter 2s`),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', config], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let failed = false;
  child.once('exit', () => (failed = true));
  for (;;) {
    if (failed) throw new Error('haproxy exited at start');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A client of instance `base` with the cookies and CSRF token of `from`. */
function sameSession(from: TestClient, base: string): TestClient {
  const client = new TestClient(base);
  for (const [k, v] of from.cookies) client.cookies.set(k, v);
  client.csrfToken = from.csrfToken;
  return client;
}

const database = await freshDatabase({ postgres: POSTGRES_URL });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-scale-'));
const lbPort = await freePort();
const lbBase = `http://127.0.0.1:${lbPort}`;
const shared = {
  DATABASE_URL: database.databaseUrl!,
  SECRET_KEY: randomBytes(32).toString('hex'),
  PUBLIC_URL: lbBase,
  HOST: '127.0.0.1',
  LOGIN_RATE_LIMIT: '1000',
};
const portals: { portal: RunningPortal; port: number; base: string }[] = [];
try {
  for (let i = 0; i < MAX; i++) {
    const port = await freePort();
    const dataDir = path.join(work, `data-${i + 1}`);
    fs.mkdirSync(dataDir);
    const portal = await startPortal({
      port,
      dataDir,
      host: '127.0.0.1',
      // The first instance migrates and imports the demo content; the others find them done.
      env: { ...shared, IMPORT_CONTENT: String(i === 0) },
    });
    portals.push({ portal, port, base: `http://127.0.0.1:${port}` });
    console.log(`instance ${i + 1} ready in ${(portal.ms / 1000).toFixed(1)} s`);
  }
  console.log(`${database.label}, ${os.cpus().length} cores; load ${loadAverage().join(' ')}`);

  // The demo developer, through the load balancer (all instances up): an application with a token.
  let lb = await loadBalancer(
    lbPort,
    portals.map((p) => p.port),
    work,
  );
  const { developer, token } = await sandboxClient(lbBase, {
    organization: 'Scale-out bench',
    title: 'Scale-out probe',
  });

  // A write on one instance is seen on the others at once.
  const org = await json<{ data: { id: string } }>(
    await developer.send('POST', '/jsonapi/group/organization', {
      data: {
        type: 'group--organization',
        attributes: { label: 'Seen everywhere', field_body: { value: '', format: 'plain_text' } },
      },
    }),
    201,
    'create organization',
  );
  const direct = portals.map((p) => sameSession(developer, p.base));
  type AppList = { data: { title?: string; attributes?: { title?: string } }[] };
  const list = async (client: TestClient) =>
    (await json<AppList>(await client.get(APPS), 200, 'application list')).data.map(
      (a) => a.title ?? a.attributes?.title ?? '',
    );
  let seen = 0;
  let reads = 0;
  const writer = direct[0]!;
  const organization = org.data.id;
  for (let round = 0; round < ROUNDS && direct.length > 1; round++) {
    for (const reader of direct) await list(reader); // every instance has the list cached now
    const title = `Seen everywhere ${round}`;
    await check(
      await writer.send(
        'POST',
        `/phpsdk/organization/apps/create?ORGANIZATION=${organization}&_format=json`,
        {
          data: {
            type: 'node--application',
            attributes: {
              title,
              field_description: { value: `<p>${title}</p>`, format: 'basic_html' },
              field_allowed_grant_types: ['client_credentials'],
              field_oauth_redirect_uri: [],
              field_postlogout_redirect_uri: [],
            },
          },
        },
      ),
      201,
      'create application through instance A',
    );
    for (const reader of direct.slice(1)) {
      reads++;
      if ((await list(reader)).includes(title)) seen++;
    }
  }
  console.log(
    `\nwrite through instance A, read at once through ${direct.length - 1} other instances directly: ` +
      `${seen} of ${reads} reads showed it (${ROUNDS} rounds, each after every instance had cached the list)`,
  );
  if (seen !== reads)
    throw new Error(`${reads - seen} reads on another instance missed a write made through A`);
  await lb.stop();

  const cookie = developer.cookieHeader();
  const cases = [
    { label: 'product list (anonymous)', path: LIST, headers: {} as Record<string, string> },
    { label: 'application list (signed in)', path: APPS, headers: { cookie } },
    {
      label: 'sandbox call (bearer token, recorded)',
      path: '/sandbox/accounts-v1/accounts?limit=5',
      headers: { authorization: `Bearer ${token.access_token}` },
    },
  ];
  const single = new Map<string, number>();
  const rows: string[] = [];
  for (const count of COUNTS) {
    lb = await loadBalancer(
      lbPort,
      portals.slice(0, count).map((p) => p.port),
      work,
    );
    try {
      for (const c of cases) {
        const url = `${lbBase}${c.path}`;
        await autocannon({ url, connections: CONNECTIONS, duration: 1, headers: c.headers });
        const load = loadAverage()[0];
        const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: c.headers });
        if (r.non2xx || r.errors)
          throw new Error(`${c.label}, ${count}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        if (count === COUNTS[0]) single.set(c.label, r.requests.average);
        const vs = r.requests.average / single.get(c.label)!;
        const row =
          `| ${c.label} | ${count} | ${Math.round(r.requests.average).toLocaleString('en')} | ` +
          `${Math.round(r.requests.average / count).toLocaleString('en')} | ${r.latency.p50} / ${r.latency.p99} ms | ` +
          `${vs.toFixed(2)}x | ${load} → ${loadAverage()[0]} |`;
        rows.push(row);
        console.log(row);
      }
    } finally {
      await lb.stop();
    }
  }
  console.log(
    `\n${database.label}, HAProxy ${HAPROXY_VERSION}, ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} cores, load now ${loadAverage().join(' ')}`,
  );
  console.log(
    `| call | instances | req/s | req/s per instance | p50 / p99 | vs ${COUNTS[0]} instance${COUNTS[0] === 1 ? '' : 's'} | load (1 min) |`,
  );
  console.log(
    '| ---- | --------- | ----- | ------------------ | --------- | --------------- | ------------ |',
  );
  for (const row of rows) console.log(row);
} finally {
  for (const p of portals.reverse()) await p.portal.stop();
  await database.remove();
  fs.rmSync(work, { recursive: true, force: true });
}
