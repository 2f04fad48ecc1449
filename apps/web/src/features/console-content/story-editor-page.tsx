import {
  Box,
  Button,
  Checkbox,
  Fieldset,
  Group,
  List,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { TranslationsPanel } from '../console/translations-panel';
import { STORY_STATES, storiesApi, type Story, type StoryFields } from './quickstart-api';
import { blankStep, formStepsOf, pagesOf, stepsOf, type FormStep, type StoryForm } from './story-steps';
import { moved, scheduled } from './versioned';
import {
  LoadVersioned,
  StateControl,
  useVersionedEditor,
  VersionedForm,
  versionedSource,
} from './versioned-editor';

const SOURCE = versionedSource<Story, StoryFields>(storiesApi, {
  key: 'console-story',
  lists: ['console-stories'],
  revisions: 'console-story-revisions',
});

const empty = (): StoryForm => ({
  title: '',
  weight: 0,
  disableForAnonymous: false,
  steps: [blankStep()],
  state: 'draft',
  publishAt: null,
});

function fieldsOf(s: Story): StoryForm {
  return {
    title: s.title,
    weight: s.weight,
    disableForAnonymous: s.disableForAnonymous,
    steps: formStepsOf(s.steps),
    state: s.state,
    publishAt: s.publishAt,
  };
}

function toSend(form: StoryForm): StoryFields {
  return scheduled({ ...form, title: form.title.trim(), steps: stepsOf(form.steps) });
}

/** /admin/content/quickstart/new and /admin/content/quickstart/:storyId: a Quick Start story's form. */
export default function StoryEditorPage() {
  const { t } = useTranslation();
  const { storyId } = useParams();
  const title = storyId
    ? t('console.quickstart.editor.editTitle')
    : t('console.quickstart.editor.createTitle');
  return (
    <ConsolePage roles="content_editor" title={title}>
      <Button component={Link} to={paths.adminQuickstart} variant="subtle" mb="sm" px={0}>
        {t('console.quickstart.editor.back')}
      </Button>
      {storyId ? (
        <LoadVersioned id={storyId} source={SOURCE} notFound={t('console.quickstart.list.notFound')}>
          {(story, onReplaced) => (
            <>
              <StoryFormView story={story} onReplaced={onReplaced} />
              {/* The title's and steps' texts in other languages (decision 064), anew for each version. */}
              <TranslationsPanel key={story.version} item={`/admin-api/content/quickstart/${story.id}`} />
            </>
          )}
        </LoadVersioned>
      ) : (
        <StoryFormView />
      )}
    </ConsolePage>
  );
}

function StoryFormView({ story, onReplaced }: { story?: Story; onReplaced?: (s: Story) => void }) {
  const { t } = useTranslation();
  const [blank] = useState(empty);
  const editor = useVersionedEditor({
    source: SOURCE,
    item: story,
    empty: blank,
    fieldsOf,
    toSend,
    pathOf: paths.adminStory,
    listPath: paths.adminQuickstart,
    savedText: (version) => t('console.quickstart.editor.saved', { version }),
    onReplaced,
  });
  const { fields, set } = editor;
  return (
    <VersionedForm
      editor={editor}
      testId="story"
      labelOf={(field) => t(`console.quickstart.fields.${field}`)}
      texts={{
        label: story ? t('console.quickstart.editor.editTitle') : t('console.quickstart.editor.createTitle'),
        conflictTitle: t('console.quickstart.editor.conflictTitle'),
        conflictText: (version) => t('console.quickstart.editor.conflictText', { version }),
        save: t('console.quickstart.editor.save'),
        delete: t('console.quickstart.editor.delete'),
        deleteConfirm: t('console.quickstart.editor.deleteConfirm'),
      }}
      stateLabel={(s) => t(`console.quickstart.list.states.${s}`)}
    >
      <TextInput
        label={t('console.quickstart.editor.titleLabel')}
        required
        value={fields.title}
        onChange={(e) => set('title', e.currentTarget.value)}
      />
      <Group grow align="flex-start">
        <NumberInput
          label={t('console.quickstart.editor.weightLabel')}
          description={t('console.quickstart.editor.weightHint')}
          allowDecimal={false}
          required
          value={fields.weight}
          onChange={(v) => set('weight', typeof v === 'number' ? v : 0)}
        />
        <Switch
          mt="lg"
          label={t('console.quickstart.editor.anonymousLabel')}
          checked={!fields.disableForAnonymous}
          onChange={(e) => set('disableForAnonymous', !e.currentTarget.checked)}
        />
      </Group>
      <StepsEditor steps={fields.steps} onChange={(steps) => set('steps', steps)} />
      <StateControl
        label={t('console.quickstart.editor.stateLabel')}
        states={STORY_STATES}
        stateLabel={(s) => t(`console.quickstart.list.states.${s}`)}
        state={fields.state}
        publishAt={fields.publishAt}
        onChange={editor.update}
      />
      <StepsPreview steps={fields.steps} />
    </VersionedForm>
  );
}

/** What gets the focus after a step was added, moved or removed. */
type FocusRequest = { key: number; control: 'up' | 'down' | 'target' } | 'add';

/**
 * The story's steps in order, each in a fieldset with buttons to move it up or down and to remove
 * it; the focus follows the step that moved (or goes to the next one after a removal).
 */
function StepsEditor({ steps, onChange }: { steps: FormStep[]; onChange(steps: FormStep[]): void }) {
  const { t } = useTranslation();
  const fieldsets = useRef(new Map<number, HTMLFieldSetElement>());
  const addButton = useRef<HTMLButtonElement>(null);
  // Read after the render that shows the change (the steps come back through the form).
  const focusRequest = useRef<FocusRequest | null>(null);
  useEffect(() => {
    const focus = focusRequest.current;
    if (!focus) return;
    focusRequest.current = null;
    if (focus === 'add') return addButton.current?.focus();
    const box = fieldsets.current.get(focus.key);
    const wanted = box?.querySelector<HTMLElement>(`[data-control="${focus.control}"]`);
    const other = box?.querySelector<HTMLElement>(
      `[data-control="${focus.control === 'up' ? 'down' : 'up'}"]`,
    );
    const usable = (el: HTMLElement | null | undefined) => !!el && !(el as HTMLButtonElement).disabled;
    if (usable(wanted)) wanted!.focus();
    else if (usable(other)) other!.focus();
    else box?.querySelector<HTMLElement>('[data-control="target"]')?.focus();
  });

  const update = (i: number, patch: Partial<FormStep>) =>
    onChange(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const move = (i: number, by: number) => {
    onChange(moved(steps, i, by));
    focusRequest.current = { key: steps[i]!.key, control: by < 0 ? 'up' : 'down' };
  };
  const remove = (i: number) => {
    const next = steps[i + 1] ?? steps[i - 1];
    onChange(steps.filter((_, j) => j !== i));
    focusRequest.current = next ? { key: next.key, control: 'target' } : 'add';
  };
  const add = () => {
    const step = blankStep();
    onChange([...steps, step]);
    focusRequest.current = { key: step.key, control: 'target' };
  };

  return (
    <Box>
      <Title order={2} size="h4">
        {t('console.quickstart.editor.stepsTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('console.quickstart.editor.stepsHint')}
      </Text>
      <Stack gap="sm" data-testid="story-steps">
        {steps.length === 0 && <Text size="sm">{t('console.quickstart.editor.noSteps')}</Text>}
        {steps.map((step, i) => {
          const n = i + 1;
          return (
            <Fieldset
              key={step.key}
              legend={t('console.quickstart.editor.step', { n })}
              ref={(el: HTMLFieldSetElement | null) => {
                if (el) fieldsets.current.set(step.key, el);
                else fieldsets.current.delete(step.key);
              }}
            >
              <Stack gap="xs">
                <TextInput
                  data-control="target"
                  label={t('console.quickstart.editor.targetLabel')}
                  description={t('console.quickstart.editor.targetHint')}
                  required
                  value={step.target}
                  onChange={(e) => update(i, { target: e.currentTarget.value })}
                />
                <Textarea
                  label={t('console.quickstart.editor.contentLabel')}
                  required
                  autosize
                  minRows={2}
                  value={step.content}
                  onChange={(e) => update(i, { content: e.currentTarget.value })}
                />
                <TextInput
                  label={t('console.quickstart.editor.navigationUrlLabel')}
                  description={t('console.quickstart.editor.navigationUrlHint')}
                  value={step.navigationUrl}
                  onChange={(e) => update(i, { navigationUrl: e.currentTarget.value })}
                />
                <Checkbox
                  label={t('console.quickstart.editor.spotlightClicksLabel')}
                  checked={step.spotlightClicks}
                  onChange={(e) => update(i, { spotlightClicks: e.currentTarget.checked })}
                />
                <Group gap="xs">
                  <Button
                    size="xs"
                    variant="default"
                    data-control="up"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                  >
                    {t('console.quickstart.editor.moveUp', { n })}
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    data-control="down"
                    disabled={i === steps.length - 1}
                    onClick={() => move(i, 1)}
                  >
                    {t('console.quickstart.editor.moveDown', { n })}
                  </Button>
                  <Button size="xs" color="red" variant="light" onClick={() => remove(i)}>
                    {t('console.quickstart.editor.removeStep', { n })}
                  </Button>
                </Group>
              </Stack>
            </Fieldset>
          );
        })}
        <Group>
          <Button ref={addButton} variant="light" onClick={add}>
            {t('console.quickstart.editor.addStep')}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}

/** The steps as the tour shows them, in order, with the page each happens on and what it points at. */
function StepsPreview({ steps }: { steps: FormStep[] }) {
  const { t } = useTranslation();
  const pages = pagesOf(steps);
  return (
    <Box>
      <Title order={2} size="h4" mb="xs">
        {t('console.quickstart.editor.preview')}
      </Title>
      <Paper withBorder p="md" data-testid="story-preview">
        {steps.length === 0 ? (
          <Text size="sm">{t('console.quickstart.editor.previewEmpty')}</Text>
        ) : (
          <List type="ordered" spacing="sm">
            {steps.map((s, i) => (
              <List.Item key={s.key}>
                <Text size="sm">{s.content}</Text>
                <Text size="xs" c="dimmed">
                  {pages[i]
                    ? t('console.quickstart.editor.previewPage', { page: pages[i] })
                    : t('console.quickstart.editor.previewAnyPage')}
                  {' · '}
                  {t('console.quickstart.editor.previewTarget', { target: s.target })}
                </Text>
              </List.Item>
            ))}
          </List>
        )}
      </Paper>
    </Box>
  );
}
