/**
 * How long a visitor waits for the contact form's proof-of-work captcha (decision 021).
 *   npm run build && npm run bench:captcha [-- --samples=20]
 * Starts the portal on a fresh DATA_DIR with the DEFAULT captcha settings (no CAPTCHA_COST or
 * CAPTCHA_COUNTER_MAX, not NODE_ENV=test), opens /support/contact in headless Chromium (the
 * project's CHROMIUM_ARGS) as a visitor, ticks "I'm not a robot" and times it until the widget says
 * 'verified' (fetching the challenge included): a new page, so a new challenge, for each sample.
 * Prints the median, p90 and max in seconds and the machine's load average at start and end: a
 * proof of work is CPU time, so a busy machine shows longer waits than a visitor has.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, loadAverage, startPortal } from './support.ts';

const { values } = parseArgs({ options: { samples: { type: 'string', default: '20' } } });
const samples = Number(values.samples);
const port = Number(process.env.BENCH_PORT ?? 3591);
const loadAtStart = fs.readFileSync('/proc/loadavg', 'utf8').trim();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-bench-captcha-'));
// The portal's defaults: nothing from the caller's shell may make the challenge easier or harder.
for (const name of ['CAPTCHA_COST', 'CAPTCHA_COUNTER_MAX']) delete process.env[name];
const portal = await startPortal({ port, dataDir, env: { NODE_ENV: 'production' } });
const base = `http://localhost:${port}`;
const challenge = (await (await fetch(`${base}/api/captcha/challenge`)).json()) as {
  parameters?: { cost?: number };
};

const browser = await launchChromium();
const context = await browser.newContext();
const seconds: number[] = [];
try {
  for (let i = 0; i < samples; i += 1) {
    const page = await context.newPage();
    await page.goto(`${base}/support/contact`);
    if (i === 0) {
      // The cookie popup covers the form until it is answered (once per context).
      await page.getByRole('button', { name: 'Decline' }).click();
    }
    const widget = page.locator('altcha-widget');
    await widget.waitFor();
    // Timed in the page: from the click's 'verifying' to 'verified', by the widget's own events.
    await widget.evaluate((el) => {
      const w = globalThis as unknown as { captchaTimes: Record<string, number> };
      w.captchaTimes = {};
      el.addEventListener('statechange', (event: Event) => {
        const state = (event as CustomEvent<{ state: string }>).detail.state;
        w.captchaTimes[state] ??= performance.now();
      });
    });
    await page.getByText("I'm not a robot").click();
    const times = await page
      .waitForFunction(
        () => {
          const t = (globalThis as unknown as { captchaTimes: Record<string, number> }).captchaTimes;
          return t.verified !== undefined || t.error !== undefined ? t : null;
        },
        null,
        { timeout: 120_000, polling: 50 },
      )
      // waitForFunction resolves once the function returns the times, never null.
      .then(async (h) => (await h.jsonValue())!);
    if (times.error !== undefined || times.verified === undefined || times.verifying === undefined) {
      throw new Error(`the captcha was not solved: ${JSON.stringify(times)}`);
    }
    seconds.push((times.verified - times.verifying) / 1000);
    process.stdout.write(`sample ${i + 1}/${samples}: ${seconds.at(-1)!.toFixed(2)} s\n`);
    await page.close();
  }
} finally {
  await browser.close();
  await portal.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const sorted = [...seconds].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
console.log(
  `captcha with the portal's defaults (${challenge.parameters?.cost ?? '?'} PBKDF2 iterations per try), ${samples} challenges in headless Chromium, ${os.cpus().length} cores:`,
);
console.log(
  `  median ${at(0.5).toFixed(2)} s, p90 ${at(0.9).toFixed(2)} s, max ${at(1).toFixed(2)} s, min ${at(0).toFixed(2)} s`,
);
console.log(`  load average at start: ${loadAtStart}; at end: ${loadAverage().join(' ')}`);
