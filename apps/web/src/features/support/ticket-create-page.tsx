import {
  Alert,
  Button,
  Container,
  FileInput,
  Group,
  NativeSelect,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import {
  DOCUMENT_EXTENSIONS,
  MAX_UPLOAD_BYTES,
  acceptAttribute,
  extensionAllowed,
} from '@portico/contracts/organizations';
import { TICKET_ENVIRONMENTS, TICKET_SEVERITIES } from '@portico/contracts/support-constants';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useTouched } from '../../lib/touched';
import classes from './support.module.css';
import { createTicket, ticketKeys, uploadAttachment, type TicketInput } from './api';

type Field = keyof TicketInput;
const FIELDS: Field[] = ['title', 'contact_info', 'description', 'environment', 'severity', 'details'];
const EMPTY: TicketInput = {
  title: '',
  contact_info: '',
  description: '',
  environment: '',
  severity: '',
  details: '',
};

/** /support/ticket/create (spec B 2.9, 5): every field required, 'Required' under touched empty ones. */
export default function TicketCreatePage() {
  return (
    <RequireLogin>
      <CreateTicket />
    </RequireLogin>
  );
}

function CreateTicket() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<TicketInput>(EMPTY);
  const { touched, touch, touchAll } = useTouched<Field>();
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const fileProblem = files.find((f) => !extensionAllowed(f.name, DOCUMENT_EXTENSIONS))
    ? t('organizations.extensionNotAllowed')
    : files.some((f) => f.size > MAX_UPLOAD_BYTES)
      ? t('organizations.fileTooLarge')
      : undefined;

  const errorOf = (field: Field) =>
    touched[field] ? (values[field].trim() ? serverErrors[field] : t('support.required')) : undefined;

  async function submit(e: FormEvent) {
    e.preventDefault();
    touchAll(FIELDS);
    setFailure(null);
    setServerErrors({});
    if (FIELDS.some((f) => !values[f].trim()) || fileProblem) return;
    setSaving(true);
    try {
      // Same rules as organization documents; the files join the ticket in the create call.
      const attachments: string[] = [];
      for (const file of files) attachments.push(await uploadAttachment(file));
      const nid = await createTicket(values, attachments);
      await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      void navigate(paths.supportTicket(nid, true));
    } catch (error) {
      setSaving(false);
      const pointer = error instanceof ApiError ? firstPointer(error.body) : undefined;
      const field = pointer?.slice(1) as Field | undefined;
      if (field && FIELDS.includes(field))
        setServerErrors({ [field]: messageOf(error, t('support.loadFailed')) });
      else setFailure(messageOf(error, t('support.loadFailed')));
    }
  }

  const bind = (field: Field) => ({
    value: values[field],
    error: errorOf(field),
    required: true,
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [field]: value }));
    },
    onBlur: () => touch(field),
  });

  return (
    <Container size="sm" py="xl">
      <PageBreadcrumbs
        items={[
          { title: t('support.title'), to: paths.support },
          { title: t('support.ticketsTitle'), to: paths.supportTickets },
          { title: t('support.createTitle') },
        ]}
      />
      <PageTitle>{t('support.createTitle')}</PageTitle>
      <form
        onSubmit={(e) => void submit(e)}
        noValidate
        className={classes.form}
        aria-label={t('support.createTitle')}
      >
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput label={t('support.ticketTitle')} {...bind('title')} />
          <TextInput label={t('support.contactInfo')} {...bind('contact_info')} />
          <Textarea label={t('support.description')} autosize minRows={3} {...bind('description')} />
          <NativeSelect
            label={t('support.environmentLabel')}
            data={[{ value: '', label: '' }, ...TICKET_ENVIRONMENTS.map((v) => ({ value: v, label: v }))]}
            {...bind('environment')}
          />
          <NativeSelect
            label={t('support.severityLabel')}
            data={[{ value: '', label: '' }, ...TICKET_SEVERITIES.map((v) => ({ value: v, label: v }))]}
            {...bind('severity')}
          />
          <Textarea label={t('support.details')} autosize minRows={5} {...bind('details')} />
          <FileInput
            label={t('support.attachments')}
            description={t('support.attachmentsHint')}
            multiple
            clearable
            accept={acceptAttribute(DOCUMENT_EXTENSIONS)}
            value={files}
            onChange={setFiles}
            error={fileProblem}
          />
          <Group>
            <Button type="submit" loading={saving}>
              {t('support.submitTicket')}
            </Button>
            <Button component={Link} to={paths.supportTickets} variant="subtle">
              {t('support.ticketsTitle')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Container>
  );
}

function firstPointer(body: unknown): string | undefined {
  const errors = (body as { errors?: { source?: { pointer?: string } }[] } | undefined)?.errors;
  return Array.isArray(errors) ? errors[0]?.source?.pointer : undefined;
}
