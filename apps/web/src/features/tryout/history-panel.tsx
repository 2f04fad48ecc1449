import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  FileButton,
  Group,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconStar, IconStarFilled, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { TRYOUT_DELETE_DELAY_MS, TRYOUT_MESSAGE_MS } from '@portico/contracts/tryout';
import type { TryoutHistoryItem } from '../../lib/store';
import { useTranslation } from '../../lib/i18n';
import { exportItems, importItems, sortHistory } from './history';
import { useTryoutHistory } from './use-history';

export interface HistoryPanelProps {
  documentationId: string;
  onRerun(item: TryoutHistoryItem): void;
}

/**
 * The try-out history (spec B 3, 4, 5): favorites pinned, soft delete with Cancel (2.5 s),
 * 'Delete All' (favorites stay), export of the selected items, import of a file.
 */
export function HistoryPanel({ documentationId, onRerun }: HistoryPanelProps) {
  const { t } = useTranslation();
  const history = useTryoutHistory(documentationId);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [pending, setPending] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Map<string, number>());
  const [message, setMessage] = useState<{ text: string; color: string } | null>(null);
  const messageTimer = useRef<number | undefined>(undefined);

  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const timer of all.values()) window.clearTimeout(timer);
      window.clearTimeout(messageTimer.current);
    };
  }, []);

  function say(text: string, color: string) {
    setMessage({ text, color });
    window.clearTimeout(messageTimer.current);
    messageTimer.current = window.setTimeout(() => setMessage(null), TRYOUT_MESSAGE_MS);
  }

  function softDelete(uuid: string) {
    setPending((p) => new Set(p).add(uuid));
    timers.current.set(
      uuid,
      window.setTimeout(() => {
        timers.current.delete(uuid);
        setPending((p) => {
          const next = new Set(p);
          next.delete(uuid);
          return next;
        });
        history.remove(uuid);
      }, TRYOUT_DELETE_DELAY_MS),
    );
  }

  function undo(uuid: string) {
    window.clearTimeout(timers.current.get(uuid));
    timers.current.delete(uuid);
    setPending((p) => {
      const next = new Set(p);
      next.delete(uuid);
      return next;
    });
  }

  function download() {
    const result = exportItems(history.items, selected);
    if (!result.ok) {
      say(t('tryout.selectAtLeastOne'), 'red');
      return;
    }
    const url = URL.createObjectURL(new Blob([result.json], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `tryout-history-${documentationId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function upload(file: File | null) {
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch {
      say(t('tryout.unreadableFile'), 'red');
      return;
    }
    const result = importItems(text, documentationId);
    if (!result.ok) {
      say(result.error === 'unreadable' ? t('tryout.unreadableFile') : t('tryout.nothingToImport'), 'red');
      return;
    }
    history.add(result.items);
    say(t('tryout.imported'), 'green');
  }

  const shown = sortHistory(history.items).filter((i) => !pending.has(i.uuid));
  const pendingItems = history.items.filter((i) => pending.has(i.uuid));

  return (
    <section aria-labelledby="tryout-history-title" data-testid="tryout-history">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5" id="tryout-history-title">
          {t('tryout.history')}
        </Title>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={download}>
            {t('tryout.export')}
          </Button>
          <FileButton onChange={(f) => void upload(f)} accept="application/json,.json">
            {(props) => (
              <Button size="xs" variant="default" {...props}>
                {t('tryout.import')}
              </Button>
            )}
          </FileButton>
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={history.removeAll}
            disabled={shown.length === 0}
          >
            {t('tryout.deleteAll')}
          </Button>
        </Group>
      </Group>
      {message && (
        <Alert color={message.color} role="status" mb="xs" data-testid="tryout-history-message">
          {message.text}
        </Alert>
      )}
      {pendingItems.map((item) => (
        <Alert key={item.uuid} color="gray" role="status" mb="xs" data-testid="tryout-removed">
          <Group justify="space-between">
            <Text size="sm">{t('tryout.removed')}</Text>
            <Button size="xs" variant="subtle" onClick={() => undo(item.uuid)}>
              {t('tryout.cancel')}
            </Button>
          </Group>
        </Alert>
      ))}
      {shown.length === 0 && pendingItems.length === 0 ? (
        <Text size="sm">{t('tryout.historyEmpty')}</Text>
      ) : (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shown.map((item) => (
            <HistoryRow
              key={item.uuid}
              item={item}
              selected={selected.has(item.uuid)}
              onSelect={(on) =>
                setSelected((s) => {
                  const next = new Set(s);
                  if (on) next.add(item.uuid);
                  else next.delete(item.uuid);
                  return next;
                })
              }
              onFavorite={() => history.update(item.uuid, { favorite: !item.favorite })}
              onDelete={() => softDelete(item.uuid)}
              onRerun={() => onRerun(item)}
            />
          ))}
        </Stack>
      )}
    </section>
  );
}

function HistoryRow(props: {
  item: TryoutHistoryItem;
  selected: boolean;
  onSelect(on: boolean): void;
  onFavorite(): void;
  onDelete(): void;
  onRerun(): void;
}) {
  const { t } = useTranslation();
  const { item } = props;
  const name = `${item.method.toUpperCase()} ${item.path}`;
  return (
    <Group
      component="li"
      gap="xs"
      wrap="nowrap"
      data-testid="tryout-history-item"
      data-favorite={item.favorite}
    >
      <Checkbox
        aria-label={t('tryout.select', { item: name })}
        checked={props.selected}
        onChange={(e) => props.onSelect(e.currentTarget.checked)}
      />
      <ActionIcon
        variant="subtle"
        color="yellow.8"
        aria-label={item.favorite ? t('tryout.unfavorite') : t('tryout.favorite')}
        aria-pressed={item.favorite}
        onClick={props.onFavorite}
      >
        {item.favorite ? <IconStarFilled size={16} /> : <IconStar size={16} />}
      </ActionIcon>
      <Text size="sm" ff="monospace" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {name}
        {item.response && (
          <Text span size="xs" c="dimmed" ml={6}>
            {item.response.status}
          </Text>
        )}
      </Text>
      {item.imported && (
        <Badge size="xs" variant="light" tt="none">
          {t('tryout.badgeImported')}
        </Badge>
      )}
      {item.fromTour && (
        <Badge size="xs" variant="light" color="grape" tt="none">
          {t('tryout.badgeTour')}
        </Badge>
      )}
      <Button size="compact-xs" variant="light" onClick={props.onRerun}>
        {t('tryout.rerun')}
      </Button>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`${t('tryout.delete')} ${name}`}
        onClick={props.onDelete}
      >
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}
