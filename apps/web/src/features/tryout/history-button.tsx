import { Affix, Button } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { WIDE_SCREEN_MIN_PX } from '@portico/contracts/constants';
import { IconHistory } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { lazyPage } from '../../lib/lazy-page';

const HistoryDrawer = lazyPage(() => import('./history-drawer'));

/** The floating history button of the documentation page, on screens wider than 900 px (spec B 2.12, 9). */
export function TryoutHistoryButton({
  documentationAlias,
  operationKeyOf,
}: {
  documentationAlias: string;
  operationKeyOf(method: string, path: string): string | null;
}) {
  const { t } = useTranslation();
  const wide = useMediaQuery(`(min-width: ${WIDE_SCREEN_MIN_PX + 1}px)`, true);
  const [opened, setOpened] = useState(false);
  if (!wide) return null;
  return (
    <>
      <Affix position={{ bottom: 24, right: 24 }} zIndex={150}>
        <Button
          leftSection={<IconHistory size={18} aria-hidden="true" />}
          onClick={() => setOpened(true)}
          aria-label={t('tryout.openHistory')}
          data-testid="tryout-history-button"
          radius="xl"
          size="md"
        >
          {t('tryout.history')}
        </Button>
      </Affix>
      {opened && (
        <Suspense fallback={null}>
          <HistoryDrawer
            documentationAlias={documentationAlias}
            operationKeyOf={operationKeyOf}
            onClose={() => setOpened(false)}
          />
        </Suspense>
      )}
    </>
  );
}
