import { test as base, expect, type BrowserContext, type Page, type Request } from '@playwright/test';

/**
 * "The network has been quiet for half a second", counted from the browser context's own request
 * events. It replaces `waitForLoadState('networkidle')`, whose bookkeeping in Playwright can lose
 * the event for good: when requests start and finish around a document's commit, the frame is
 * left with neither the event nor a timer to fire it (microsoft/playwright#42598), and the wait
 * hangs until the test times out, as it did once in CI on the contact form. Here a wait that
 * cannot end names the requests still open.
 *
 * The requests are counted from the context's creation, so a context must be tracked before its
 * first page opens: `test` below does it for the default context; a test that opens its own
 * context calls `trackTraffic` on it.
 */
interface Traffic {
  open: Set<Request>;
  lastChange: number;
}

const traffic = new WeakMap<BrowserContext, Traffic>();

export function trackTraffic(context: BrowserContext): void {
  if (traffic.has(context)) return;
  const t: Traffic = { open: new Set(), lastChange: Date.now() };
  const settle = (request: Request) => {
    t.open.delete(request);
    t.lastChange = Date.now();
  };
  context.on('request', (request) => {
    t.open.add(request);
    t.lastChange = Date.now();
  });
  context.on('requestfinished', settle);
  context.on('requestfailed', settle);
  // A dedicated worker ended while its script was still loading (the captcha's proof-of-work
  // workers, terminated once one of them finds the answer) leaves that request with neither event:
  // the worker's end settles it.
  context.on('page', (page) => {
    page.on('worker', (worker) => {
      worker.on('close', () => {
        for (const request of t.open) if (request.url() === worker.url()) settle(request);
      });
    });
  });
  traffic.set(context, t);
}

/** The page a request belongs to; service workers' requests have none. */
function pageOf(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}

/** The default `test`, whose context is tracked from the start. */
export const test = base.extend({
  context: async ({ context }, use) => {
    trackTraffic(context);
    await use(context);
  },
});

export { expect };

const QUIET_MS = 500;

/**
 * Waits until no request of the open pages in `page`'s context has been open for half a second
 * (a closed page's requests may never end, and are not counted).
 */
export async function networkQuiet(page: Page, timeout = 15_000): Promise<void> {
  const t = traffic.get(page.context());
  if (!t) {
    throw new Error(
      "networkQuiet: this page's context is not tracked; use `test` from support/traffic.ts or call trackTraffic(context) before opening a page",
    );
  }
  await expect
    .poll(
      () => {
        const open = [...t.open]
          .filter((request) => pageOf(request)?.isClosed() === false)
          .map((request) => `${request.method()} ${request.url()}`);
        if (open.length > 0) return open;
        const quietFor = Date.now() - t.lastChange;
        return quietFor >= QUIET_MS ? [] : [`(quiet for ${quietFor} ms of ${QUIET_MS})`];
      },
      { message: 'requests still open', timeout, intervals: [100] },
    )
    .toEqual([]);
}
