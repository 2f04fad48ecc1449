import { splitLocalePath } from '@portico/contracts/locale-path';
import type { QuickstartStep } from '@portico/contracts/quickstart';

/**
 * Where a tour step happens and when it moves on by itself (spec B 2.15): the pure part of the
 * tour runner (tour-runner.tsx), apart from the browser.
 */

/** Where the browser is: `window.location`'s parts. */
export interface Here {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * A step's navigationUrl is a page (path and query) and, optionally, a fragment that opens
 * something on it: `/documentation/accounts-v1#operation/listAccounts` opens that operation.
 */
export function splitNavigationUrl(url: string): { page: string; hash: string } {
  const at = url.indexOf('#');
  return at < 0 ? { page: url, hash: '' } : { page: url.slice(0, at), hash: url.slice(at) };
}

/**
 * The page the browser shows, as a step names it: without the language's prefix (a story's
 * `/apiProduct/x` is `/de/apiProduct/x` on German pages, where the router's basename adds it).
 */
function pageOf(here: Here): string {
  return splitLocalePath(here.pathname).path + here.search;
}

/** Whether the browser shows the step's page (its fragment aside); a step without one is anywhere. */
export function onStepPage(url: string | undefined, here: Here): boolean {
  return !url || splitNavigationUrl(url).page === pageOf(here);
}

export type StepMove =
  | { kind: 'stay' }
  /** Another page: a navigation in the app (the page reads the fragment when it opens). */
  | { kind: 'navigate'; url: string }
  /**
   * The same page, another fragment: set on the location, which fires 'hashchange' for the page
   * to react to (a navigation in the router would not).
   */
  | { kind: 'hash'; hash: string };

/** What the tour does to reach a step's navigationUrl from where the browser is. */
export function moveTo(url: string | undefined, here: Here): StepMove {
  if (!url) return { kind: 'stay' };
  const { page, hash } = splitNavigationUrl(url);
  if (page !== pageOf(here)) return { kind: 'navigate', url };
  if (hash && hash !== here.hash) return { kind: 'hash', hash };
  return { kind: 'stay' };
}

/**
 * The target whose appearance moves the tour past step `index` without its Next button: the
 * step lets its element be clicked (spotlightClicks) and the next step happens on the same page,
 * so the click is what brings the next target (Try it out opens the console, whose Send button is
 * the next step). Null otherwise. The runner moves on only if that target was not there yet when
 * the step showed: a target already on the page ('#main') says nothing about a click.
 */
export function advanceOnTarget(steps: readonly QuickstartStep[], index: number): string | null {
  const step = steps[index];
  const next = steps[index + 1];
  if (!step?.spotlightClicks || !next) return null;
  if (next.navigationUrl !== undefined && next.navigationUrl !== step.navigationUrl) return null;
  return next.target;
}
