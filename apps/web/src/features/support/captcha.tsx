import { Loader } from '@mantine/core';
import type {} from 'altcha/types/react';
import type { WidgetMethods } from 'altcha/types';
import { useEffect, useRef, useState } from 'react';
import { apiUrl } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

let loading: Promise<unknown> | undefined;
/** The widget's code (about 25 kB gzipped) arrives only with a form that shows a captcha. */
function loadAltcha(): Promise<unknown> {
  return (loading ??= import('./altcha-setup').catch((err: unknown) => {
    loading = undefined;
    throw err;
  }));
}

export interface CaptchaProps {
  /** The payload to send as `altcha` once the proof of work is done; null while it is not. */
  onChange(payload: string | null): void;
  /** Changing it starts the widget again (after a message was sent: a payload is good once). */
  resetKey?: number;
}

/**
 * The self-hosted proof-of-work captcha (ALTCHA; modules/support/README.md): the widget fetches a
 * challenge from /api/captcha/challenge, solves it in a worker when the visitor ticks it, and hands
 * the payload to the form. Exported for other forms (the try-out help dialog).
 */
export function Captcha({ onChange, resetKey = 0 }: CaptchaProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement & Partial<WidgetMethods>>(null);
  const [ready, setReady] = useState(false);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  useEffect(() => {
    let live = true;
    void loadAltcha().then(() => {
      if (live) setReady(true);
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!ready || !el) return;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
      changed.current(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    el.addEventListener('statechange', listener);
    return () => el.removeEventListener('statechange', listener);
  }, [ready]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.reset?.();
    changed.current(null);
  }, [resetKey]);

  if (!ready) return <Loader size="sm" aria-label={t('support.captchaLabel')} />;
  return (
    <div role="group" aria-label={t('support.captchaLabel')} data-testid="captcha">
      <altcha-widget
        ref={ref}
        challenge={apiUrl('/api/captcha/challenge')}
        name="altcha"
        configuration={JSON.stringify({ hideFooter: true, hideLogo: true })}
      />
    </div>
  );
}
