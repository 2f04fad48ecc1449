import { EVENTS, Joyride, STATUS, type Controls, type EventData, type Step } from 'react-joyride';
import {
  QUICKSTART_SCROLL_OFFSET_PX,
  QUICKSTART_STEP_DELAY_MS,
  type QuickstartStep,
} from '@portico/contracts/quickstart';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { useAppStore } from '../../lib/store';
import { useCompleteStory } from './api';
import { useQuickstartStore, type ActiveTour } from '../../lib/quickstart-store';
import { advanceOnTarget, moveTo, onStepPage } from './steps';

const TARGET_WAIT_MS = 10_000;

/** Whether `selector` matches a rendered element. */
function shown(selector: string): boolean {
  const el = document.querySelector<HTMLElement>(selector);
  return el !== null && el.getClientRects().length > 0;
}

/** Calls `then` once `selector` matches a rendered element; the answer stops watching. */
function whenShown(selector: string, then: () => void): () => void {
  const observer = new MutationObserver(() => {
    if (!shown(selector)) return;
    observer.disconnect();
    then();
  });
  // Attributes too: a panel may be in the page before it is displayed.
  observer.observe(document.body, { childList: true, subtree: true, attributes: true });
  return () => observer.disconnect();
}

/** Resolves once `selector` matches a rendered element, or after `timeout` ms (the step is then skipped). */
function waitForElement(selector: string, timeout: number): Promise<void> {
  if (shown(selector)) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = whenShown(selector, () => done());
    const timer = window.setTimeout(() => done(), timeout);
    function done() {
      stop();
      window.clearTimeout(timer);
      resolve();
    }
  });
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/** A whole-page target has no place to point at: its tooltip is centred. */
const centred = (target: string) => target === 'body' || target === '#main' || target === 'main';

/**
 * Runs one tour with react-joyride (spec B 2.15, 9): each step first opens its page (its
 * navigationUrl, whose fragment may open an operation) and waits the step delay of 1 s for it to
 * render, scrolls its target into view 150 px from the top, and lets the target be clicked only
 * when spotlightClicks says so; a click that brings the next step's target (Try it out, Send) moves
 * the tour on. Finishing a story's last step marks it completed; skipping or closing ends it
 * without. While it runs, the app store says so (`tourRunning`): the try-out console marks the
 * calls sent meanwhile with the 'tour' badge.
 */
export function TourRunner({ tour }: { tour: ActiveTour }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // useNavigate gives a new function after each navigation: the steps must not change with it
  // (new steps restart the tour), so they reach it through a ref.
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);
  const complete = useCompleteStory();

  useEffect(() => {
    useAppStore.getState().setTourRunning(true);
    return () => useAppStore.getState().setTourRunning(false);
  }, []);

  // The watch for the click that moves the tour on (advanceOnTarget), one step at a time.
  const stopWatching = useRef<(() => void) | null>(null);
  const unwatch = useCallback(() => {
    stopWatching.current?.();
    stopWatching.current = null;
  }, []);
  useEffect(() => unwatch, [unwatch]);

  // An untranslated story's steps are marked as the default language's (decision 064).
  const lang = tour.kind === 'story' ? tour.lang : undefined;
  const steps = useMemo<Step[]>(
    () =>
      tour.steps.map((s: QuickstartStep, index) => ({
        id: `${index}`,
        // Only on the step's own page: the same selector may match on the page the tour leaves.
        target: () =>
          onStepPage(s.navigationUrl, window.location) ? document.querySelector<HTMLElement>(s.target) : null,
        content: lang ? <span lang={lang}>{s.content}</span> : s.content,
        placement: centred(s.target) ? 'center' : 'bottom',
        blockTargetInteraction: !s.spotlightClicks,
        ...(s.styles ? { styles: { tooltip: s.styles } } : {}),
        before: async () => {
          const move = moveTo(s.navigationUrl, window.location);
          if (move.kind === 'navigate') void navigateRef.current(move.url);
          else if (move.kind === 'hash') window.location.hash = move.hash;
          await wait(QUICKSTART_STEP_DELAY_MS);
          // The library does not wait for a target after a before hook: the page may still be
          // loading (a lazy chunk, its data), so the hook waits for it, up to the target timeout.
          await waitForElement(s.target, TARGET_WAIT_MS);
        },
      })),
    [tour.steps, lang],
  );

  const onEvent = (data: EventData, controls: Controls) => {
    if (data.type === EVENTS.TOOLTIP) {
      unwatch();
      const next = advanceOnTarget(tour.steps, data.index);
      if (next && !shown(next)) stopWatching.current = whenShown(next, () => controls.next());
    } else if (data.type === EVENTS.STEP_AFTER) unwatch();
    if (data.type !== EVENTS.TOUR_END) return;
    unwatch();
    if (data.status === STATUS.FINISHED && tour.kind === 'story') complete.mutate(tour.uuid);
    useQuickstartStore.getState().stop();
  };

  return (
    <Joyride
      // Mounted once the start delay passed (quickstart-panel.tsx): runs at once.
      run
      continuous
      steps={steps}
      onEvent={onEvent}
      locale={{
        back: t('quickstart.back'),
        close: t('quickstart.closeStep'),
        last: t('quickstart.last'),
        next: t('quickstart.next'),
        nextWithProgress: t('quickstart.nextWithProgress'),
        skip: t('quickstart.skip'),
      }}
      options={{
        scrollOffset: QUICKSTART_SCROLL_OFFSET_PX,
        zIndex: 1000,
        primaryColor: '#1864ab',
        textColor: '#212529',
        showProgress: true,
        // The tooltip at once: no beacon to click first.
        skipBeacon: true,
        buttons: ['back', 'close', 'primary', 'skip'],
        closeButtonAction: 'skip',
        overlayClickAction: false,
        beforeTimeout: 15_000,
        targetWaitTimeout: 8_000,
      }}
    />
  );
}
