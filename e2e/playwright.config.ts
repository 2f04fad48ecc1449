import { defineConfig } from '@playwright/test';

/**
 * Browser flows in Debian's headless Chromium (no browser is downloaded). The portal runs from the
 * built web app on a fresh embedded database for each run.
 */
const port = Number(process.env.E2E_PORT ?? 3457);
export const baseURL = `http://localhost:${port}`;

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
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
