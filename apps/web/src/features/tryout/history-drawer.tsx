import { Drawer } from '@mantine/core';
import type { TryoutHistoryItem } from '../../lib/store';
import { useTranslation } from '../../lib/i18n';
import { HistoryPanel } from './history-panel';
import { openShared, shareUrl } from './share';

/** The history of the documentation page's floating button; re-run reopens the console on that operation. */
export default function HistoryDrawer(props: {
  documentationAlias: string;
  operationKeyOf(method: string, path: string): string | null;
  onClose(): void;
}) {
  const { t } = useTranslation();
  function rerun(item: TryoutHistoryItem) {
    const key = props.operationKeyOf(item.method, item.path);
    if (!key) return;
    openShared(shareUrl(item, key));
  }
  return (
    <Drawer
      opened
      onClose={props.onClose}
      position="right"
      size="min(560px, 50%)"
      title={t('tryout.history')}
      closeButtonProps={{ 'aria-label': t('tryout.close') }}
    >
      <HistoryPanel documentationId={props.documentationAlias} onRerun={rerun} />
    </Drawer>
  );
}
