import { EVENTS, Joyride, STATUS, type EventData, type Step } from 'react-joyride';
import {
  QUICKSTART_SCROLL_OFFSET_PX,
  QUICKSTART_STEP_DELAY_MS,
  type QuickstartStep,
} from '@portico/contracts/quickstart';
import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { useCompleteStory } from './api';
import { useQuickstartStore, type ActiveTour } from '../../lib/quickstart-store';

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/** A whole-page target has no place to point at: its tooltip is centred. */
const centred = (target: string) => target === 'body' || target === '#main' || target === 'main';

/**
 * Runs one tour with react-joyride (spec B 2.15, 9): each step first opens its page (its
 * navigationUrl) and waits the step delay of 1 s for it to render, scrolls its target into view
 * 150 px from the top, and lets the target be clicked only when spotlightClicks says so. Finishing
 * a story's last step marks it completed; skipping or closing ends it without.
 */
export function TourRunner({ tour }: { tour: ActiveTour }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location.pathname + location.search);
  useEffect(() => {
    here.current = location.pathname + location.search;
  }, [location.pathname, location.search]);
  const complete = useCompleteStory();

  const steps = useMemo<Step[]>(
    () =>
      tour.steps.map((s: QuickstartStep, index) => ({
        id: `${index}`,
        target: s.target,
        content: s.content,
        placement: centred(s.target) ? 'center' : 'bottom',
        blockTargetInteraction: !s.spotlightClicks,
        ...(s.styles ? { styles: { tooltip: s.styles } } : {}),
        before: async () => {
          if (s.navigationUrl && s.navigationUrl !== here.current) void navigate(s.navigationUrl);
          await wait(QUICKSTART_STEP_DELAY_MS);
        },
      })),
    [tour.steps, navigate],
  );

  const onEvent = (data: EventData) => {
    if (data.type !== EVENTS.TOUR_END) return;
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
        close: t('quickstart.close'),
        last: t('quickstart.last'),
        next: t('quickstart.next'),
        skip: t('quickstart.skip'),
      }}
      options={{
        scrollOffset: QUICKSTART_SCROLL_OFFSET_PX,
        zIndex: 1000,
        primaryColor: '#1864ab',
        textColor: '#212529',
        showProgress: true,
        buttons: ['back', 'close', 'primary', 'skip'],
        closeButtonAction: 'skip',
        overlayClickAction: false,
        beforeTimeout: 15_000,
        targetWaitTimeout: 8_000,
      }}
    />
  );
}
