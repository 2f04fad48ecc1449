/**
 * The web app's start on a page with the server's first screen (decision 068). The server writes
 * this script in place of the app's entry and the route's modulepreloads (`<script data-app-entry
 * data-app-preloads>`, apps/server/src/plugins/web-app.ts): the entry and its chunks are fetched,
 * compiled and run only once the visitor has left the first screen alone for a moment. Until then
 * the main thread has nothing to do but answer the visitor: the first screen opens its first
 * operations in place and links the others without any script (decision 043), so a click on it is
 * handled and painted at once instead of waiting behind the compiling of the app's scripts, their
 * evaluation and its first render, which a click right after the first paint used to meet. A
 * bundle of its own with no imports (vite.config.ts): it must not pull the shell.
 */

/**
 * How long the page must have been left alone before the app is fetched and run: counted from the
 * end of the HTML's parsing (this module runs then, as the entry did) and again from every press,
 * key, click, wheel turn or touch. The same pause as the takeover's (QUIET_BEFORE_TAKEOVER_MS,
 * lib/first-screen.ts, which this bundle cannot import without the shell): an app started here
 * takes over as soon as it is ready.
 */
const QUIET_BEFORE_START_MS = 500;

/** What counts as using the page: the app's start waits until these pause. */
const ACTIVITY = ['pointerdown', 'keydown', 'click', 'wheel', 'touchstart'] as const;

const script = document.querySelector<HTMLScriptElement>('script[data-app-entry]');
const entry = script?.dataset.appEntry;

if (entry) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of ACTIVITY) removeEventListener(type, wait, { capture: true });
    // The entry's chunks all at once, as the HTML of another page announces them, then the entry.
    // Their addresses come from the server's own HTML (the build's files), never from the URL.
    for (const href of script?.dataset.appPreloads?.split(' ') ?? []) {
      if (!href) continue;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    void import(/* @vite-ignore */ entry);
  };
  const wait = () => {
    clearTimeout(timer);
    timer = setTimeout(start, QUIET_BEFORE_START_MS);
  };
  for (const type of ACTIVITY) addEventListener(type, wait, { capture: true, passive: true });
  wait();
}
