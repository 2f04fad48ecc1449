import { useEffect, useState, type ReactNode } from 'react';
import { featureMessagesLoaded, loadFeatureMessages } from './i18n';

/**
 * Renders its children once the features' message areas are in (lib/i18n.ts): for the few parts of
 * the shell that show a feature's words (the terminal launcher, the support queue link, the home
 * page's latest posts). Nothing is shown meanwhile; a failed load shows nothing either.
 */
export function FeatureMessages({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(featureMessagesLoaded);
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadFeatureMessages().then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ready]);
  return ready ? children : null;
}
