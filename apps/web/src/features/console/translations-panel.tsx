import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { DEFAULT_LOCALE, LOCALE_NAMES, type Locale } from '@portico/contracts/locales';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/**
 * An item's translations in the console (issue 30, decision 063): for each language but the
 * default, the item's translatable fields, saved with `PUT <item>/translations/<langcode>` and
 * removed with `DELETE`. The server checks the role, validates and sanitizes like the item's save.
 * A structured document (decision 064) gives no `fields`: the server lists its texts (`meta.sources`,
 * JSON pointer to English), each shown as the label of the field for its translation.
 */
export interface TranslatableFieldSpec {
  name: string;
  label: string;
  multiline?: boolean;
  required?: boolean;
  /** Shown under the label (a document's text: its JSON pointer). */
  description?: string;
  /** The English text (a document's): the field's `lang` for it is the default language's. */
  english?: string;
  /**
   * A map field (a documentation's tags): one text per name the server lists in `meta.names`,
   * each labelled by `entryLabel(name)`.
   */
  entryLabel?: (name: string) => string;
}

type FieldValue = string | Record<string, string>;

interface TranslationRow {
  langcode: Locale;
  fields: Record<string, FieldValue>;
  updated: string;
}

interface TranslationsAnswer {
  data: TranslationRow[];
  meta: { languages: Locale[]; sources?: Record<string, string>; names?: Record<string, string[]> };
}

/** The form's starting values: the stored translation's, else empty. */
function initialValues(fields: TranslatableFieldSpec[], saved: TranslationRow | undefined) {
  return Object.fromEntries(
    fields.map((f): [string, FieldValue] => {
      const value = saved?.fields[f.name];
      if (f.entryLabel) return [f.name, typeof value === 'object' ? { ...value } : {}];
      return [f.name, typeof value === 'string' ? value : ''];
    }),
  );
}

/** The longest English text shown whole as a field's label; a longer one is cut with an ellipsis. */
const LABEL_MAX = 70;

/** A document's texts as fields: the English (without its markup) labels each one. */
function sourceFields(sources: Record<string, string>): TranslatableFieldSpec[] {
  return Object.entries(sources).map(([pointer, english]) => {
    const plain = english
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return {
      name: pointer,
      label: plain.length > LABEL_MAX ? `${plain.slice(0, LABEL_MAX - 1).trimEnd()}…` : plain,
      description: pointer,
      multiline: english.length > LABEL_MAX || english !== plain,
      english,
    };
  });
}

export function TranslationsPanel({ item, fields }: { item: string; fields?: TranslatableFieldSpec[] }) {
  const { t } = useTranslation();
  const key = ['console-translations', item];
  const translations = useQuery({
    queryKey: key,
    queryFn: () => apiRequest<TranslationsAnswer>(`${item}/translations`, { format: 'json' }),
  });
  if (!translations.data) return null;
  const shown = fields ?? sourceFields(translations.data.meta.sources ?? {});
  return (
    <Paper withBorder p="md" mt="xl" component="section" aria-labelledby="translations-heading">
      <Title order={2} size="h3" id="translations-heading" mb="sm">
        {t('translations.console.heading')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t(fields ? 'translations.console.hint' : 'translations.console.documentHint')}
      </Text>
      {translations.data.meta.languages.map((langcode) => (
        <LanguageForm
          key={langcode}
          item={item}
          langcode={langcode}
          fields={shown}
          names={translations.data.meta.names ?? {}}
          saved={translations.data.data.find((r) => r.langcode === langcode)}
          queryKey={key}
        />
      ))}
    </Paper>
  );
}

function LanguageForm(props: {
  item: string;
  langcode: Locale;
  fields: TranslatableFieldSpec[];
  names: Record<string, string[]>;
  saved: TranslationRow | undefined;
  queryKey: string[];
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { item, langcode, saved } = props;
  // The stored translation when the form opens; afterwards the form holds what was typed (and saved).
  const [values, setValues] = useState<Record<string, FieldValue>>(() => initialValues(props.fields, saved));
  const [status, setStatus] = useState<string>();
  // Closed until the editor asks for it: the item's own form above keeps the only fields, buttons
  // and labels of its names ("Title", "Save"...) on the page until a translation is wanted.
  const [open, setOpen] = useState(false);
  const url = `${item}/translations/${langcode}`;
  const save = useMutation({
    mutationFn: () => apiRequest(url, { method: 'PUT', format: 'json', body: { fields: values } }),
    onSuccess: async () => {
      setStatus(t('translations.console.saved', { language: LOCALE_NAMES[langcode] }));
      await client.invalidateQueries({ queryKey: props.queryKey });
    },
  });
  const remove = useMutation({
    mutationFn: () => apiRequest(url, { method: 'DELETE', format: 'json' }),
    onSuccess: async () => {
      setStatus(t('translations.console.removed', { language: LOCALE_NAMES[langcode] }));
      await client.invalidateQueries({ queryKey: props.queryKey });
    },
  });
  const error = save.error ?? remove.error;
  const language = t('translations.console.language', { language: LOCALE_NAMES[langcode] });
  if (!open)
    return (
      <Group data-testid={`translation-${langcode}`} justify="space-between">
        <Title order={3} size="h4">
          {language}
        </Title>
        <Button variant="default" aria-expanded={false} onClick={() => setOpen(true)}>
          {t('translations.console.open', { language: LOCALE_NAMES[langcode] })}
        </Button>
      </Group>
    );
  return (
    <Stack
      component="form"
      gap="sm"
      lang={langcode}
      data-testid={`translation-${langcode}`}
      aria-label={language}
      onSubmit={(e) => {
        e.preventDefault();
        setStatus(undefined);
        save.mutate();
      }}
    >
      <Title order={3} size="h4">
        {language}
      </Title>
      {props.fields.map((f) => {
        if (f.entryLabel) {
          const label = f.entryLabel;
          const entries = values[f.name];
          const map = typeof entries === 'object' ? entries : {};
          return (props.names[f.name] ?? []).map((name) => (
            <Textarea
              key={`${f.name}.${name}`}
              autosize
              minRows={2}
              label={`${label(name)} (${LOCALE_NAMES[langcode]})`}
              value={map[name] ?? ''}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setValues((v) => {
                  const before = v[f.name];
                  return { ...v, [f.name]: { ...(typeof before === 'object' ? before : {}), [name]: value } };
                });
              }}
            />
          ));
        }
        const value = values[f.name];
        const common = {
          label:
            f.english === undefined ? (
              `${f.label} (${LOCALE_NAMES[langcode]})`
            ) : (
              // A document's English text names its field: marked as the default language's.
              <>
                <span lang={DEFAULT_LOCALE}>{f.label}</span> ({LOCALE_NAMES[langcode]})
              </>
            ),
          description: f.description,
          required: f.required,
          value: typeof value === 'string' ? value : '',
          onChange: (e: { currentTarget: { value: string } }) => {
            // Read now: React empties the event's currentTarget once the handler returns.
            const value = e.currentTarget.value;
            setValues((v) => ({ ...v, [f.name]: value }));
          },
        };
        return f.multiline ? (
          <Textarea key={f.name} autosize minRows={3} {...common} />
        ) : (
          <TextInput key={f.name} {...common} />
        );
      })}
      {error && (
        <Alert color="red" role="alert">
          {messageOf(error, t('errors.somethingWentWrong'))}
        </Alert>
      )}
      {status && (
        <Text role="status" size="sm">
          {status}
        </Text>
      )}
      <Group>
        <Button type="submit" loading={save.isPending}>
          {t('translations.console.save')}
        </Button>
        {saved && (
          <Button variant="default" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('translations.console.remove')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
