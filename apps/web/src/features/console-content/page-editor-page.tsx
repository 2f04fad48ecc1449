import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { Markdown } from '../../components/ui/markdown';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { ConflictPanel, ContentTabs, RevisionsPanel, type RevisionsSource } from './editing';
import {
  createPage,
  deletePage,
  getPage,
  getPageRevision,
  listPageRevisions,
  PAGE_STATES,
  restorePageRevision,
  savePage,
  type ConsolePage as Page,
  type PageConflict,
  type PageFields,
  type PageState,
} from './pages-api';
import { PAGE_STATE_COLORS } from './pages-page';
import { ImagePicker } from './image-picker';

const EMPTY: PageFields = {
  title: '',
  path: '',
  aliases: [],
  body: '',
  imageUrl: null,
  imageAlt: '',
  scrollspy: false,
  googleDriveId: null,
  state: 'draft',
};

const REVISIONS: RevisionsSource<Page, keyof PageFields> = {
  key: 'console-page-revisions',
  list: listPageRevisions,
  get: getPageRevision,
  restore: restorePageRevision,
};

function fieldsOf(p: Page): PageFields {
  return {
    title: p.title,
    path: p.path,
    aliases: p.aliases,
    body: p.body,
    imageUrl: p.imageUrl,
    imageAlt: p.imageAlt,
    scrollspy: p.scrollspy,
    googleDriveId: p.googleDriveId,
    state: p.state,
  };
}

function isPageConflict(body: unknown): body is { meta: PageConflict } {
  const meta = (body as { meta?: { current?: unknown; changes?: unknown } } | null)?.meta;
  return !!meta && typeof meta.current === 'object' && Array.isArray(meta.changes);
}

/** /admin/content/pages/new and /admin/content/pages/:pageId: a basic page's form. */
export default function PageEditorPage() {
  const { t } = useTranslation();
  const { pageId } = useParams();
  const title = pageId ? t('console.pages.editor.editTitle') : t('console.pages.editor.createTitle');
  return (
    <ConsolePage roles="content_editor" title={title}>
      <ContentTabs />
      <Button component={Link} to={paths.adminPages} variant="subtle" mb="sm" px={0}>
        {t('console.pages.editor.back')}
      </Button>
      {pageId ? <ExistingPage id={pageId} /> : <PageForm />}
    </ConsolePage>
  );
}

function ExistingPage({ id }: { id: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['console-page', id], queryFn: () => getPage(id), retry: false });
  // Raised when another version replaces the form's (a reload after a conflict, a restore).
  const [seed, setSeed] = useState(0);
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, t('console.pages.list.notFound'))}
      </Alert>
    );
  }
  if (!query.data) return <Loading />;
  return (
    <PageForm
      key={seed}
      page={query.data.data}
      onReplaced={(data) => {
        client.setQueryData(['console-page', id], { data });
        setSeed((n) => n + 1);
      }}
    />
  );
}

function PageForm({ page, onReplaced }: { page?: Page; onReplaced?: (p: Page) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [fields, setFields] = useState<PageFields>(page ? fieldsOf(page) : EMPTY);
  const [aliasText, setAliasText] = useState((page?.aliases ?? []).join('\n'));
  const [version, setVersion] = useState(page?.version ?? 0);
  const [state, setState] = useState<PageState>(page?.state ?? 'draft');
  const location = useLocation();
  // A new page's form comes back at its own address with what was saved.
  const [notice, setNotice] = useState<string | null>(() => {
    const saved = (location.state as { saved?: number } | null)?.saved;
    return saved ? t('console.pages.editor.saved', { version: saved }) : null;
  });
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<PageConflict | null>(null);
  const set = <K extends keyof PageFields>(key: K, value: PageFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));
  const labelOf = (field: keyof PageFields) => t(`console.pages.fields.${field}`);

  const save = useMutation({
    mutationFn: (over?: number) => (page ? savePage(page.id, fields, over ?? version) : createPage(fields)),
    onSuccess: async ({ data }) => {
      setConflict(null);
      setError(null);
      setVersion(data.version);
      setState(data.state);
      setNotice(t('console.pages.editor.saved', { version: data.version }));
      await client.invalidateQueries({ queryKey: ['console-pages'] });
      await client.invalidateQueries({ queryKey: [REVISIONS.key, data.id] });
      client.setQueryData(['console-page', data.id], { data });
      if (!page) void navigate(paths.adminPage(data.id), { replace: true, state: { saved: data.version } });
    },
    onError: (err) => {
      setNotice(null);
      if (err instanceof ApiError && err.status === 409 && isPageConflict(err.body)) {
        setConflict(err.body.meta);
        setError(null);
      } else setError(messageOf(err, t('errors.somethingWentWrong')));
    },
  });
  const remove = useMutation({
    mutationFn: () => deletePage(page!.id, version),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['console-pages'] });
      void navigate(paths.adminPages);
    },
    onError: (err) => setError(messageOf(err, t('errors.somethingWentWrong'))),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };

  return (
    <Group align="flex-start" gap="xl" wrap="wrap">
      <Box
        component="form"
        onSubmit={submit}
        style={{ flex: '1 1 480px' }}
        aria-label={page ? t('console.pages.editor.editTitle') : t('console.pages.editor.createTitle')}
      >
        <Stack>
          {page && (
            <Group gap="xs">
              <Badge color={PAGE_STATE_COLORS[state]} variant="light">
                {t(`console.pages.list.states.${state}`)}
              </Badge>
              <Text size="sm" c="dimmed">
                {t('console.content.revisions.version', { version })}
              </Text>
              {state === 'published' && (
                <Anchor href={page.path} target="_blank" size="sm">
                  {t('console.pages.list.open')}
                </Anchor>
              )}
            </Group>
          )}
          {notice && (
            <Alert color="green" role="status">
              {notice}
            </Alert>
          )}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {conflict && (
            <ConflictPanel
              title={t('console.pages.editor.conflictTitle')}
              text={t('console.pages.editor.conflictText', { version: conflict.current.version })}
              changes={conflict.changes}
              labelOf={labelOf}
              onReload={() => onReplaced?.(conflict.current)}
              onOverwrite={() => save.mutate(conflict.current.version)}
              testId="page-conflict"
            />
          )}
          <TextInput
            label={t('console.pages.editor.titleLabel')}
            required
            value={fields.title}
            onChange={(e) => set('title', e.currentTarget.value)}
          />
          <TextInput
            label={t('console.pages.editor.pathLabel')}
            description={t('console.pages.editor.pathHint')}
            required
            value={fields.path}
            onChange={(e) => set('path', e.currentTarget.value)}
          />
          <Textarea
            label={t('console.pages.editor.aliasesLabel')}
            description={t('console.pages.editor.aliasesHint')}
            autosize
            minRows={1}
            value={aliasText}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setAliasText(text);
              set(
                'aliases',
                text
                  .split('\n')
                  .map((a) => a.trim())
                  .filter(Boolean),
              );
            }}
          />
          <ImagePicker
            body={fields.body}
            onBodyChange={(body) => set('body', body)}
            bodyLabel={t('console.pages.editor.bodyLabel')}
            onUseAsImage={(imageUrl, imageAlt) => setFields((f) => ({ ...f, imageUrl, imageAlt }))}
          />
          <Tabs defaultValue="write">
            <Tabs.List>
              <Tabs.Tab value="write">{t('console.pages.editor.write')}</Tabs.Tab>
              <Tabs.Tab value="preview">{t('console.pages.editor.preview')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                label={t('console.pages.editor.bodyLabel')}
                autosize
                minRows={10}
                styles={{ input: { fontFamily: 'monospace' } }}
                value={fields.body}
                onChange={(e) => set('body', e.currentTarget.value)}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs">
              <Paper withBorder p="md" data-testid="page-preview">
                <Markdown text={fields.body} />
              </Paper>
            </Tabs.Panel>
          </Tabs>
          <Group grow>
            <TextInput
              label={t('console.pages.editor.imageUrlLabel')}
              value={fields.imageUrl ?? ''}
              onChange={(e) => set('imageUrl', e.currentTarget.value.trim() ? e.currentTarget.value : null)}
            />
            <TextInput
              label={t('console.pages.editor.imageAltLabel')}
              value={fields.imageAlt}
              onChange={(e) => set('imageAlt', e.currentTarget.value)}
            />
          </Group>
          <TextInput
            label={t('console.pages.editor.googleDriveIdLabel')}
            value={fields.googleDriveId ?? ''}
            onChange={(e) =>
              set('googleDriveId', e.currentTarget.value.trim() ? e.currentTarget.value.trim() : null)
            }
          />
          <Checkbox
            label={t('console.pages.editor.scrollspyLabel')}
            checked={fields.scrollspy}
            onChange={(e) => set('scrollspy', e.currentTarget.checked)}
          />
          <Radio.Group
            label={t('console.pages.editor.stateLabel')}
            value={fields.state}
            onChange={(v) => set('state', v as PageState)}
          >
            <Group mt="xs">
              {PAGE_STATES.map((s) => (
                <Radio key={s} value={s} label={t(`console.pages.list.states.${s}`)} />
              ))}
            </Group>
          </Radio.Group>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('console.pages.editor.save')}
            </Button>
            {page && (
              <Button
                color="red"
                variant="outline"
                loading={remove.isPending}
                onClick={() => {
                  if (window.confirm(t('console.pages.editor.deleteConfirm'))) remove.mutate();
                }}
              >
                {t('console.pages.editor.delete')}
              </Button>
            )}
          </Group>
        </Stack>
      </Box>
      {page && (
        <RevisionsPanel
          id={page.id}
          version={version}
          source={REVISIONS}
          labelOf={labelOf}
          onRestored={async (p) => {
            await client.invalidateQueries({ queryKey: ['console-pages'] });
            onReplaced?.(p);
          }}
          testId="page-revisions"
        />
      )}
    </Group>
  );
}
