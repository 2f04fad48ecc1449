import { Button } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import { QUICKSTART_HASH } from '@portico/contracts/quickstart-rules';
import { Suspense, useEffect } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { useQuickstartStore } from '../../lib/quickstart-store';
import { lazyPage, showWhenLoaded } from '../../lib/lazy-page';

// The sidebar and the tour library: their own chunk, loaded when the tour opens.
const QuickstartPanel = lazyPage(() => import('./quickstart-panel'));

/**
 * The Quick Start button of the layout (spec B 2.14): hidden once the visitor cancelled the tour;
 * a URL with #quickstart shows it again and opens the sidebar (spec B 2.15).
 */
export function QuickstartButton() {
  const { t } = useTranslation();
  const cancelled = useQuickstartStore((s) => s.cancelled);
  const open = useQuickstartStore((s) => s.open);
  if (cancelled || open) return null;
  return (
    <Button
      size="xs"
      variant="filled"
      leftSection={<IconRoute size={16} />}
      onClick={() => showWhenLoaded(QuickstartPanel, () => useQuickstartStore.getState().openSidebar())}
      data-testid="quickstart-button"
    >
      {t('quickstart.button')}
    </Button>
  );
}

/** Where the sidebar and a running tour live: under the router, across every page. */
export function QuickstartHost() {
  const { hash } = useLocation();
  const open = useQuickstartStore((s) => s.open);
  const active = useQuickstartStore((s) => s.active);
  useEffect(() => {
    if (hash === QUICKSTART_HASH) useQuickstartStore.getState().reenable();
  }, [hash]);
  if (!open && !active) return null;
  return (
    <Suspense fallback={null}>
      <QuickstartPanel />
    </Suspense>
  );
}
