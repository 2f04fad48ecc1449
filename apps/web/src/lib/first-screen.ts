import {
  FIRST_SCREEN_ID,
  deepLinkedOperation,
  operationAddress,
} from '@portico/contracts/documentation-data';
import { useLayoutEffect, useSyncExternalStore } from 'react';

/**
 * The server's first screen of a page (decision 043): the documentation page's HTML carries its
 * title and first operations as plain HTML (`#first-screen`, apps/server/src/modules/catalog/
 * first-screen.ts), readable and clickable before the app has run. The app renders beside it, into
 * its root held out of the document, and takes the screen's place in one step once its own page is
 * ready to show (`revealApp`): a visitor never sees a loading state in between, and the document
 * never holds both at once (one copy of every heading, link and text).
 */

let held: { root: HTMLElement; screen: HTMLElement } | undefined;

/**
 * The operation the first screen shows open: the deep-linked one, or one the visitor opened there.
 * The app's page waits for its details before it takes the screen over, so that the operation
 * stays open with its details in the app instead of closing while they load.
 */
let shownOperation: string | undefined;
const shownListeners = new Set<() => void>();

/** Sets it (none: the app has taken over) and tells the page. */
function showOperation(key: string | undefined): void {
  if (key === shownOperation) return;
  shownOperation = key;
  for (const listener of shownListeners) listener();
}

function onShownOperation(listener: () => void): () => void {
  shownListeners.add(listener);
  return () => shownListeners.delete(listener);
}

/**
 * How long the first screen must have been left alone (since the app started, and since the last
 * pointer press, key or click on it) before the app takes it over (decision 062). Since decision
 * 068 the app starts only after such a pause (first-screen-start.ts, the same value), and then only
 * a press, key or click after its start holds the takeover back. The takeover is
 * the app's longest task (inserting the page, its style and layout, the list measuring itself):
 * run while a visitor is reaching for a row it holds their click back and swaps the row under the
 * pointer; run right after their click it holds back the paint of what they opened. The first
 * screen is complete without the app (its operations open in place or load the server's rendering),
 * so the app comes a moment later instead, when nobody is using the screen.
 */
export const QUIET_BEFORE_TAKEOVER_MS = 500;

let quiet = true;
let quietTimer: ReturnType<typeof setTimeout> | undefined;
const quietListeners = new Set<() => void>();

function setQuiet(value: boolean): void {
  if (value === quiet) return;
  quiet = value;
  for (const listener of quietListeners) listener();
}

/** The app starts, or a pointer press, key or click on the first screen: the takeover waits. */
function touched(): void {
  setQuiet(false);
  clearTimeout(quietTimer);
  quietTimer = setTimeout(() => setQuiet(true), QUIET_BEFORE_TAKEOVER_MS);
}

function onQuiet(listener: () => void): () => void {
  quietListeners.add(listener);
  return () => quietListeners.delete(listener);
}

/** Whether the visitor has left the first screen alone for a moment (true when there is none). */
export function useFirstScreenQuiet(): boolean {
  return useSyncExternalStore(
    onQuiet,
    () => quiet,
    () => true,
  );
}

/** The operation open on the first screen while it is there (none once the app has taken over). */
export function useFirstScreenOperation(): string | undefined {
  return useSyncExternalStore(
    onShownOperation,
    () => shownOperation,
    () => undefined,
  );
}

/**
 * Before the first render: when the HTML has a first screen, the root waits out of the document;
 * else nothing happens.
 */
export function holdRootBehindFirstScreen(root: HTMLElement): void {
  const screen = document.getElementById(FIRST_SCREEN_ID);
  if (!screen) return;
  root.remove();
  held = { root, screen };
  // The app is on its way: assistive technology hears that the screen will change.
  screen.setAttribute('aria-busy', 'true');
  // Started by first-screen-start.ts, the app ran only once the screen had been left alone for as
  // long (decision 068); else its start counts as a touch, so that its takeover does not land in
  // a click that came with its start.
  if (!document.querySelector('script[data-app-entry]')) touched();
  for (const type of ['pointerdown', 'keydown', 'click'] as const)
    screen.addEventListener(type, touched, { capture: true, passive: true });
  screen.addEventListener('click', openInPlace);
  screen.addEventListener('click', nameOpening);
  // `toggle` does not bubble: listened to on the way down.
  screen.addEventListener('toggle', keepOpened, true);
  const linked = deepLinkedOperation(window.location.search, window.location.hash);
  if (linked) showOperation(linked);
  nameOpened(screen);
}

/**
 * An operation opened on the first screen (before the app ran, or before its `toggle` event came,
 * which is dispatched a task later) is named in the address.
 */
function nameOpened(screen: HTMLElement): void {
  const opened = screen.querySelector<HTMLDetailsElement>('details[open][data-operation-key]');
  if (opened?.dataset.operationKey) nameInAddress(opened.dataset.operationKey);
}

/** The address names the operation (as the app's rows do): the app opens it as it takes over. */
function nameInAddress(key: string): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', operationAddress(pathname, search, key));
  showOperation(key);
}

/**
 * A click on a closed operation's summary opens it once the click is dispatched: named at once,
 * in the click's own task, so that the app (whose render may run before the `toggle` event's
 * task) waits for its details before it takes over.
 */
function nameOpening(event: MouseEvent): void {
  const summary = event.target instanceof Element ? event.target.closest('summary') : null;
  const details = summary?.parentElement;
  if (!(details instanceof HTMLDetailsElement) || details.open || !details.dataset.operationKey) return;
  nameInAddress(details.dataset.operationKey);
}

/** An operation opened on the first screen (its details came with it) stays open in the app. */
function keepOpened(event: Event): void {
  const details = event.target;
  if (details instanceof HTMLDetailsElement && details.open && details.dataset.operationKey) {
    nameInAddress(details.dataset.operationKey);
  }
}

/**
 * Once the app runs, an operation of the first screen opens in place: the address names it (as
 * the app's own rows do) and the app's reference opens it as it takes over, instead of the whole
 * page loading again for the server's rendering of it. Modified clicks keep the link's behaviour.
 */
function openInPlace(event: MouseEvent): void {
  const link = event.target instanceof Element ? event.target.closest('a.fs-operation') : null;
  if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  window.history.replaceState(window.history.state, '', link.href);
  if (link.dataset.operationKey) showOperation(link.dataset.operationKey);
  for (const other of document.querySelectorAll('#first-screen [aria-current]'))
    other.removeAttribute('aria-current');
  link.setAttribute('aria-current', 'true');
}

/**
 * The app's style sheets, which the server turns into preloads on a page with a first screen (that
 * screen has its own small style, so its first paint does not wait for the app's): attached as
 * style sheets, settled once each has loaded or failed. Nothing to wait for on other pages.
 */
export function attachAppStyles(): Promise<void> {
  const preloads = document.querySelectorAll<HTMLLinkElement>(
    'link[rel="preload"][as="style"][data-app-style]',
  );
  const loads = [...preloads].map((preload) => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.crossOrigin = preload.crossOrigin;
    sheet.href = preload.href;
    const settled = new Promise<void>((resolve) => {
      sheet.addEventListener('load', () => resolve(), { once: true });
      // The app without its style is still the app: it renders, as it would after a failed load.
      sheet.addEventListener('error', () => resolve(), { once: true });
    });
    preload.after(sheet);
    return settled;
  });
  return Promise.all(loads).then(() => undefined);
}

/** Puts the app's root where the first screen was (once; nothing when there was none). */
export function revealApp(): void {
  if (!held) return;
  const { root, screen } = held;
  held = undefined;
  nameOpened(screen);
  const style = document.getElementById(`${FIRST_SCREEN_ID}-style`);
  screen.replaceWith(root);
  style?.remove();
  // From now on the app's reference keeps what is open (and another page has no first screen).
  showOperation(undefined);
  clearTimeout(quietTimer);
  setQuiet(true);
}

/**
 * Reveals the app as its commit lands, before the browser paints and before the layout effects of
 * what follows it in the tree: render it first, above the parts that measure themselves.
 */
export function RevealApp(): null {
  useLayoutEffect(revealApp, []);
  return null;
}
