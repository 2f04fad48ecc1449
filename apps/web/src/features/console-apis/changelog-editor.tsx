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
import { useMemo, useState, type FormEvent } from 'react';
import { paths } from '../../config/paths';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { Markdown } from '../../components/ui/markdown';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDate } from '../../lib/text';
import { RevisionsPanel } from '../console/editing';
import { EditorConflict, useVersionedEditor } from '../console/versioned-editor';
import {
  addChangelogEntry,
  changelogSource,
  deleteChangelogEntry,
  listChangelog,
  type ChangelogEntryFields,
  type ConsoleChangelogEntry,
} from './api';

const changelogKey = (productId: string) => ['console-changelog', productId] as const;

/** What the form of a new entry edits. */
interface Editing {
  fields: ChangelogEntryFields;
}

const BLANK: ChangelogEntryFields = { releaseVersion: '', releaseDate: null, notes: '' };

/**
 * A product's changelog in its console form (catalog README 'Console: API products'): the entries
 * as the product page lists them, each edited or deleted in place, and a form (version, date,
 * Markdown notes) with a preview of the entry as the product page will show it. A saved entry is
 * a versioned item (useVersionedEditor): its form saves with the version it was opened at (a 409
 * shows what the other save changed), beside its revisions to compare and restore. Every change
 * is on the product page at once (the catalog's answers follow its tables).
 */
export function ChangelogEditor({ productId }: { productId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const entries = useQuery({ queryKey: changelogKey(productId), queryFn: () => listChangelog(productId) });
  const [editing, setEditing] = useState<Editing | null>(null);
  // The saved entry whose form is open.
  const [open, setOpen] = useState<ConsoleChangelogEntry | null>(null);
  const [deleting, setDeleting] = useState<ConsoleChangelogEntry | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () => client.invalidateQueries({ queryKey: changelogKey(productId) });
  const failed = async (err: unknown) => {
    setNotice(null);
    setError(messageOf(err, t('errors.somethingWentWrong')));
    await refresh();
  };
  const save = useMutation({
    mutationFn: (e: Editing) => addChangelogEntry(productId, e.fields),
    onSuccess: async () => {
      setEditing(null);
      setError(null);
      setNotice(t('console.products.changelog.saved'));
      await refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (e: ConsoleChangelogEntry) => deleteChangelogEntry(productId, e.id, e.version),
    onSuccess: async () => {
      if (open?.id === deleting?.id) setOpen(null);
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
              setOpen(null);
              setEditing({ fields: { ...BLANK } });
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
        <Alert color="red" role="alert" mb="sm" data-testid="changelog-error">
          {error}
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
              <EntryFields fields={editing.fields} set={set} />
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
          <EntryPreview fields={editing.fields} />
        </Group>
      )}
      {open && <SavedEntry key={open.id} productId={productId} entry={open} onClose={() => setOpen(null)} />}

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
                    setEditing(null);
                    setOpen(e);
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

/** The fields of an entry's form: its API version, release date and Markdown notes. */
function EntryFields({
  fields,
  set,
}: {
  fields: ChangelogEntryFields;
  set<K extends keyof ChangelogEntryFields>(key: K, value: ChangelogEntryFields[K]): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Group grow align="flex-start">
        <TextInput
          label={t('console.products.changelog.versionLabel')}
          required
          maxLength={CHANGELOG_VERSION_MAX}
          value={fields.releaseVersion}
          onChange={(e) => set('releaseVersion', e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('console.products.changelog.dateLabel')}
          description={t('console.products.changelog.dateHelp')}
          value={fields.releaseDate ?? ''}
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
        value={fields.notes}
        onChange={(e) => set('notes', e.currentTarget.value)}
      />
    </>
  );
}

/** The entry as the product page will show it. */
function EntryPreview({ fields }: { fields: ChangelogEntryFields }) {
  const { t } = useTranslation();
  return (
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
      {fields.releaseVersion || fields.notes ? (
        <Timeline bulletSize={14} lineWidth={2} active={1}>
          <Timeline.Item title={<EntryHeading fields={fields} />}>
            {fields.notes && <Markdown text={fields.notes} fz="sm" />}
          </Timeline.Item>
        </Timeline>
      ) : (
        <Text size="sm" c="dimmed">
          {t('console.products.changelog.previewEmpty')}
        </Text>
      )}
    </Paper>
  );
}

/**
 * A saved entry's form and its revisions; another version replacing the form's (a reload after
 * a conflict, a restore) starts the form again from it.
 */
function SavedEntry({
  productId,
  entry,
  onClose,
}: {
  productId: string;
  entry: ConsoleChangelogEntry;
  onClose(): void;
}) {
  const [current, setCurrent] = useState(entry);
  const [seed, setSeed] = useState(0);
  return (
    <SavedEntryForm
      key={seed}
      productId={productId}
      entry={current}
      onClose={onClose}
      onReplaced={(e) => {
        setCurrent(e);
        setSeed((n) => n + 1);
      }}
    />
  );
}

function SavedEntryForm({
  productId,
  entry,
  onClose,
  onReplaced,
}: {
  productId: string;
  entry: ConsoleChangelogEntry;
  onClose(): void;
  onReplaced(entry: ConsoleChangelogEntry): void;
}) {
  const { t } = useTranslation();
  const source = useMemo(() => changelogSource(productId), [productId]);
  const product = paths.adminProduct(productId);
  const editor = useVersionedEditor<
    ConsoleChangelogEntry,
    ChangelogEntryFields,
    keyof ChangelogEntryFields,
    ChangelogEntryFields
  >({
    source,
    item: entry,
    empty: BLANK,
    fieldsOf: (e) => ({ releaseVersion: e.releaseVersion, releaseDate: e.releaseDate, notes: e.notes }),
    toSend: (fields) => fields,
    pathOf: () => product,
    listPath: product,
    savedText: (version) => t('console.products.changelog.savedVersion', { version }),
    onReplaced,
  });
  const labelOf = (field: keyof ChangelogEntryFields) => t(`console.products.changelog.fields.${field}`);
  const title = t('console.products.changelog.editTitle', { version: entry.releaseVersion });
  return (
    <Group align="flex-start" gap="xl" wrap="wrap" my="md" data-testid="changelog-entry-editor">
      <Box
        component="form"
        onSubmit={editor.submit}
        style={{ flex: '1 1 380px' }}
        aria-label={title}
        data-testid="changelog-form"
      >
        <Stack gap="sm">
          <Title order={3} size="h5">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {t('console.content.revisions.version', { version: editor.version })}
          </Text>
          {editor.notice && (
            <Alert color="green" role="status">
              {editor.notice}
            </Alert>
          )}
          {editor.error && (
            <Alert color="red" role="alert">
              {editor.error}
            </Alert>
          )}
          <EditorConflict
            editor={editor}
            labelOf={labelOf}
            title={t('console.products.changelog.conflictTitle')}
            text={(version) => t('console.content.editor.conflictText', { version })}
            testId="changelog-conflict"
          />
          <EntryFields fields={editor.fields} set={editor.set} />
          <Group>
            <Button type="submit" loading={editor.saving}>
              {t('console.products.changelog.save')}
            </Button>
            <Button variant="default" onClick={onClose}>
              {t('console.products.changelog.close')}
            </Button>
          </Group>
        </Stack>
      </Box>
      <EntryPreview fields={editor.fields} />
      <RevisionsPanel
        id={entry.id}
        version={editor.version}
        source={editor.source.revisions}
        labelOf={labelOf}
        onRestored={editor.restored}
        testId="changelog-revisions"
        title={t('console.products.changelog.revisionsTitle', { version: entry.releaseVersion })}
      />
    </Group>
  );
}
