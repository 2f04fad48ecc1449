/**
 * The first start of a fresh clone (issue 29: `npm install && npm start` answers in under 60 s).
 *   npm run bench:clone                 # this checkout's branch, cloned into a temporary folder
 *   npm run bench:clone -- --runs 2
 *   npm run bench:clone -- --commits 1a2b3c4,HEAD     # before and after, taking turns, in one run
 *
 * `git clone` of this checkout (its current branch, as committed; with --commits, each commit in
 * turn checked out in the clone), then in the clone, timed apart:
 * `npm install --prefer-offline --no-audit --no-fund` (from the npm cache, as a second clone on the
 * same machine has it), and `npm start` until the home page answers 200 (time to first answer): the
 * web app's build (its Vite output "built in" marks when it ended), the data folder (migrations, the
 * demo content) and the server's start. The portal listens on a free loopback port with its default
 * DATA_DIR (./data in the clone); the whole clone is removed at the end.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, loadAverage, root } from './support.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    commits: { type: 'string', default: 'HEAD' },
  },
});
const RUNS = Number(args.runs);

function run(command: string, argv: string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(command, argv, { cwd, encoding: 'utf8', env: cleanEnv() });
  if (result.status !== 0)
    throw new Error(`${command} ${argv.join(' ')} failed:\n${result.stdout}${result.stderr}`.slice(-3000));
  return performance.now() - started;
}

/** The caller's environment without what would point the clone elsewhere. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'PUBLIC_URL', 'DATA_DIR', 'PORT', 'HOST', 'WEB_DIST', 'CONTENT_DIR'])
    delete env[key];
  for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];
  return { ...env, ...extra };
}

const branch = spawnSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], {
  cwd: root,
  encoding: 'utf8',
}).stdout.trim();
const commits = args.commits.split(',').map((rev) => {
  const sha = spawnSync('git', ['rev-parse', '--short', rev], { cwd: root, encoding: 'utf8' }).stdout.trim();
  if (!sha) throw new Error(`no commit ${rev}`);
  return sha;
});
const rows: string[] = [];
for (let i = 0; i < RUNS * commits.length; i++) {
  const commit = commits[i % commits.length]!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-clone-'));
  const loadBefore = loadAverage()[0];
  try {
    const cloneMs = run('git', ['clone', '--quiet', '--branch', branch, root, dir], os.tmpdir());
    run('git', ['checkout', '--quiet', commit], dir);
    const installMs = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
    const port = await freePort();
    const started = performance.now();
    // Its own process group, so that npm, the build and the server all stop together.
    const child = spawn('npm', ['start'], {
      cwd: dir,
      env: cleanEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let builtMs = Number.NaN;
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8000);
      if (Number.isNaN(builtMs) && /built in/.test(output)) builtMs = performance.now() - started;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let exited = false;
    const exit = new Promise<void>((resolve) =>
      child.once('exit', () => {
        exited = true;
        resolve();
      }),
    );
    let answerMs = 0;
    try {
      for (;;) {
        if (exited) throw new Error(`npm start ended before answering:\n${output}`);
        try {
          const res = await fetch(`http://127.0.0.1:${port}/`);
          await res.arrayBuffer();
          if (res.status === 200) break;
        } catch {
          /* not yet */
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      answerMs = performance.now() - started;
    } finally {
      if (!exited) process.kill(-child.pid!, 'SIGTERM');
      await exit;
    }
    const s = (ms: number) => (Number.isNaN(ms) ? '–' : `${(ms / 1000).toFixed(1)} s`);
    const row =
      `| ${commit} | ${s(cloneMs)} | ${s(installMs)} | ${s(builtMs)} | ${s(answerMs - builtMs)} | ` +
      `${s(answerMs)} | **${s(installMs + answerMs)}** | ${loadBefore} → ${loadAverage()[0]} |`;
    rows.push(row);
    console.log(row);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  `\n${os.cpus().length} cores, Node ${process.versions.node}, load average now ${loadAverage().join(' ')}`,
);
console.log(
  '| commit | git clone | npm install | npm start: web build | then data folder and server | npm start: first answer | install + start | load (1 min) |',
);
console.log(
  '| ------ | --------- | ----------- | -------------------- | ---------------------------- | ---------------------- | --------------- | ------------ |',
);
for (const row of rows) console.log(row);
