import { Alert, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Loading } from '../../components/ui/loading';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import type { FieldChange, Revision } from './api';
import { formatDateTime } from './articles-page';

/**
 * What the console's editors of articles and FAQ questions share: the difference of two versions,
 * the conflict after a stale save and the list of revisions with restore.
 */

/** A field-by-field difference: removed parts struck through, added ones underlined. */
export function Changes({ changes, label }: { changes: FieldChange[]; label(field: string): string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {changes.map((c) => (
        <Box key={c.field}>
          <Text size="sm" fw={700}>
            {label(c.field)}
          </Text>
          <Box component="pre" fz="xs" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
            {c.parts.map((p, i) =>
              p.removed ? (
                <del
                  key={i}
                  aria-label={t('console.content.revisions.removed')}
                  style={{ background: '#ffd7d5' }}
                >
                  {p.value}
                </del>
              ) : p.added ? (
                <ins
                  key={i}
                  aria-label={t('console.content.revisions.added')}
                  style={{ background: '#ccffd8' }}
                >
                  {p.value}
                </ins>
              ) : (
                <span key={i}>{p.value}</span>
              ),
            )}
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

/** The version saved meanwhile, what differs from the form, and the two ways on. */
export function ConflictPanel({
  title,
  version,
  changes,
  label,
  testId,
  onReload,
  onOverwrite,
}: {
  title: string;
  version: number;
  changes: FieldChange[];
  label(field: string): string;
  testId: string;
  onReload(): void;
  onOverwrite(): void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" role="alert" title={title} data-testid={testId}>
      <Text size="sm" mb="xs">
        {t('console.content.editor.conflictText', { version })}
      </Text>
      <Changes changes={changes} label={label} />
      <Group mt="sm">
        <Button size="xs" onClick={onReload}>
          {t('console.content.editor.reload')}
        </Button>
        <Button size="xs" variant="default" onClick={onOverwrite}>
          {t('console.content.editor.overwrite')}
        </Button>
      </Group>
    </Alert>
  );
}

export interface RevisionSource<T> {
  /** The query key's first part, e.g. 'console-revisions' or 'console-faq-revisions'. */
  key: string;
  list(id: string): Promise<{ data: Revision[] }>;
  get(id: string, revision: number): Promise<{ data: Revision & { changes: FieldChange[] } }>;
  restore(id: string, revision: number, version: number): Promise<{ data: T }>;
}

/** Every save, each compared with the current version on demand, and restored as a new save. */
export function RevisionsPanel<T>({
  id,
  version,
  source,
  label,
  testId,
  onRestored,
}: {
  id: string;
  version: number;
  source: RevisionSource<T>;
  label(field: string): string;
  testId: string;
  onRestored(saved: T): Promise<void> | void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const revisions = useQuery({ queryKey: [source.key, id], queryFn: () => source.list(id) });
  const diff = useQuery({
    queryKey: [`${source.key}-one`, id, open, version],
    queryFn: () => source.get(id, open!),
    enabled: open !== null,
  });
  const restore = useMutation({
    mutationFn: (revision: number) => source.restore(id, revision, version),
    onSuccess: async ({ data }) => {
      setOpen(null);
      await onRestored(data);
    },
    onError: (err) => setMessage(messageOf(err, t('errors.somethingWentWrong'))),
  });
  return (
    <Paper
      withBorder
      p="md"
      style={{ flex: '0 1 360px' }}
      component="section"
      aria-labelledby="revisions-title"
    >
      <Title order={2} size="h4" id="revisions-title" mb="sm">
        {t('console.content.revisions.title')}
      </Title>
      {message && (
        <Text size="sm" role="status" mb="xs">
          {message}
        </Text>
      )}
      {!revisions.data ? (
        <Loading />
      ) : revisions.data.data.length === 0 ? (
        <Text size="sm">{t('console.content.revisions.empty')}</Text>
      ) : (
        <Stack gap="sm" data-testid={testId}>
          {revisions.data.data.map((r) => (
            <Box key={r.version}>
              <Text size="sm" fw={700}>
                {t('console.content.revisions.version', { version: r.version })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('console.content.revisions.by', {
                  date: formatDateTime(r.created),
                  author: r.author ?? t('console.content.revisions.unknownAuthor'),
                })}
              </Text>
              {!r.current && (
                <Group gap="xs" mt={4}>
                  <Button
                    size="compact-xs"
                    variant="light"
                    onClick={() => setOpen(open === r.version ? null : r.version)}
                  >
                    {open === r.version
                      ? t('console.content.revisions.hide')
                      : t('console.content.revisions.show')}
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="outline"
                    loading={restore.isPending && restore.variables === r.version}
                    onClick={() => restore.mutate(r.version)}
                  >
                    {t('console.content.revisions.restore')}
                  </Button>
                </Group>
              )}
              {open === r.version &&
                (diff.data ? (
                  diff.data.data.changes.length ? (
                    <Box mt="xs">
                      <Changes changes={diff.data.data.changes} label={label} />
                    </Box>
                  ) : (
                    <Text size="xs">{t('console.content.revisions.same')}</Text>
                  )
                ) : (
                  <Loading />
                ))}
            </Box>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
