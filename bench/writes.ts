/**
 * The portal's commonest writes at 50 connections, each next to a plain `node:http` process doing
 * the same round trips in the same run (issue 29).
 *   npm run bench:writes                                    (PGlite, temp DATA_DIR)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:writes
 *       (PGlite, then PostgreSQL: a new database on that server, dropped at the end; TEST_DATABASE_URL
 *       or DATABASE_URL are used when BENCH_DATABASE_URL is not set)
 *   npm run bench:writes -- --duration 5 --connections 50 --only ticket --db postgres
 *   npm run bench:writes -- --before /tmp/portico-before    (that checkout's server first, per database)
 *
 * The portal starts on a fresh database with a copy of the demo content plus one account per
 * connection (`bench.writer.N@portico.local`), with TRUST_PROXY=true so that each connection is its
 * own client address (X-Forwarded-For: the forum's per-address limit). Each of the `connections`
 * workers signs in as its own user through the whole OpenID Connect flow, creates an organization
 * and an application, and warms every route once. Then, one write after the other, all workers run
 * it in a loop for `duration` seconds over real HTTP with their session cookie and CSRF token:
 *   - sign-in: the whole flow of a browser (authorization-info, the provider's form, the code
 *     exchange; 6 round trips, password hashing) in a new cookie jar;
 *   - create application (`POST /phpsdk/organization/apps/create`);
 *   - subscribe and unsubscribe in turn (`POST /api/application`, `type` subscribe | unsubscribe);
 *   - create support ticket (`POST /api/support_ticket/create`; a worker stops at the per-user limit,
 *     10 an hour);
 *   - forum comment (`POST /jsonapi/comment/comment_forum` on one topic; a worker stops at the
 *     forum's per-user limit, FORUM_COMMENTS_PER_USER in 10 minutes);
 *   - try-out history item (`PUT /api/tryout/history/{uuid}`, a new item each time).
 * Right before each, the baseline: a `node:http` process answering the portal's status and body
 * for that write, driven by the same client with the same method, body and number of round trips.
 * During each portal run the server's event loop is watched from inside its process
 * (bench/event-loop-probe.mjs, preloaded): perf_hooks' monitorEventLoopDelay max (wall clock, so
 * on a busy machine it includes time the process was not scheduled) and the longest main-thread
 * work between two turns in CPU time (the same stall without the other processes).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FORUM_COMMENTS_PER_USER } from '@portico/contracts/forum';
import { signIn, TestClient } from '../apps/server/test/http-client.ts';
import { freshDatabase } from './database.ts';
import { check, json } from './portal-api.ts';
import { freePort, loadAverage, percentiles, root, startPortal } from './support.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string', default: '' },
    db: { type: 'string', default: '' },
    // Another checkout (an earlier commit's clone with its own node_modules): its server runs the
    // same writes first, for each database, so that before and after come from the same run.
    before: { type: 'string', default: '' },
  },
});
const DURATION_MS = Number(args.duration) * 1000;
const CONNECTIONS = Number(args.connections);
const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const DATABASES = (args.db ? [args.db] : ['pglite', ...(POSTGRES_URL ? ['postgres'] : [])]) as (
  'pglite' | 'postgres'
)[];
const PASSWORD = 'BenchWriter#2026';
/** LIMITS.ticketsPerUser of apps/server/src/modules/support/service.ts (per hour). */
const TICKETS_PER_USER = 10;
const probe = path.join(root, 'bench', 'event-loop-probe.mjs');

/** A cookie jar that counts its round trips (a sign-in is several). */
class Client extends TestClient {
  trips = 0;
  override request(url: string, init: RequestInit = {}): Promise<Response> {
    this.trips++;
    return super.request(url, init);
  }
}

interface Worker {
  n: number;
  email: string;
  ip: string;
  client: Client;
  organization: string;
  application: string;
  subscribed: boolean;
}

/** A write as a worker does it: its round trips; resolves with a label when it succeeded. */
type Write = (w: Worker, i: number) => Promise<string | undefined>;

interface Run {
  count: number;
  seconds: number;
  /** Latencies per label (subscribe / unsubscribe are one write taken in turn). */
  samples: Map<string, number[]>;
  errors: number;
  firstError: string;
  /** Workers that stopped at a limit (forum comments). */
  capped: number;
}

/** All workers run `write` in a loop until the deadline (or `cap` writes each). */
async function drive(workers: Worker[], write: Write, cap = Infinity): Promise<Run> {
  const samples = new Map<string, number[]>();
  let count = 0;
  let errors = 0;
  let firstError = '';
  let capped = 0;
  const started = performance.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    workers.map(async (w) => {
      for (let i = 0; performance.now() < deadline; i++) {
        if (i >= cap) {
          capped++;
          return;
        }
        const t0 = performance.now();
        try {
          const label = await write(w, i);
          const ms = performance.now() - t0;
          if (label === undefined) continue;
          let list = samples.get(label);
          if (!list) samples.set(label, (list = []));
          list.push(ms);
          count++;
        } catch (e) {
          errors++;
          firstError ||= e instanceof Error ? e.message : String(e);
        }
      }
    }),
  );
  return { count, seconds: (performance.now() - started) / 1000, samples, errors, firstError, capped };
}

/** A plain node:http process answering every request with `status` and `body` once it is read. */
async function plainServer(status: number, body: string): Promise<{ base: string; stop: () => void }> {
  const port = await freePort();
  const code = `
    const http = require('node:http');
    const body = Buffer.from(process.env.BODY, 'base64');
    http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(${status}, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      });
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', code], {
    env: { ...process.env, BODY: Buffer.from(body).toString('base64') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout!, 'data');
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/**
 * The demo content plus one account per worker, in a temporary CONTENT_DIR: the checkout's own
 * (a 'before' checkout's importer may not read today's content files).
 */
function contentWithWriters(checkout = root): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-content-'));
  fs.cpSync(path.join(checkout, 'content'), dir, { recursive: true });
  const users = Array.from(
    { length: CONNECTIONS },
    (_, n) =>
      `- email: bench.writer.${n}@portico.local\n  password: '${PASSWORD}'\n  firstName: Writer\n  lastName: W${n}\n`,
  ).join('');
  fs.appendFileSync(path.join(dir, 'users.yaml'), `\n${users}`);
  return dir;
}

async function inBatches<T>(items: T[], size: number, f: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(f));
}

const applicationBody = (title: string) => ({
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
});
const ticketBody = (w: Worker, i: number) => ({
  title: `Sandbox returns 502 (${w.n}-${i})`,
  contact_info: '+44 20 7946 0000',
  description: 'Every POST /payments in the sandbox answers 502 since this morning.',
  environment: 'Test',
  severity: 'High',
  details: 'Request-Id 7f3c. Started at 08:10 UTC.',
  message: 'Request-Id 7f3c. Started at 08:10 UTC.',
});
const commentBody = (topic: string, w: Worker, i: number) => ({
  data: {
    type: 'comment--comment_forum',
    attributes: {
      subject: '',
      entity_type: 'node',
      field_name: 'comment_forum',
      comment_body: {
        value: `<p>Same here (${w.n}-${i}): the sandbox answers 502.</p>`,
        format: 'basic_html',
      },
    },
    relationships: { entity_id: { data: { type: 'node--forum', id: topic } } },
  },
});
const tryoutItem = (uuid: string) => ({
  uuid,
  documentationId: 'accounts-v1',
  method: 'get',
  path: '/accounts/{accountId}',
  description: 'Get an account',
  form: { header: {}, query: { limit: '10' }, path: { accountId: 'acc-1' }, body: '' },
  response: { status: 200, data: { id: 'acc-1' } },
  created: Date.now(),
  favorite: false,
  imported: false,
  fromTour: false,
});

interface Case {
  label: string;
  /** The portal's write. */
  write: Write;
  /** What one write sends, for the baseline: method, body and round trips. */
  baseline: { method: string; body: string | undefined; trips: number; status: number; answer: string };
  cap?: number;
}

async function benchDatabase(kind: 'pglite' | 'postgres', checkout?: string): Promise<string[]> {
  const database = await freshDatabase({ postgres: kind === 'postgres' ? POSTGRES_URL! : false });
  const content = contentWithWriters(checkout);
  const loopFile = path.join(database.dataDir, 'event-loop.json');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const portal = await startPortal({
    port,
    dataDir: database.dataDir,
    host: '127.0.0.1',
    ...(checkout ? { checkout } : {}),
    env: {
      CONTENT_DIR: content,
      TRUST_PROXY: 'true',
      BENCH_LOOP_FILE: loopFile,
      NODE_OPTIONS: `--import ${probe}`,
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    },
  });
  const rows: string[] = [];
  try {
    console.log(
      `\n${database.label}${checkout ? ` (${checkout})` : ''}: portal ready in ${(portal.ms / 1000).toFixed(1)} s; load ${loadAverage().join(' ')}`,
    );
    type Loop = { epoch: number; longest: number; delayMaxMs?: number; delayP99Ms?: number };
    const readLoop = (): Loop | undefined =>
      fs.existsSync(loopFile) ? (JSON.parse(fs.readFileSync(loopFile, 'utf8')) as Loop) : undefined;
    const watchLoop = async () => {
      const before = readLoop()?.epoch ?? 0;
      process.kill(portal.pid!, 'SIGUSR2');
      while ((readLoop()?.epoch ?? 0) === before) await new Promise((r) => setTimeout(r, 10));
    };

    // The workers: signed in, an organization and an application each.
    const workers: Worker[] = Array.from({ length: CONNECTIONS }, (_, n) => ({
      n,
      email: `bench.writer.${n}@portico.local`,
      ip: `10.29.${n >> 8}.${n & 255}`,
      client: new Client(base, { 'x-forwarded-for': `10.29.${n >> 8}.${n & 255}` }),
      organization: '',
      application: '',
      subscribed: false,
    }));
    const product = await json<{ data: { uuid: string } }>(
      await fetch(`${base}/phpsdk/products/getProductUuid?pathAlias=accounts-api-v1`),
      200,
      'product uuid',
    );
    await inBatches(workers, 10, async (w) => {
      const signedIn = await signIn(w.client, w.email, PASSWORD);
      if (signedIn.status !== 200) throw new Error(`sign-in of ${w.email}: ${signedIn.status}`);
      const org = await json<{ data: { id: string } }>(
        await w.client.send('POST', '/jsonapi/group/organization', {
          data: {
            type: 'group--organization',
            attributes: { label: `Writers ${w.n}`, field_body: { value: '', format: 'plain_text' } },
          },
        }),
        201,
        'create organization',
      );
      w.organization = org.data.id;
    });
    const forums = await json<{ data: { id: string; attributes: { forum_container: boolean } }[] }>(
      await fetch(`${base}/jsonapi/taxonomy_term/forums`),
      200,
      'forums',
    );
    const forum = forums.data.find((f) => !f.attributes.forum_container);
    if (!forum) throw new Error('no forum takes topics');
    const topic = (
      await json<{ data: { id: string } }>(
        await workers[0]!.client.send('POST', '/jsonapi/node/forum', {
          data: {
            type: 'node--forum',
            attributes: {
              title: 'The sandbox answers 502',
              body: { value: '<p>Since 08:10.</p>', format: 'basic_html' },
            },
            relationships: { taxonomy_forums: { data: { type: 'taxonomy_term--forums', id: forum.id } } },
          },
        }),
        201,
        'forum topic',
      )
    ).data.id;

    const createApplication = async (w: Worker, title: string) => {
      const res = await w.client.send(
        'POST',
        `/phpsdk/organization/apps/create?ORGANIZATION=${w.organization}&_format=json`,
        applicationBody(title),
      );
      return json<{ data: { meta: { application: { uuid: string } } } }>(res, 201, 'create application');
    };
    const toggle = async (w: Worker) => {
      const type = w.subscribed ? 'unsubscribe' : 'subscribe';
      await check(
        await w.client.send(
          'POST',
          '/api/application',
          { type, application: w.application, product: product.data.uuid },
          'application/json',
        ),
        200,
        type,
      );
      w.subscribed = !w.subscribed;
      return type;
    };
    const comment = async (w: Worker, i: number) => {
      const res = await w.client.send('POST', '/jsonapi/comment/comment_forum', commentBody(topic, w, i));
      return check(res, 201, 'forum comment');
    };
    // Every route once per worker (the warm-up), and one sample answer of each for the baselines.
    const answers: Record<string, string> = {};
    await inBatches(workers, 10, async (w) => {
      const created = await createApplication(w, `Writer ${w.n} app`);
      w.application = created.data.meta.application.uuid;
      answers.application = JSON.stringify(created);
      await toggle(w);
      answers.subscription = await (
        await check(
          await w.client.send(
            'POST',
            '/api/application',
            { type: 'unsubscribe', application: w.application, product: product.data.uuid },
            'application/json',
          ),
          200,
          'unsubscribe',
        )
      ).text();
      w.subscribed = false;
      answers.ticket = await (
        await check(
          await w.client.send('POST', '/api/support_ticket/create', ticketBody(w, -1), 'application/json'),
          201,
          'ticket',
        )
      ).text();
      answers.comment = await (await comment(w, -1)).text();
      const uuid = randomUUID();
      answers.tryout = await (
        await check(
          await w.client.send('PUT', `/api/tryout/history/${uuid}`, tryoutItem(uuid), 'application/json'),
          200,
          'try-out history',
        )
      ).text();
    });
    const probeClient = new Client(base, { 'x-forwarded-for': '10.29.255.1' });
    const probeSignIn = await signIn(probeClient, workers[0]!.email, PASSWORD);
    const signInTrips = probeClient.trips;
    answers.signIn = JSON.stringify(probeSignIn.body);

    const cases: Case[] = [
      {
        label: 'sign-in (whole flow, new cookie jar)',
        write: async (w) => {
          const client = new Client(base, { 'x-forwarded-for': w.ip });
          const result = await signIn(client, w.email, PASSWORD);
          if (result.status !== 200) throw new Error(`sign-in: ${result.status}`);
          return 'sign-in';
        },
        baseline: {
          method: 'GET',
          body: undefined,
          trips: signInTrips,
          status: 200,
          answer: answers.signIn,
        },
      },
      {
        label: 'create application',
        write: async (w, i) => {
          await createApplication(w, `Writer ${w.n} app ${i}`);
          return 'create application';
        },
        baseline: {
          method: 'POST',
          body: JSON.stringify(applicationBody('Writer 0 app 0')),
          trips: 1,
          status: 201,
          answer: answers.application!,
        },
      },
      {
        label: 'subscribe / unsubscribe',
        write: async (w) => {
          await toggle(w);
          return 'subscribe / unsubscribe (in turn)';
        },
        baseline: {
          method: 'POST',
          body: JSON.stringify({ type: 'subscribe', application: randomUUID(), product: randomUUID() }),
          trips: 1,
          status: 200,
          answer: answers.subscription!,
        },
      },
      {
        label: 'create support ticket',
        write: async (w, i) => {
          await check(
            await w.client.send('POST', '/api/support_ticket/create', ticketBody(w, i), 'application/json'),
            201,
            'ticket',
          );
          return 'create support ticket';
        },
        cap: TICKETS_PER_USER - 1,
        baseline: {
          method: 'POST',
          body: JSON.stringify(ticketBody(workers[0]!, 0)),
          trips: 1,
          status: 201,
          answer: answers.ticket!,
        },
      },
      {
        label: 'forum comment',
        write: async (w, i) => {
          await comment(w, i);
          return 'forum comment';
        },
        cap: FORUM_COMMENTS_PER_USER - 1,
        baseline: {
          method: 'POST',
          body: JSON.stringify(commentBody(topic, workers[0]!, 0)),
          trips: 1,
          status: 201,
          answer: answers.comment!,
        },
      },
      {
        label: 'try-out history item',
        write: async (w) => {
          const uuid = randomUUID();
          await check(
            await w.client.send('PUT', `/api/tryout/history/${uuid}`, tryoutItem(uuid), 'application/json'),
            200,
            'try-out history',
          );
          return 'try-out history item';
        },
        baseline: {
          method: 'PUT',
          body: JSON.stringify(tryoutItem(randomUUID())),
          trips: 1,
          status: 200,
          answer: answers.tryout!,
        },
      },
    ];

    for (const c of cases.filter((x) => x.label.includes(args.only))) {
      const plain = await plainServer(c.baseline.status, c.baseline.answer);
      let b: Run;
      try {
        b = await drive(workers, async (w) => {
          for (let t = 0; t < c.baseline.trips; t++) {
            const res = await w.client.request(`${plain.base}/write`, {
              method: c.baseline.method,
              headers: { 'content-type': 'application/json', 'x-csrf-token': w.client.csrfToken ?? '' },
              ...(c.baseline.body === undefined ? {} : { body: c.baseline.body }),
            });
            await res.arrayBuffer();
          }
          return 'baseline';
        });
      } finally {
        plain.stop();
      }
      const loadBefore = loadAverage()[0];
      await watchLoop();
      const r = await drive(workers, c.write, c.cap);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const loop = readLoop()!;
      const loadAfter = loadAverage()[0];
      const bp = percentiles(b.samples.get('baseline') ?? [0]);
      for (const [label, samples] of r.samples) {
        const p = percentiles(samples);
        const row =
          `| ${label} | ${Math.round(samples.length / r.seconds).toLocaleString('en')} | ` +
          `${p.median.toFixed(0)} / ${p.p99.toFixed(0)} ms | ` +
          `${Math.round(b.count / b.seconds).toLocaleString('en')} | ${bp.median.toFixed(0)} / ${bp.p99.toFixed(0)} ms | ` +
          `${loop.delayMaxMs?.toFixed(0) ?? '?'} ms | ${loop.longest.toFixed(0)} ms | ` +
          `${r.errors}${r.capped ? `, ${r.capped} at the limit` : ''} | ${loadBefore} → ${loadAfter} |`;
        rows.push(row);
        console.log(row);
      }
      if (r.errors) console.log(`  first error: ${r.firstError.slice(0, 300)}`);
    }
    console.log(
      `\n${database.label}, ${CONNECTIONS} connections, ${DURATION_MS / 1000} s per run, load average now ${loadAverage().join(' ')}`,
    );
    console.log(
      '| write | req/s | p50 / p99 | node:http req/s | node:http p50 / p99 | event loop max (wall) | longest turn (CPU) | errors | load (1 min) |',
    );
    console.log(
      '| ----- | ----- | --------- | --------------- | ------------------- | --------------------- | ------------------ | ------ | ------------ |',
    );
    for (const row of rows) console.log(row);
    return rows;
  } finally {
    const stopped = await portal.stop();
    if (stopped.code !== 0) console.log(`the portal ended with ${stopped.code}:\n${portal.output()}`);
    await database.remove();
    fs.rmSync(content, { recursive: true, force: true });
  }
}

for (const kind of DATABASES) {
  if (args.before) await benchDatabase(kind, path.resolve(args.before));
  await benchDatabase(kind);
}
