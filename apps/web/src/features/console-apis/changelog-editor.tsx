import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import { CHANGELOG_NOTES_MAX, CHANGELOG_VERSION_MAX } from '@portico/contracts/console-products';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { Markdown } from '../../components/ui/markdown';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDate } from '../../lib/text';
import {
  addChangelogEntry,
  deleteChangelogEntry,
  listChangelog,
  saveChangelogEntry,
  type ChangelogEntryFields,
  type ConsoleChangelogEntry,
} from './api';

const changelogKey = (productId: string) => ['console-changelog', productId] as const;

/** What the form edits: a new entry (`id` null) or a saved one at its version. */
interface Editing {
  id: string | null;
  version: number;
  fields: ChangelogEntryFields;
}

const BLANK: ChangelogEntryFields = { releaseVersion: '', releaseDate: null, notes: '' };

/**
 * A product's changelog in its console form (catalog README 'Console: API products'): the entries
 * as the product page lists them, each edited or deleted in place, and a form (version, date,
 * Markdown notes) with a preview of the entry as the product page will show it. Every change is
 * on the product page at once (the catalog's answers follow its tables).
 */
export function ChangelogEditor({ productId }: { productId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const entries = useQuery({ queryKey: changelogKey(productId), queryFn: () => listChangelog(productId) });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<ConsoleChangelogEntry | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A save refused because the entry was saved meanwhile: the entry as saved now.
  const [conflict, setConflict] = useState<ConsoleChangelogEntry | null>(null);

  const refresh = () => client.invalidateQueries({ queryKey: changelogKey(productId) });
  const failed = async (err: unknown) => {
    setNotice(null);
    setError(messageOf(err, t('errors.somethingWentWrong')));
    const current =
      err instanceof ApiError && err.status === 409
        ? (err.body as { meta?: { current?: ConsoleChangelogEntry } } | null)?.meta?.current
        : undefined;
    setConflict(current ?? null);
    await refresh();
  };
  const save = useMutation({
    mutationFn: (e: Editing) =>
      e.id === null
        ? addChangelogEntry(productId, e.fields)
        : saveChangelogEntry(productId, e.id, e.fields, e.version),
    onSuccess: async () => {
      setEditing(null);
      setError(null);
      setConflict(null);
      setNotice(t('console.products.changelog.saved'));
      await refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (e: ConsoleChangelogEntry) => deleteChangelogEntry(productId, e.id, e.version),
    onSuccess: async () => {
      setDeleting(null);
      setError(null);
      setNotice(t('console.products.changelog.deleted'));
      await refresh();
    },
    onError: async (err) => {
      setDeleting(null);
      await failed(err);
    },
  });

  const set = <K extends keyof ChangelogEntryFields>(key: K, value: ChangelogEntryFields[K]) =>
    setEditing((e) => (e ? { ...e, fields: { ...e.fields, [key]: value } } : e));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (editing) save.mutate(editing);
  };

  return (
    <Paper
      withBorder
      p="md"
      mt="xl"
      component="section"
      aria-labelledby="changelog-title"
      data-testid="changelog-editor"
    >
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="changelog-title">
          {t('console.products.changelog.title')}
        </Title>
        {!editing && (
          <Button
            size="sm"
            onClick={() => {
              setNotice(null);
              setEditing({ id: null, version: 0, fields: { ...BLANK } });
            }}
          >
            {t('console.products.changelog.add')}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('console.products.changelog.intro')}
      </Text>
      {error && (
        <Alert color={conflict ? 'orange' : 'red'} role="alert" mb="sm" data-testid="changelog-error">
          {error}
          {conflict && editing?.id === conflict.id && (
            <Group mt="sm">
              <Button
                size="xs"
                onClick={() => {
                  setEditing({
                    id: conflict.id,
                    version: conflict.version,
                    fields: {
                      releaseVersion: conflict.releaseVersion,
                      releaseDate: conflict.releaseDate,
                      notes: conflict.notes,
                    },
                  });
                  setConflict(null);
                  setError(null);
                }}
              >
                {t('console.products.editor.conflictLoad')}
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  save.mutate({ ...editing, version: conflict.version });
                }}
              >
                {t('console.products.editor.conflictOverwrite')}
              </Button>
            </Group>
          )}
        </Alert>
      )}
      <Text size="sm" role="status" aria-live="polite" c="green.9" data-testid="changelog-status">
        {notice}
      </Text>

      {editing && (
        <Group align="flex-start" gap="xl" wrap="wrap" my="md">
          <Box
            component="form"
            onSubmit={submit}
            style={{ flex: '1 1 380px' }}
            aria-label={t('console.products.changelog.title')}
            data-testid="changelog-form"
          >
            <Stack gap="sm">
              <Group grow align="flex-start">
                <TextInput
                  label={t('console.products.changelog.versionLabel')}
                  required
                  maxLength={CHANGELOG_VERSION_MAX}
                  value={editing.fields.releaseVersion}
                  onChange={(e) => set('releaseVersion', e.currentTarget.value)}
                />
                <TextInput
                  type="date"
                  label={t('console.products.changelog.dateLabel')}
                  description={t('console.products.changelog.dateHelp')}
                  value={editing.fields.releaseDate ?? ''}
                  onChange={(e) => set('releaseDate', e.currentTarget.value || null)}
                />
              </Group>
              <Textarea
                label={t('console.products.changelog.notesLabel')}
                description={t('console.products.changelog.notesHelp')}
                autosize
                minRows={4}
                maxRows={16}
                maxLength={CHANGELOG_NOTES_MAX}
                value={editing.fields.notes}
                onChange={(e) => set('notes', e.currentTarget.value)}
              />
              <Group>
                <Button type="submit" loading={save.isPending}>
                  {t('console.products.changelog.save')}
                </Button>
                <Button variant="default" onClick={() => setEditing(null)}>
                  {t('console.products.changelog.cancel')}
                </Button>
              </Group>
            </Stack>
          </Box>
          <Paper
            withBorder
            p="sm"
            style={{ flex: '0 1 380px' }}
            component="section"
            aria-labelledby="changelog-preview-title"
            data-testid="changelog-preview"
          >
            <Title order={3} size="h5" id="changelog-preview-title" mb="xs">
              {t('console.products.changelog.preview')}
            </Title>
            {editing.fields.releaseVersion || editing.fields.notes ? (
              <Timeline bulletSize={14} lineWidth={2} active={1}>
                <Timeline.Item title={<EntryHeading fields={editing.fields} />}>
                  {editing.fields.notes && <Markdown text={editing.fields.notes} fz="sm" />}
                </Timeline.Item>
              </Timeline>
            ) : (
              <Text size="sm" c="dimmed">
                {t('console.products.changelog.previewEmpty')}
              </Text>
            )}
          </Paper>
        </Group>
      )}

      {!entries.data ? (
        entries.isError ? (
          <Alert color="red">{messageOf(entries.error, t('errors.somethingWentWrong'))}</Alert>
        ) : (
          <Loading />
        )
      ) : entries.data.length === 0 ? (
        <Text size="sm">{t('console.products.changelog.empty')}</Text>
      ) : (
        <Timeline
          bulletSize={14}
          lineWidth={2}
          active={entries.data.length}
          aria-label={t('console.products.changelog.listLabel')}
          data-testid="changelog-entries"
        >
          {entries.data.map((e) => (
            <Timeline.Item key={e.id} title={<EntryHeading fields={e} />} data-testid="changelog-entry">
              <HtmlContent html={e.html} fz="sm" />
              <Group gap="xs" mt={4}>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  aria-label={t('console.products.changelog.editLabel', { version: e.releaseVersion })}
                  onClick={() => {
                    setNotice(null);
                    setEditing({
                      id: e.id,
                      version: e.version,
                      fields: {
                        releaseVersion: e.releaseVersion,
                        releaseDate: e.releaseDate,
                        notes: e.notes,
                      },
                    });
                  }}
                >
                  {t('console.products.changelog.edit')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  aria-label={t('console.products.changelog.deleteLabel', { version: e.releaseVersion })}
                  onClick={() => setDeleting(e)}
                >
                  {t('console.products.changelog.delete')}
                </Button>
              </Group>
            </Timeline.Item>
          ))}
        </Timeline>
      )}

      <Modal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('console.products.changelog.delete')}
      >
        <Text size="sm" mb="md">
          {t('console.products.changelog.deleteConfirm', { version: deleting?.releaseVersion ?? '' })}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setDeleting(null)}>
            {t('console.products.changelog.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
            {t('console.products.changelog.delete')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}

/** The version badge and the date, as the product page's changelog shows them. */
function EntryHeading({ fields }: { fields: ChangelogEntryFields }) {
  const { t } = useTranslation();
  return (
    <Group gap="sm">
      {fields.releaseVersion && <Badge variant="light">{fields.releaseVersion}</Badge>}
      {fields.releaseDate ? (
        <Text size="sm" c="dimmed" component="time" dateTime={fields.releaseDate}>
          {formatDate(fields.releaseDate)}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('console.products.changelog.noDate')}
        </Text>
      )}
    </Group>
  );
}
