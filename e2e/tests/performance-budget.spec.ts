import { expect, networkQuiet, test } from '../support/traffic.ts';

/**
 * The home page's JavaScript budget (issue 11, decision 018): every script the first visit fetches
 * until the network is idle, counted as it comes over the wire (brotli), at most 130 KiB in a few
 * requests. A change that grows the shell or the home page past it fails here, after the build.
 */
const BUDGET_KIB = 130;
const MAX_SCRIPTS = 12;

test('the home page loads at most 130 KiB of compressed JavaScript in a few scripts', async ({ page }) => {
  const scripts: Promise<{ url: string; bytes: number; encoding: string | undefined }>[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script' || !/^https?:/.test(request.url())) return;
    scripts.push(
      Promise.all([request.sizes(), request.response()]).then(([sizes, response]) => ({
        url: new URL(request.url()).pathname,
        bytes: sizes.responseBodySize,
        encoding: response?.headers()['content-encoding'],
      })),
    );
  });
  await page.goto('/');
  await networkQuiet(page);
  await expect(page.getByText('CONNECT ON A GLOBAL SCALE')).toBeVisible();
  const fetched = await Promise.all(scripts);
  const total = fetched.reduce((sum, s) => sum + s.bytes, 0) / 1024;
  const report = fetched
    .map((s) => `${s.url} ${(s.bytes / 1024).toFixed(1)} KiB ${s.encoding ?? ''}`)
    .join('\n');
  test
    .info()
    .annotations.push({ type: 'home page JavaScript', description: `${total.toFixed(1)} KiB\n${report}` });
  expect(
    fetched.every((s) => s.encoding === 'br'),
    report,
  ).toBe(true);
  expect(total, report).toBeLessThanOrEqual(BUDGET_KIB);
  expect(fetched.length, report).toBeLessThanOrEqual(MAX_SCRIPTS);
});
