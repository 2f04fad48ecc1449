import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Select,
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
import {
  ARTICLE_STATES,
  createArticle,
  deleteArticle,
  getArticle,
  getRevision,
  isConflictBody,
  listCategories,
  listRevisions,
  restoreRevision,
  saveArticle,
  type Article,
  type ArticleFields,
  type ArticleState,
  type FieldChange,
} from './api';
import { STATE_COLORS } from './articles-page';
import { ConflictPanel, RevisionsPanel, type RevisionsSource } from './editing';
import { ImagePicker } from './image-picker';

const REVISIONS: RevisionsSource<Article, keyof ArticleFields> = {
  key: 'console-revisions',
  list: listRevisions,
  get: getRevision,
  restore: restoreRevision,
};

const EMPTY: ArticleFields = {
  title: '',
  path: null,
  description: '',
  body: '',
  category: null,
  imageUrl: null,
  imageAlt: '',
  internal: false,
  scrollspy: false,
  state: 'draft',
  publishAt: null,
};

function fieldsOf(a: Article): ArticleFields {
  return {
    title: a.title,
    path: a.path,
    description: a.description,
    body: a.body,
    category: a.category,
    imageUrl: a.imageUrl,
    imageAlt: a.imageAlt,
    internal: a.internal,
    scrollspy: a.scrollspy,
    state: a.state,
    publishAt: a.publishAt,
  };
}

/** An ISO instant as the value of a datetime-local field (local time, seconds included). */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** /admin/content/articles/new and /admin/content/articles/:articleId: the article's form. */
export default function ArticleEditorPage() {
  const { t } = useTranslation();
  const { articleId } = useParams();
  const title = articleId ? t('console.content.editor.editTitle') : t('console.content.editor.createTitle');
  return (
    <ConsolePage roles="content_editor" title={title}>
      <Button component={Link} to={paths.adminContent} variant="subtle" mb="sm" px={0}>
        {t('console.content.editor.back')}
      </Button>
      {articleId ? <ExistingArticle id={articleId} /> : <ArticleForm />}
    </ConsolePage>
  );
}

function ExistingArticle({ id }: { id: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['console-article', id], queryFn: () => getArticle(id), retry: false });
  // Raised when another version replaces the form's (a reload after a conflict, a restore).
  const [seed, setSeed] = useState(0);
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, t('console.content.articles.notFound'))}
      </Alert>
    );
  }
  if (!query.data) return <Loading />;
  return (
    <ArticleForm
      key={seed}
      article={query.data.data}
      onReplaced={(data) => {
        client.setQueryData(['console-article', id], { data });
        setSeed((n) => n + 1);
      }}
    />
  );
}

function ArticleForm({ article, onReplaced }: { article?: Article; onReplaced?: (a: Article) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [fields, setFields] = useState<ArticleFields>(article ? fieldsOf(article) : EMPTY);
  const [version, setVersion] = useState(article?.version ?? 0);
  const location = useLocation();
  // A new article's form comes back at its own address with what was saved.
  const [notice, setNotice] = useState<string | null>(() => {
    const saved = (location.state as { saved?: number } | null)?.saved;
    return saved ? t('console.content.editor.saved', { version: saved }) : null;
  });
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{
    current: Article;
    changes: FieldChange<keyof ArticleFields>[];
  } | null>(null);
  const categories = useQuery({ queryKey: ['console-categories'], queryFn: listCategories });
  const set = <K extends keyof ArticleFields>(key: K, value: ArticleFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));

  const save = useMutation({
    mutationFn: (over?: number) =>
      article ? saveArticle(article.id, fields, over ?? version) : createArticle(fields),
    onSuccess: async ({ data }) => {
      setConflict(null);
      setError(null);
      setVersion(data.version);
      setNotice(t('console.content.editor.saved', { version: data.version }));
      await client.invalidateQueries({ queryKey: ['console-articles'] });
      await client.invalidateQueries({ queryKey: ['console-revisions', data.id] });
      client.setQueryData(['console-article', data.id], { data });
      if (!article)
        void navigate(paths.adminArticle(data.id), { replace: true, state: { saved: data.version } });
    },
    onError: (err) => {
      setNotice(null);
      if (err instanceof ApiError && err.status === 409 && isConflictBody(err.body)) {
        setConflict(err.body.meta);
        setError(null);
      } else setError(messageOf(err, t('errors.somethingWentWrong')));
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteArticle(article!.id, version),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['console-articles'] });
      void navigate(paths.adminContent);
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
        aria-label={t('console.content.editor.editTitle')}
      >
        <Stack>
          {article && (
            <Group gap="xs">
              <Badge color={STATE_COLORS[article.state]} variant="light">
                {t(`console.content.articles.states.${article.state}`)}
              </Badge>
              <Text size="sm" c="dimmed">
                {t('console.content.revisions.version', { version })}
              </Text>
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
              title={t('console.content.editor.conflictTitle')}
              text={t('console.content.editor.conflictText', { version: conflict.current.version })}
              changes={conflict.changes}
              labelOf={(field) => t(`console.content.fields.${field}`)}
              onReload={() => onReplaced?.(conflict.current)}
              onOverwrite={() => save.mutate(conflict.current.version)}
              testId="article-conflict"
            />
          )}
          <TextInput
            label={t('console.content.editor.titleLabel')}
            required
            value={fields.title}
            onChange={(e) => set('title', e.currentTarget.value)}
          />
          <TextInput
            label={t('console.content.editor.pathLabel')}
            description={t('console.content.editor.pathHint')}
            value={fields.path ?? ''}
            onChange={(e) => set('path', e.currentTarget.value.trim() ? e.currentTarget.value : null)}
          />
          <Select
            label={t('console.content.editor.categoryLabel')}
            placeholder={t('console.content.editor.noCategory')}
            clearable
            value={fields.category}
            onChange={(v) => set('category', v)}
            data={(categories.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          />
          <Textarea
            label={t('console.content.editor.summaryLabel')}
            autosize
            minRows={2}
            value={fields.description}
            onChange={(e) => set('description', e.currentTarget.value)}
          />
          <ImagePicker
            body={fields.body}
            onBodyChange={(body) => set('body', body)}
            bodyLabel={t('console.content.editor.bodyLabel')}
            onUseAsImage={(imageUrl, imageAlt) => setFields((f) => ({ ...f, imageUrl, imageAlt }))}
          />
          <Tabs defaultValue="write">
            <Tabs.List>
              <Tabs.Tab value="write">{t('console.content.editor.write')}</Tabs.Tab>
              <Tabs.Tab value="preview">{t('console.content.editor.preview')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                label={t('console.content.editor.bodyLabel')}
                autosize
                minRows={10}
                styles={{ input: { fontFamily: 'monospace' } }}
                value={fields.body}
                onChange={(e) => set('body', e.currentTarget.value)}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs">
              <Paper withBorder p="md" data-testid="article-preview">
                <Markdown text={fields.body} />
              </Paper>
            </Tabs.Panel>
          </Tabs>
          <Group grow>
            <TextInput
              label={t('console.content.editor.imageUrlLabel')}
              value={fields.imageUrl ?? ''}
              onChange={(e) => set('imageUrl', e.currentTarget.value.trim() ? e.currentTarget.value : null)}
            />
            <TextInput
              label={t('console.content.editor.imageAltLabel')}
              value={fields.imageAlt}
              onChange={(e) => set('imageAlt', e.currentTarget.value)}
            />
          </Group>
          <Checkbox
            label={t('console.content.editor.internalLabel')}
            checked={fields.internal}
            onChange={(e) => set('internal', e.currentTarget.checked)}
          />
          <Checkbox
            label={t('console.content.editor.scrollspyLabel')}
            checked={fields.scrollspy}
            onChange={(e) => set('scrollspy', e.currentTarget.checked)}
          />
          <Radio.Group
            label={t('console.content.editor.stateLabel')}
            value={fields.state}
            onChange={(v) => set('state', v as ArticleState)}
          >
            <Group mt="xs">
              {ARTICLE_STATES.map((s) => (
                <Radio key={s} value={s} label={t(`console.content.articles.states.${s}`)} />
              ))}
            </Group>
          </Radio.Group>
          {fields.state === 'scheduled' && (
            <TextInput
              type="datetime-local"
              step={1}
              required
              label={t('console.content.editor.publishAtLabel')}
              value={toLocalInput(fields.publishAt)}
              onChange={(e) => set('publishAt', fromLocalInput(e.currentTarget.value))}
            />
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('console.content.editor.save')}
            </Button>
            {article && (
              <Button
                color="red"
                variant="outline"
                loading={remove.isPending}
                onClick={() => {
                  if (window.confirm(t('console.content.editor.deleteConfirm'))) remove.mutate();
                }}
              >
                {t('console.content.editor.delete')}
              </Button>
            )}
          </Group>
        </Stack>
      </Box>
      {article && (
        <RevisionsPanel
          id={article.id}
          version={version}
          source={REVISIONS}
          labelOf={(field) => t(`console.content.fields.${field}`)}
          onRestored={async (a) => {
            await client.invalidateQueries({ queryKey: ['console-articles'] });
            onReplaced?.(a);
          }}
          testId="article-revisions"
        />
      )}
    </Group>
  );
}
