import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * Browser flows in Debian's headless Chromium (no browser is downloaded). The portal runs from the
 * built web app on a fresh embedded database for each run.
 */
const port = Number(process.env.E2E_PORT ?? 3457);
export const baseURL = `http://localhost:${port}`;

/**
 * The browser the flows run in: `CHROMIUM_PATH`, else Debian's `chromium-headless-shell` where it is
 * installed, else Debian's `chromium`. The headless shell is the same Chromium (Blink, V8, the
 * same Debian build) without the desktop browser's window and tab strip; it is what Playwright
 * itself runs for headless tests. The saving is the shell's: Debian's wrapper flags (GPU
 * rasterization among them) made no difference when removed. Measured on the 2-core CI machine (2026-12-08, load 1.13 at the start): the same 36 page
 * loads cost Chromium's processes 18.3-18.7 s of CPU against 28.5-30.5 s, and the whole browser
 * suite took 21.3 min against 24.9 min (both runs right after other work: a shape), every
 * test passing in both. The benchmarks in bench/ keep
 * the desktop `chromium`, the browser a developer opens the documentation in.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const browserPath =
  process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * Debian's Chromium as root, with no traffic of its own (the network here is closed). The
 * benchmarks in bench/ launch it with the same arguments.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  // One folder per port: runs on different ports (several people at once) never clear each other's traces.
  outputDir: `./test-results/${port}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: browserPath,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node e2e/start-portal.ts',
    cwd: '..',
    url: `${baseURL}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: { PORT: String(port), PUBLIC_URL: baseURL },
    stdout: 'ignore',
    stderr: 'pipe',
    // Without it Playwright SIGKILLs the process group and start-portal.ts cannot remove its
    // folders; SIGKILL still follows if the portal takes longer than this to stop.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
