import { Alert, Box, Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import type { CategoryFields } from '@portico/contracts/console-content';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { TranslationsPanel } from '../console/translations-panel';
import { RevisionsPanel } from './editing';
import { CATEGORY_BASES } from './api';
import { CATEGORY_SOURCES, categoryPath, type AnyCategory, type CategoryKind } from './categories';
import { EditorConflict, LoadVersioned, useVersionedEditor } from './versioned-editor';

/**
 * /admin/content/categories/:categoryId and /admin/content/faq/categories/:categoryId: a news or
 * FAQ category's form (its name and place) with its revisions, saved with the version it was
 * loaded at (a 409 shows what the other save changed), and its name's translations (decision 063).
 */
export default function CategoryEditorPage({ kind }: { kind: CategoryKind }) {
  const { t } = useTranslation();
  const { categoryId = '' } = useParams();
  const listPath = kind === 'faq' ? paths.adminFaq : paths.adminNewsCategories;
  return (
    <ConsolePage
      roles="content_editor"
      title={
        kind === 'faq'
          ? t('console.content.categoryEditor.faqTitle')
          : t('console.content.categoryEditor.newsTitle')
      }
    >
      <Button component={Link} to={listPath} variant="subtle" mb="sm" px={0}>
        {kind === 'faq'
          ? t('console.content.categoryEditor.faqBack')
          : t('console.content.categoryEditor.newsBack')}
      </Button>
      <LoadVersioned
        id={categoryId}
        source={CATEGORY_SOURCES[kind]}
        notFound={t('console.content.categoryEditor.notFound')}
      >
        {(category, onReplaced) => (
          <>
            <CategoryForm kind={kind} category={category} listPath={listPath} onReplaced={onReplaced} />
            <TranslationsPanel
              item={`${CATEGORY_BASES[kind]}/${category.id}`}
              fields={[
                { name: 'name', label: t('console.content.categoryEditor.nameLabel'), required: true },
              ]}
            />
          </>
        )}
      </LoadVersioned>
    </ConsolePage>
  );
}

function CategoryForm({
  kind,
  category,
  listPath,
  onReplaced,
}: {
  kind: CategoryKind;
  category: AnyCategory;
  listPath: string;
  onReplaced(c: AnyCategory): void;
}) {
  const { t } = useTranslation();
  const editor = useVersionedEditor<AnyCategory, CategoryFields, keyof CategoryFields, CategoryFields>({
    source: CATEGORY_SOURCES[kind],
    item: category,
    empty: { name: '', weight: 0 },
    fieldsOf: (c) => ({ name: c.name, weight: c.weight }),
    toSend: (fields) => ({ name: fields.name.trim(), weight: fields.weight }),
    pathOf: (id) => categoryPath(kind, id),
    listPath,
    savedText: (version) => t('console.content.categoryEditor.saved', { version }),
    onReplaced,
  });
  const { fields, set } = editor;
  const labelOf = (field: keyof CategoryFields) => t(`console.content.categoryFields.${field}`);
  return (
    <Group align="flex-start" gap="xl" wrap="wrap">
      <Box
        component="form"
        onSubmit={editor.submit}
        style={{ flex: '1 1 420px' }}
        aria-label={t('console.content.categoryEditor.formLabel')}
      >
        <Stack>
          <Group gap="xs">
            <Text size="sm" c="dimmed" data-testid="category-version">
              {t('console.content.revisions.version', { version: editor.version })}
            </Text>
            {editor.dirty && (
              <Text size="sm" c="dimmed" data-testid="category-unsaved">
                {t('console.content.editor.unsaved')}
              </Text>
            )}
          </Group>
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
            title={t('console.content.categoryEditor.conflictTitle')}
            text={(version) => t('console.content.editor.conflictText', { version })}
            testId="category-conflict"
          />
          <TextInput
            label={t('console.content.categoryEditor.nameLabel')}
            required
            maxLength={255}
            value={fields.name}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <NumberInput
            label={t('console.content.categoryEditor.weightLabel')}
            description={t('console.content.categoryEditor.weightHint')}
            allowDecimal={false}
            required
            value={fields.weight}
            onChange={(v) => set('weight', typeof v === 'number' ? v : 0)}
          />
          <Group>
            <Button type="submit" loading={editor.saving}>
              {t('console.content.categoryEditor.save')}
            </Button>
            <Button
              color="red"
              variant="outline"
              loading={editor.deleting}
              onClick={() => {
                if (window.confirm(t('console.content.categoryEditor.deleteConfirm'))) editor.remove();
              }}
            >
              {t('console.content.categoryEditor.delete')}
            </Button>
          </Group>
        </Stack>
      </Box>
      <RevisionsPanel
        id={category.id}
        version={editor.version}
        source={editor.source.revisions}
        labelOf={labelOf}
        onRestored={editor.restored}
        testId="category-revisions"
      />
    </Group>
  );
}
