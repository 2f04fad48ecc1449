/**
 * Cold start and the JavaScript shipped for the home page.
 *   npm run build && node bench/startup.ts
 * Starts the portal on a fresh DATA_DIR (first start: migrations and demo content), then again on
 * the same folder (reopen), and loads the home page in headless Chromium counting the compressed
 * bytes of every script it fetches.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, startPortal, trackScripts } from './support.ts';

const port = Number(process.env.BENCH_PORT ?? 3590);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-'));
const startAndTime = () => startPortal({ port, dataDir });

const first = await startAndTime();
await first.stop();
const second = await startAndTime();

const browser = await launchChromium();
const page = await browser.newPage();
const readScripts = trackScripts(page);
const t0 = performance.now();
await page.goto(`http://localhost:${port}/`, { waitUntil: 'networkidle' });
const loadMs = performance.now() - t0;
const scripts = await readScripts();
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
