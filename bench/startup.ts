/**
 * Cold start and the JavaScript shipped for the home page.
 *   npm run build && node bench/startup.ts
 * Starts the portal on a fresh DATA_DIR (first start: migrations and demo content), then again on
 * the same folder (reopen), and loads the home page in headless Chromium counting the compressed
 * bytes of every script it fetches.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3590);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-'));

async function startAndTime(): Promise<{ ms: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/server/src/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      if ((await fetch(`http://localhost:${port}/readyz`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const ms = performance.now() - started;
  return {
    ms,
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const first = await startAndTime();
await first.stop();
const second = await startAndTime();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage();
const scripts: { url: string; bytes: number }[] = [];
page.on('requestfinished', async (request) => {
  if (request.resourceType() !== 'script') return;
  const sizes = await request.sizes();
  scripts.push({ url: new URL(request.url()).pathname, bytes: sizes.responseBodySize });
});
const t0 = performance.now();
await page.goto(`http://localhost:${port}/`, { waitUntil: 'networkidle' });
const loadMs = performance.now() - t0;
await browser.close();
await second.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const total = scripts.reduce((s, x) => s + x.bytes, 0);
console.log(`first start (migrate + import) ready in ${first.ms.toFixed(0)} ms`);
console.log(`second start (reopen) ready in ${second.ms.toFixed(0)} ms`);
console.log(
  `home page: ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KiB compressed, network idle after ${loadMs.toFixed(0)} ms`,
);
for (const s of scripts) console.log(`  ${s.url}  ${(s.bytes / 1024).toFixed(1)} KiB`);
