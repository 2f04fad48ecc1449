import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  NumberInput,
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
  createFaq,
  deleteFaq,
  FAQ_STATES,
  getFaq,
  getFaqRevision,
  isConflictBody,
  listFaqCategories,
  listFaqRevisions,
  restoreFaqRevision,
  saveFaq,
  type FaqFields,
  type FaqQuestion,
  type FaqState,
  type FieldChange,
} from './api';
import { ConflictPanel, RevisionsPanel, type RevisionsSource } from './editing';
import { FAQ_STATE_COLORS } from './faq-list-page';
import { ImagePicker } from './image-picker';

const FAQ_REVISIONS: RevisionsSource<FaqQuestion, keyof FaqFields> = {
  key: 'console-faq-revisions',
  list: listFaqRevisions,
  get: getFaqRevision,
  restore: restoreFaqRevision,
};

/** The form's fields; a new question's weight is left to the server (last of its category). */
type FormFields = Omit<FaqFields, 'weight'> & { weight: number | null };

const EMPTY: FormFields = { question: '', answer: '', category: null, weight: null, state: 'draft' };

function fieldsOf(f: FaqQuestion): FormFields {
  return { question: f.question, answer: f.answer, category: f.category, weight: f.weight, state: f.state };
}

/** What a save sends: the weight only when there is one. */
function sent(fields: FormFields): FaqFields {
  const { weight, ...rest } = fields;
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
      {faqId ? <ExistingQuestion id={faqId} /> : <QuestionForm />}
    </ConsolePage>
  );
}

function ExistingQuestion({ id }: { id: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ['console-faq', id], queryFn: () => getFaq(id), retry: false });
  // Raised when another version replaces the form's (a reload after a conflict, a restore).
  const [seed, setSeed] = useState(0);
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, t('console.content.faq.notFound'))}
      </Alert>
    );
  }
  if (!query.data) return <Loading />;
  return (
    <QuestionForm
      key={seed}
      faq={query.data.data}
      onReplaced={(data) => {
        client.setQueryData(['console-faq', id], { data });
        setSeed((n) => n + 1);
      }}
    />
  );
}

function QuestionForm({ faq, onReplaced }: { faq?: FaqQuestion; onReplaced?: (f: FaqQuestion) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const location = useLocation();
  const [fields, setFields] = useState<FormFields>(faq ? fieldsOf(faq) : EMPTY);
  const [version, setVersion] = useState(faq?.version ?? 0);
  const [notice, setNotice] = useState<string | null>(() => {
    const saved = (location.state as { saved?: number } | null)?.saved;
    return saved ? t('console.content.faqEditor.saved', { version: saved }) : null;
  });
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<{ current: FaqQuestion; changes: FieldChange[] } | null>(null);
  const categories = useQuery({ queryKey: ['console-faq-categories'], queryFn: listFaqCategories });
  const fieldLabel = (field: keyof FaqFields) => t(`console.content.faqFields.${field}`);
  const set = <K extends keyof FormFields>(key: K, value: FormFields[K]) =>
    setFields((f) => ({ ...f, [key]: value }));

  const save = useMutation({
    mutationFn: (over?: number) =>
      faq ? saveFaq(faq.id, sent(fields), over ?? version) : createFaq(sent(fields)),
    onSuccess: async ({ data }) => {
      setConflict(null);
      setError(null);
      setVersion(data.version);
      setFields((f) => ({ ...f, weight: data.weight }));
      setNotice(t('console.content.faqEditor.saved', { version: data.version }));
      await client.invalidateQueries({ queryKey: ['console-faqs'] });
      await client.invalidateQueries({ queryKey: ['console-faq-categories'] });
      await client.invalidateQueries({ queryKey: [FAQ_REVISIONS.key, data.id] });
      client.setQueryData(['console-faq', data.id], { data });
      if (!faq)
        void navigate(paths.adminFaqQuestion(data.id), { replace: true, state: { saved: data.version } });
    },
    onError: (err) => {
      setNotice(null);
      if (err instanceof ApiError && err.status === 409 && isConflictBody<FaqQuestion>(err.body)) {
        setConflict(err.body.meta);
        setError(null);
      } else setError(messageOf(err, t('errors.somethingWentWrong')));
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteFaq(faq!.id, version),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['console-faqs'] });
      await client.invalidateQueries({ queryKey: ['console-faq-categories'] });
      void navigate(paths.adminFaq);
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
        aria-label={
          faq ? t('console.content.faqEditor.editTitle') : t('console.content.faqEditor.createTitle')
        }
      >
        <Stack>
          {faq && (
            <Group gap="xs">
              <Badge color={FAQ_STATE_COLORS[faq.state]} variant="light">
                {t(`console.content.faq.states.${faq.state}`)}
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
              title={t('console.content.faqEditor.conflictTitle')}
              text={t('console.content.editor.conflictText', { version: conflict.current.version })}
              changes={conflict.changes}
              labelOf={fieldLabel}
              testId="faq-conflict"
              onReload={() => onReplaced?.(conflict.current)}
              onOverwrite={() => save.mutate(conflict.current.version)}
            />
          )}
          <TextInput
            label={t('console.content.faqEditor.questionLabel')}
            required
            value={fields.question}
            onChange={(e) => set('question', e.currentTarget.value)}
          />
          <ImagePicker
            body={fields.answer}
            onBodyChange={(answer) => set('answer', answer)}
            bodyLabel={t('console.content.faqEditor.answerLabel')}
          />
          <Tabs defaultValue="write">
            <Tabs.List>
              <Tabs.Tab value="write">{t('console.content.editor.write')}</Tabs.Tab>
              <Tabs.Tab value="preview">{t('console.content.editor.preview')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="write" pt="xs">
              <Textarea
                label={t('console.content.faqEditor.answerLabel')}
                required
                autosize
                minRows={8}
                styles={{ input: { fontFamily: 'monospace' } }}
                value={fields.answer}
                onChange={(e) => set('answer', e.currentTarget.value)}
              />
            </Tabs.Panel>
            <Tabs.Panel value="preview" pt="xs">
              <Paper withBorder p="md" data-testid="faq-preview">
                <Markdown text={fields.answer} />
              </Paper>
            </Tabs.Panel>
          </Tabs>
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
          <Radio.Group
            label={t('console.content.faqEditor.stateLabel')}
            value={fields.state}
            onChange={(v) => set('state', v as FaqState)}
          >
            <Group mt="xs">
              {FAQ_STATES.map((s) => (
                <Radio key={s} value={s} label={t(`console.content.faq.states.${s}`)} />
              ))}
            </Group>
          </Radio.Group>
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('console.content.faqEditor.save')}
            </Button>
            {faq && (
              <Button
                color="red"
                variant="outline"
                loading={remove.isPending}
                onClick={() => {
                  if (window.confirm(t('console.content.faqEditor.deleteConfirm'))) remove.mutate();
                }}
              >
                {t('console.content.faqEditor.delete')}
              </Button>
            )}
          </Group>
        </Stack>
      </Box>
      {faq && (
        <RevisionsPanel
          id={faq.id}
          version={version}
          source={FAQ_REVISIONS}
          labelOf={fieldLabel}
          testId="faq-revisions"
          onRestored={async (f) => {
            await client.invalidateQueries({ queryKey: [FAQ_REVISIONS.key, f.id] });
            await client.invalidateQueries({ queryKey: ['console-faqs'] });
            onReplaced?.(f);
          }}
        />
      )}
    </Group>
  );
}
