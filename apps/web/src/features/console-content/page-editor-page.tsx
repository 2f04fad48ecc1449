import { Anchor, Button, Checkbox, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { ContentTabs } from './editing';
import { PAGE_STATES, pagesApi, type ConsolePage as Page, type PageFields } from './pages-api';
import { MarkdownField } from './markdown-field';
import { TranslationsPanel } from '../console/translations-panel';
import { withoutEmptySchedule } from './versioned';
import {
  ImageFields,
  LoadVersioned,
  StateControl,
  useVersionedEditor,
  VersionedForm,
  versionedSource,
} from './versioned-editor';

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
  publishAt: null,
};

const SOURCE = versionedSource<Page, PageFields>(pagesApi, {
  key: 'console-page',
  lists: ['console-pages'],
  revisions: 'console-page-revisions',
});

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
    publishAt: p.publishAt ?? null,
  };
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
      {pageId ? (
        <LoadVersioned id={pageId} source={SOURCE} notFound={t('console.pages.list.notFound')}>
          {(page, onReplaced) => (
            <>
              <PageForm page={page} onReplaced={onReplaced} />
              <TranslationsPanel
                item={`/admin-api/content/pages/${page.id}`}
                fields={[
                  { name: 'title', label: t('console.pages.editor.titleLabel'), required: true },
                  { name: 'body', label: t('console.pages.editor.bodyLabel'), multiline: true },
                ]}
              />
            </>
          )}
        </LoadVersioned>
      ) : (
        <PageForm />
      )}
    </ConsolePage>
  );
}

function PageForm({ page, onReplaced }: { page?: Page; onReplaced?: (p: Page) => void }) {
  const { t } = useTranslation();
  const editor = useVersionedEditor({
    source: SOURCE,
    item: page,
    empty: EMPTY,
    fieldsOf,
    // Sent as PageFields: a page's publication time only when it has one.
    toSend: (f) => withoutEmptySchedule(f) as PageFields,
    pathOf: paths.adminPage,
    listPath: paths.adminPages,
    savedText: (version) => t('console.pages.editor.saved', { version }),
    onReplaced,
  });
  const { fields, set } = editor;
  const [aliasText, setAliasText] = useState(fields.aliases.join('\n'));
  const saved = editor.item;
  return (
    <VersionedForm
      editor={editor}
      testId="page"
      labelOf={(field) => t(`console.pages.fields.${field}`)}
      texts={{
        label: page ? t('console.pages.editor.editTitle') : t('console.pages.editor.createTitle'),
        conflictTitle: t('console.pages.editor.conflictTitle'),
        conflictText: (version) => t('console.pages.editor.conflictText', { version }),
        save: t('console.pages.editor.save'),
        delete: t('console.pages.editor.delete'),
        deleteConfirm: t('console.pages.editor.deleteConfirm'),
      }}
      stateLabel={(s) => t(`console.pages.list.states.${s}`)}
      extra={
        saved &&
        saved.state === 'published' && (
          <Anchor href={saved.path} target="_blank" size="sm">
            {t('console.pages.list.open')}
          </Anchor>
        )
      }
    >
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
      <MarkdownField
        label={t('console.pages.editor.bodyLabel')}
        minRows={10}
        tabs={{ write: t('console.pages.editor.write'), preview: t('console.pages.editor.preview') }}
        previewTestId="page-preview"
        value={fields.body}
        onChange={(v) => set('body', v)}
        onUseAsImage={(imageUrl, imageAlt) => editor.update({ imageUrl, imageAlt })}
      />
      <ImageFields
        labels={{
          url: t('console.pages.editor.imageUrlLabel'),
          alt: t('console.pages.editor.imageAltLabel'),
        }}
        imageUrl={fields.imageUrl}
        imageAlt={fields.imageAlt}
        onChange={editor.update}
      />
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
      <StateControl
        label={t('console.pages.editor.stateLabel')}
        states={PAGE_STATES}
        stateLabel={(s) => t(`console.pages.list.states.${s}`)}
        state={fields.state}
        publishAt={fields.publishAt}
        onChange={editor.update}
      />
    </VersionedForm>
  );
}
