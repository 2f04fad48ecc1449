import { Button, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { FAQ_STATES, faqsApi, listFaqCategories, type FaqFields, type FaqQuestion } from './api';
import { MarkdownField } from './markdown-field';
import { TranslationsPanel } from '../console/translations-panel';
import { withoutEmptySchedule } from './versioned';
import {
  LoadVersioned,
  StateControl,
  useVersionedEditor,
  VersionedForm,
  versionedSource,
} from './versioned-editor';

const SOURCE = versionedSource<FaqQuestion, FaqFields>(faqsApi, {
  key: 'console-faq',
  // A question's category counts its questions.
  lists: ['console-faqs', 'console-faq-categories'],
  revisions: 'console-faq-revisions',
});

/** The form's fields; a new question's weight is left to the server (last of its category). */
type FormFields = Omit<FaqFields, 'weight'> & { weight: number | null };

const EMPTY: FormFields = {
  question: '',
  answer: '',
  category: null,
  weight: null,
  state: 'draft',
  publishAt: null,
};

function fieldsOf(f: FaqQuestion): FormFields {
  return {
    question: f.question,
    answer: f.answer,
    category: f.category,
    weight: f.weight,
    state: f.state,
    publishAt: f.publishAt ?? null,
  };
}

/** What a save sends: the weight and the publication time only when there are some. */
function sent(fields: FormFields): FaqFields {
  const { weight, ...rest } = withoutEmptySchedule(fields);
  return (weight === null ? rest : { ...rest, weight }) as FaqFields;
}

/** /admin/content/faq/new and /admin/content/faq/:faqId: a FAQ question's form. */
export default function FaqEditorPage() {
  const { t } = useTranslation();
  const { faqId } = useParams();
  const title = faqId ? t('console.content.faqEditor.editTitle') : t('console.content.faqEditor.createTitle');
  return (
    <ConsolePage roles="content_editor" title={title}>
      <Button component={Link} to={paths.adminFaq} variant="subtle" mb="sm" px={0}>
        {t('console.content.faqEditor.back')}
      </Button>
      {faqId ? (
        <LoadVersioned id={faqId} source={SOURCE} notFound={t('console.content.faq.notFound')}>
          {(faq, onReplaced) => (
            <>
              <QuestionForm faq={faq} onReplaced={onReplaced} />
              <TranslationsPanel
                item={`/admin-api/content/faqs/${faq.id}`}
                fields={[
                  { name: 'question', label: t('console.content.faqEditor.questionLabel'), required: true },
                  {
                    name: 'answer',
                    label: t('console.content.faqEditor.answerLabel'),
                    multiline: true,
                    required: true,
                  },
                ]}
              />
            </>
          )}
        </LoadVersioned>
      ) : (
        <QuestionForm />
      )}
    </ConsolePage>
  );
}

function QuestionForm({ faq, onReplaced }: { faq?: FaqQuestion; onReplaced?: (f: FaqQuestion) => void }) {
  const { t } = useTranslation();
  const editor = useVersionedEditor({
    source: SOURCE,
    item: faq,
    empty: EMPTY,
    fieldsOf,
    toSend: sent,
    // The server gives a question without a weight the last place of its category.
    afterSave: (fields, saved) => ({ ...fields, weight: saved.weight }),
    pathOf: paths.adminFaqQuestion,
    listPath: paths.adminFaq,
    savedText: (version) => t('console.content.faqEditor.saved', { version }),
    onReplaced,
  });
  const { fields, set } = editor;
  const categories = useQuery({ queryKey: ['console-faq-categories'], queryFn: listFaqCategories });
  return (
    <VersionedForm
      editor={editor}
      testId="faq"
      labelOf={(field) => t(`console.content.faqFields.${field}`)}
      texts={{
        label: faq ? t('console.content.faqEditor.editTitle') : t('console.content.faqEditor.createTitle'),
        conflictTitle: t('console.content.faqEditor.conflictTitle'),
        conflictText: (version) => t('console.content.editor.conflictText', { version }),
        save: t('console.content.faqEditor.save'),
        delete: t('console.content.faqEditor.delete'),
        deleteConfirm: t('console.content.faqEditor.deleteConfirm'),
      }}
      stateLabel={(s) => t(`console.content.faq.states.${s}`)}
    >
      <TextInput
        label={t('console.content.faqEditor.questionLabel')}
        required
        value={fields.question}
        onChange={(e) => set('question', e.currentTarget.value)}
      />
      <MarkdownField
        label={t('console.content.faqEditor.answerLabel')}
        required
        minRows={8}
        tabs={{ write: t('console.content.editor.write'), preview: t('console.content.editor.preview') }}
        previewTestId="faq-preview"
        value={fields.answer}
        onChange={(v) => set('answer', v)}
      />
      <Group grow align="flex-start">
        <Select
          label={t('console.content.faqEditor.categoryLabel')}
          placeholder={t('console.content.faqEditor.noCategory')}
          clearable
          value={fields.category}
          onChange={(v) => set('category', v)}
          data={(categories.data?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
        <NumberInput
          label={t('console.content.faqEditor.weightLabel')}
          description={t('console.content.faqEditor.weightHint')}
          allowDecimal={false}
          value={fields.weight ?? ''}
          onChange={(v) => set('weight', typeof v === 'number' ? v : null)}
        />
      </Group>
      <StateControl
        label={t('console.content.faqEditor.stateLabel')}
        states={FAQ_STATES}
        stateLabel={(s) => t(`console.content.faq.states.${s}`)}
        state={fields.state}
        publishAt={fields.publishAt}
        onChange={editor.update}
      />
    </VersionedForm>
  );
}
