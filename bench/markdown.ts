/**
 * The Markdown of a large documentation (issue 30, modules/markdown): GitHub's OpenAPI description.
 *
 *   npm run bench:markdown                         # bench/node_modules' @octokit/openapi (bench:large installs it)
 *   npm run bench:markdown -- --file <openapi.json> # another document
 *
 * Imports the document into a fresh DATA_DIR (`import-api`), starts the portal on it, then, while
 * `/healthz` is polled every 10 ms from this process: the first `/documentation/<alias>.md` (the
 * whole reference, worked out in the document worker pool), the same again (from the cache, per
 * content hash), one operation's `.md`, and `/llms-full.txt`. Prints each one's wall time and size,
 * the /healthz latencies during the first (p50/p99/max: the main thread's stalls) and the load
 * average, without which the figures mean little on a shared machine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, loadAverage, percentiles, portalEnv, root, startPortal } from './support.ts';

const args = process.argv.slice(2);
const fileArg = args.indexOf('--file');
const file =
  fileArg === -1
    ? path.join(root, 'bench/node_modules/@octokit/openapi/generated/api.github.com.json')
    : path.resolve(args[fileArg + 1] ?? '');
if (!fs.existsSync(file)) {
  throw new Error(
    `${file} is missing: run npm run bench:large once (it installs bench/package.json), or pass --file`,
  );
}
const ALIAS = 'large-markdown';
const ms = (n: number) => `${Math.round(n)} ms`;
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-markdown-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
try {
  const importStarted = performance.now();
  const imported = spawnSync(
    process.execPath,
    ['apps/server/src/cli.ts', 'import-api', file, '--product', ALIAS, '--alias', ALIAS],
    { cwd: root, env: portalEnv(dataDir, { PUBLIC_URL: origin }), encoding: 'utf8' },
  );
  if (imported.status !== 0) throw new Error(`import-api failed:\n${imported.stdout}${imported.stderr}`);
  console.log(`import-api ${path.basename(file)}: ${ms(performance.now() - importStarted)}`);

  const portal = await startPortal({ port, dataDir, env: { PUBLIC_URL: origin, IMPORT_CONTENT: 'false' } });
  try {
    /** Polls /healthz every 10 ms until `work` ends: its latencies, and what `work` gave. */
    async function whilePolled<T>(work: () => Promise<T>): Promise<{ value: T; health: number[] }> {
      const health: number[] = [];
      let done = false;
      const poll = (async () => {
        while (!done) {
          const started = performance.now();
          await (await fetch(`${origin}/healthz`)).arrayBuffer();
          health.push(performance.now() - started);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      try {
        return { value: await work(), health };
      } finally {
        done = true;
        await poll;
      }
    }
    async function timed(url: string) {
      const started = performance.now();
      const res = await fetch(`${origin}${url}`);
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${body.slice(0, 200)}`);
      return { ms: performance.now() - started, bytes: Buffer.byteLength(body), body };
    }

    const first = await whilePolled(() => timed(`/documentation/${ALIAS}.md`));
    const h = percentiles(first.health);
    const operations = (first.value.body.match(/^## (GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS|TRACE) /gm) ?? [])
      .length;
    const key = /\/operations\/([^)\s]+)\.md/.exec(first.value.body)?.[1] ?? '';
    const again = await timed(`/documentation/${ALIAS}.md`);
    const one = await timed(`/documentation/${ALIAS}/operations/${key}.md`);
    const full = await whilePolled(() => timed('/llms-full.txt'));
    const hf = percentiles(full.health);

    console.log(
      [
        `documentation .md, first: ${ms(first.value.ms)}, ${mib(first.value.bytes)}, ${operations} operations`,
        `  /healthz meanwhile: ${first.health.length} calls, p50 ${ms(h.median)}, p99 ${ms(h.p99)}, max ${ms(h.max)}`,
        `documentation .md, again (cached): ${ms(again.ms)}`,
        `one operation .md: ${ms(one.ms)}, ${one.bytes} bytes`,
        `llms-full.txt: ${ms(full.value.ms)}, ${mib(full.value.bytes)}; /healthz p99 ${ms(hf.p99)}, max ${ms(hf.max)}`,
        `load average: ${loadAverage().join(' ')}`,
      ].join('\n'),
    );
  } finally {
    await portal.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
