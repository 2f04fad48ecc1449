/**
 * A probe (not a bench): where Playwright's click on the documentation page's first row waits.
 * node bench/probe-click.ts <origin> [runs]  (a portal with GitHub's description as 'github-rest')
 * NO_JS=1: the page with scripts off (the server's first screen alone; the page's own events are then
 * not logged). DELAY_ENTRY=<ms>: the app's entry script held back that long (through page.route,
 * which sends every request through Playwright: slower for all of them).
 */
import { launchChromium } from './support.ts';

const origin = process.argv[2] ?? 'http://127.0.0.1:3465';
const runs = Number(process.argv[3] ?? 5);
const url = `${origin}/documentation/github-rest`;
const ROW =
  '#first-screen .fs-operation, [data-testid="api-reference"] [data-testid="operation"] button[aria-expanded]';
const DETAILS =
  '#first-screen details[open] [data-response], [data-testid="operation"] [data-testid^="operation-details-"] [data-testid^="response-"]';

const INIT = `
  window.__p = { events: [], tasks: [] };
  const log = (what) => window.__p.events.push([Math.round(performance.now()), what]);
  window.__plog = log;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__p.tasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__p.events.push([Math.round(e.startTime), 'LoAF ' + Math.round(e.duration) + ' block ' + Math.round(e.blockingDuration) + ' render@' + Math.round(e.renderStart) + ' ' + e.scripts.map((x) => x.invokerType + ':' + x.invoker.slice(0, 40) + ':' + (x.sourceURL || '').split('/').pop() + ':' + Math.round(x.duration)).join(' | ')]); }).observe({ type: 'long-animation-frame', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__p.events.push([Math.round(e.startTime), e.name]); }).observe({ type: 'paint', buffered: true });
  for (const t of ['pointerdown', 'mousedown', 'click', 'pointermove']) addEventListener(t, (e) => log(t + '@' + Math.round(e.timeStamp)), true);
  new MutationObserver(() => {
    if (!window.__fsSeen && document.getElementById('first-screen')) { window.__fsSeen = true; log('first-screen in DOM'); }
    if (window.__fsSeen && !window.__fsGone && !document.getElementById('first-screen')) { window.__fsGone = true; log('takeover'); }
  }).observe(document, { childList: true, subtree: true });
  addEventListener('DOMContentLoaded', () => log('DOMContentLoaded'));
  const tick = () => { const d = document.querySelector(${JSON.stringify(DETAILS)}); if (d && d.getBoundingClientRect().height > 0) { log('details shown'); return; } requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
`;

const browser = await launchChromium();
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({
    javaScriptEnabled: !process.env.NO_JS,
    viewport: { width: 1280, height: 900 },
    storageState: {
      cookies: [],
      origins: [
        {
          origin,
          localStorage: [
            {
              name: 'portico',
              value: JSON.stringify({
                state: { cookies: { cookiesConsentAction: 'dismiss', cookiesEnabled: { analytics: false } } },
                version: 0,
              }),
            },
          ],
        },
      ],
    },
  });
  await context.addInitScript({ content: INIT });
  const page = await context.newPage();
  if (process.env.DELAY_ENTRY)
    await page.route(/\/assets\/index-[^/]*\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, Number(process.env.DELAY_ENTRY)));
      await route.continue();
    });
  const t0 = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  const origin0 = Number(await page.evaluate('performance.timeOrigin'));
  const at = () => Math.round(Date.now() - origin0);
  const node: [number, string][] = [];
  await page.evaluate(
    `new Promise((r) => { const t = () => document.querySelector(${JSON.stringify(ROW)}) ? r() : requestAnimationFrame(t); t(); })`,
  );
  node.push([at(), 'row present (node)']);
  await page.locator(ROW).first().click();
  node.push([at(), 'click() returned (node)']);
  await page.evaluate(
    `new Promise((r) => { const t = () => { const d = document.querySelector(${JSON.stringify(DETAILS)}); d && d.getBoundingClientRect().height > 0 ? r() : requestAnimationFrame(t); }; t(); })`,
  );
  node.push([at(), 'details seen (node)']);
  const p = (await page.evaluate('window.__p')) as { events: [number, string][]; tasks: [number, number][] };
  const all = [
    ...p.events.map(([t, w]) => [t, w] as const),
    ...node,
    ...p.tasks.map(([s, d]) => [s, `longtask ${d} ms`] as const),
  ];
  all.sort((a, b) => a[0] - b[0]);
  console.log(`--- run ${i + 1} (${Date.now() - t0} ms wall)`);
  for (const [t, w] of all) console.log(String(t).padStart(6), w);
  await context.close();
}
await browser.close();
