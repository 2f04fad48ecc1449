import { Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LOCALE_NAMES, type Locale } from '@portico/contracts/locales';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/**
 * An item's translations in the console (issue 30, decision 063): for each language but the
 * default, the item's translatable fields, saved with `PUT <item>/translations/<langcode>` and
 * removed with `DELETE`. The server checks the role, validates and sanitizes like the item's save.
 */
export interface TranslatableFieldSpec {
  name: string;
  label: string;
  multiline?: boolean;
  required?: boolean;
}

interface TranslationRow {
  langcode: Locale;
  fields: Record<string, string>;
  updated: string;
}

export function TranslationsPanel({ item, fields }: { item: string; fields: TranslatableFieldSpec[] }) {
  const { t } = useTranslation();
  const key = ['console-translations', item];
  const translations = useQuery({
    queryKey: key,
    queryFn: () =>
      apiRequest<{ data: TranslationRow[]; meta: { languages: Locale[] } }>(`${item}/translations`, {
        format: 'json',
      }),
  });
  if (!translations.data) return null;
  return (
    <Paper withBorder p="md" mt="xl" component="section" aria-labelledby="translations-heading">
      <Title order={2} size="h3" id="translations-heading" mb="sm">
        {t('translations.console.heading')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('translations.console.hint')}
      </Text>
      {translations.data.meta.languages.map((langcode) => (
        <LanguageForm
          key={langcode}
          item={item}
          langcode={langcode}
          fields={fields}
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
  saved: TranslationRow | undefined;
  queryKey: string[];
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { item, langcode, saved } = props;
  // The stored translation when the form opens; afterwards the form holds what was typed (and saved).
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.fields.map((f) => [f.name, saved?.fields[f.name] ?? ''])),
  );
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
        const common = {
          label: `${f.label} (${LOCALE_NAMES[langcode]})`,
          required: f.required,
          value: values[f.name] ?? '',
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
