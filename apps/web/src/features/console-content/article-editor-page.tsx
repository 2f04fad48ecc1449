import { Badge, Button, Checkbox, Group, Paper, Select, Tabs, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Markdown } from '../../components/ui/markdown';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import {
  ARTICLE_STATES,
  createArticle,
  deleteArticle,
  getArticle,
  getRevision,
  listCategories,
  listRevisions,
  restoreRevision,
  saveArticle,
  type Article,
  type ArticleFields,
} from './api';
import { STATE_COLORS } from './articles-page';
import {
  LoadVersioned,
  StateControl,
  useVersionedEditor,
  VersionedForm,
  type VersionedSource,
} from './versioned-editor';

const SOURCE: VersionedSource<Article, ArticleFields, keyof ArticleFields> = {
  key: 'console-article',
  lists: ['console-articles'],
  get: getArticle,
  create: createArticle,
  save: saveArticle,
  remove: deleteArticle,
  revisions: { key: 'console-revisions', list: listRevisions, get: getRevision, restore: restoreRevision },
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
      {articleId ? (
        <LoadVersioned id={articleId} source={SOURCE} notFound={t('console.content.articles.notFound')}>
          {(article, onReplaced) => <ArticleForm article={article} onReplaced={onReplaced} />}
        </LoadVersioned>
      ) : (
        <ArticleForm />
      )}
    </ConsolePage>
  );
}

function ArticleForm({ article, onReplaced }: { article?: Article; onReplaced?: (a: Article) => void }) {
  const { t } = useTranslation();
  const editor = useVersionedEditor({
    source: SOURCE,
    item: article,
    empty: EMPTY,
    fieldsOf,
    toSend: (f) => f,
    pathOf: paths.adminArticle,
    listPath: paths.adminContent,
    savedText: (version) => t('console.content.editor.saved', { version }),
    onReplaced,
  });
  const { fields, set } = editor;
  const categories = useQuery({ queryKey: ['console-categories'], queryFn: listCategories });
  const saved = editor.item;
  return (
    <VersionedForm
      editor={editor}
      testId="article"
      labelOf={(field) => t(`console.content.fields.${field}`)}
      texts={{
        label: t('console.content.editor.editTitle'),
        conflictTitle: t('console.content.editor.conflictTitle'),
        conflictText: (version) => t('console.content.editor.conflictText', { version }),
        save: t('console.content.editor.save'),
        delete: t('console.content.editor.delete'),
        deleteConfirm: t('console.content.editor.deleteConfirm'),
      }}
      badge={
        saved && (
          <Badge color={STATE_COLORS[saved.state]} variant="light">
            {t(`console.content.articles.states.${saved.state}`)}
          </Badge>
        )
      }
    >
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
      <StateControl
        label={t('console.content.editor.stateLabel')}
        states={ARTICLE_STATES}
        stateLabel={(s) => t(`console.content.articles.states.${s}`)}
        state={fields.state}
        publishAt={fields.publishAt}
        onChange={editor.update}
      />
    </VersionedForm>
  );
}
