import { Alert, Anchor, Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { FieldChange } from '@portico/contracts/console-pages';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { formatDateTime } from '../../lib/text';
import { useTranslation } from '../../lib/i18n';

/**
 * What the console's editors (articles, pages) share: the content area's tabs, a 409's
 * difference, the conflict panel and the revisions with their comparison and restore.
 */

/** The content area's parts, each with the path its pages start with. */
const CONTENT_PARTS = [
  { path: paths.adminFaq, label: 'console.content.tabs.faq' },
  { path: paths.adminPages, label: 'console.pages.tabs.pages' },
  { path: paths.adminSiteTexts, label: 'console.site.title' },
  { path: paths.adminQuickstart, label: 'console.quickstart.tabs.stories' },
  { path: paths.adminNewsCategories, label: 'console.content.tabs.categories' },
  // Last: every other path of the content area is an article's.
  { path: paths.adminContent, label: 'console.pages.tabs.articles' },
] as const;
const PART_ORDER = [5, 4, 0, 1, 3, 2];

/** The content area's parts: articles, news categories, the FAQ, pages, the Quick Start stories and the site's texts. */
export function ContentTabs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = CONTENT_PARTS.find((p) => pathname.startsWith(p.path));
  return (
    <Group gap="md" mb="md" component="nav" aria-label={t('console.pages.tabs.label')}>
      {PART_ORDER.map((i) => CONTENT_PARTS[i]!).map((part) => (
        <Anchor
          key={part.path}
          component={Link}
          to={part.path}
          fw={part === current ? 700 : 400}
          aria-current={part === current ? 'page' : undefined}
        >
          {t(part.label)}
        </Anchor>
      ))}
    </Group>
  );
}

/** A field-by-field difference: removed parts struck through, added ones underlined. */
export function Changes<F extends string>({
  changes,
  labelOf,
}: {
  changes: FieldChange<F>[];
  labelOf(field: F): string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {changes.map((c) => (
        <Box key={c.field}>
          <Text size="sm" fw={700}>
            {labelOf(c.field)}
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

/** A 409: what the version saved meanwhile changed, and the two ways on. */
export function ConflictPanel<F extends string>({
  title,
  text,
  changes,
  labelOf,
  onReload,
  onOverwrite,
  testId,
}: {
  title: string;
  text: string;
  changes: FieldChange<F>[];
  labelOf(field: F): string;
  onReload(): void;
  onOverwrite(): void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" role="alert" title={title} data-testid={testId}>
      <Text size="sm" mb="xs">
        {text}
      </Text>
      <Changes changes={changes} labelOf={labelOf} />
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

export interface RevisionItem {
  version: number;
  author: string | null;
  created: string;
  current: boolean;
}

/** The calls of one kind of item's revisions. */
export interface RevisionsSource<T, F extends string> {
  /** Query-key prefix, e.g. 'console-revisions' or 'console-page-revisions'. */
  key: string;
  list(id: string): Promise<{ data: RevisionItem[] }>;
  get(id: string, version: number): Promise<{ data: { changes: FieldChange<F>[] } }>;
  restore(id: string, revision: number, version: number): Promise<{ data: T }>;
}

/** Every save of an item: compare one with the current version, or restore it as a new save. */
export function RevisionsPanel<T, F extends string>({
  id,
  version,
  source,
  labelOf,
  onRestored,
  testId,
  title,
}: {
  id: string;
  version: number;
  source: RevisionsSource<T, F>;
  labelOf(field: F): string;
  onRestored(item: T): void | Promise<void>;
  /** Also names the panel's heading (`${testId}-title`), unique on its page. */
  testId: string;
  /** The panel's heading, when a page shows another's revisions too (default: Revisions). */
  title?: string;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
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
      await client.invalidateQueries({ queryKey: [source.key, id] });
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
      aria-labelledby={`${testId}-title`}
    >
      <Title order={2} size="h4" id={`${testId}-title`} mb="sm">
        {title ?? t('console.content.revisions.title')}
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
                      <Changes changes={diff.data.data.changes} labelOf={labelOf} />
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
