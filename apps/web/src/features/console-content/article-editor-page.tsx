import { Button, Checkbox, Select, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { ARTICLE_STATES, articlesApi, listCategories, type Article, type ArticleFields } from './api';
import { MarkdownField } from './markdown-field';
import { TranslationsPanel } from '../console/translations-panel';
import {
  ImageFields,
  LoadVersioned,
  StateControl,
  useVersionedEditor,
  VersionedForm,
  versionedSource,
} from './versioned-editor';

const SOURCE = versionedSource<Article, ArticleFields>(articlesApi, {
  key: 'console-article',
  lists: ['console-articles'],
  revisions: 'console-revisions',
});

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
          {(article, onReplaced) => (
            <>
              <ArticleForm article={article} onReplaced={onReplaced} />
              <TranslationsPanel
                item={`/admin-api/content/articles/${article.id}`}
                fields={[
                  { name: 'title', label: t('console.content.editor.titleLabel'), required: true },
                  { name: 'description', label: t('console.content.editor.summaryLabel'), multiline: true },
                  { name: 'body', label: t('console.content.editor.bodyLabel'), multiline: true },
                ]}
              />
            </>
          )}
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
      stateLabel={(s) => t(`console.content.articles.states.${s}`)}
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
      <MarkdownField
        label={t('console.content.editor.bodyLabel')}
        minRows={10}
        tabs={{ write: t('console.content.editor.write'), preview: t('console.content.editor.preview') }}
        previewTestId="article-preview"
        value={fields.body}
        onChange={(v) => set('body', v)}
        onUseAsImage={(imageUrl, imageAlt) => editor.update({ imageUrl, imageAlt })}
      />
      <ImageFields
        labels={{
          url: t('console.content.editor.imageUrlLabel'),
          alt: t('console.content.editor.imageAltLabel'),
        }}
        imageUrl={fields.imageUrl}
        imageAlt={fields.imageAlt}
        onChange={editor.update}
      />
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
