import {
  Alert,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Input,
  Skeleton,
  Stack,
  Text,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { applicationFormSchema, type ApplicationForm } from '@portico/contracts/applications';
import { REDOC_CALLBACK_PATH } from '@portico/contracts/constants';
import { lazy, Suspense, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { issueText } from '../../components/forms/zod-text';
import { useTouched } from '../../lib/touched';
import { ClientAuthFields } from './client-auth-fields';

const RichTextField = lazy(() => import('../../components/ui/rich-text-editor'));

type Field = 'title' | 'description' | 'grantTypes' | 'oAuthRedirectUri' | 'postLogoutRedirectUri';

export const emptyApplicationForm: ApplicationForm = {
  title: '',
  description: '',
  authorizationCodeAllowed: false,
  clientCredentialsAllowed: false,
  oAuthRedirectUri: [],
  postLogoutRedirectUri: [],
};

/** The first message per field of the shared rules (spec A 5), keyed by form field. */
function validate(form: ApplicationForm): Partial<Record<Field, string>> {
  const result = applicationFormSchema.safeParse(form);
  if (result.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const head = String(issue.path[0] ?? '');
    const field: Field | undefined =
      head === 'authorizationCodeAllowed' || head === 'clientCredentialsAllowed'
        ? 'grantTypes'
        : (['title', 'description', 'oAuthRedirectUri', 'postLogoutRedirectUri'] as const).find(
            (f) => f === head,
          );
    if (field && !errors[field]) errors[field] = issueText(issue);
  }
  return errors;
}

/** The portal's own console callback (spec A 5: base path plus oauth2/redoc-callback). */
export function redocCallbackUrl(): string {
  return `${window.location.origin}${import.meta.env.BASE_URL}${REDOC_CALLBACK_PATH}`;
}

export interface ApplicationFormProps {
  initial: ApplicationForm;
  submitLabel: string;
  pending: boolean;
  /** The server's message after a failed create or edit (spec A 8: shown under the form). */
  error: string | null;
  /** The attribute the server's error points at (client authentication fields show it too). */
  errorAttribute?: string | undefined;
  onSubmit(form: ApplicationForm): void;
  /** Extra actions beside the submit button (e.g. cancel). */
  actions?: ReactNode;
}

/**
 * The create and edit form of an application (spec A 3, 5): messages appear once a field was
 * touched (left) and for every field on submit.
 */
export function ApplicationFormView({
  initial,
  submitLabel,
  pending,
  error,
  errorAttribute,
  onSubmit,
  actions,
}: ApplicationFormProps) {
  const { t } = useTranslation();
  const [form, setForm] = useState<ApplicationForm>(initial);
  const { touched, touch } = useTouched<Field>();
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validate(form), [form]);
  const ids = { description: useId(), grantTypes: useId(), descriptionLabel: useId() };
  const shown = (field: Field) => (submitted || touched[field] ? errors[field] : undefined);
  const set = <K extends keyof ApplicationForm>(key: K, value: ApplicationForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const callback = redocCallbackUrl();

  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validate(form)).length === 0) onSubmit(form);
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={pending}>
      <Stack gap="md">
        <TextInput
          label={t('applications.ui.title')}
          required
          value={form.title}
          onChange={(e) => set('title', e.currentTarget.value)}
          onBlur={() => touch('title')}
          error={shown('title')}
          maxLength={255}
        />
        <Input.Wrapper
          label={t('applications.ui.description')}
          labelElement="div"
          id={ids.descriptionLabel}
          required
          error={shown('description')}
          errorProps={{ id: ids.description }}
        >
          <Suspense fallback={<Skeleton h={160} aria-label={t('applications.ui.description')} />}>
            <RichTextField
              label={t('applications.ui.description')}
              initialValue={initial.description}
              onChange={(html) => set('description', html)}
              onBlur={() => touch('description')}
              invalid={Boolean(shown('description'))}
              describedBy={shown('description') ? ids.description : undefined}
            />
          </Suspense>
        </Input.Wrapper>
        <Checkbox.Group
          label={t('applications.ui.grantTypes')}
          required
          error={shown('grantTypes')}
          value={[
            ...(form.authorizationCodeAllowed ? ['authorization_code'] : []),
            ...(form.clientCredentialsAllowed ? ['client_credentials'] : []),
          ]}
          onChange={(values) => {
            setForm((f) => ({
              ...f,
              authorizationCodeAllowed: values.includes('authorization_code'),
              clientCredentialsAllowed: values.includes('client_credentials'),
            }));
            touch('grantTypes');
          }}
        >
          <Group mt="xs">
            <Checkbox value="authorization_code" label={t('applications.ui.authorizationCode')} />
            <Checkbox value="client_credentials" label={t('applications.ui.clientCredentials')} />
          </Group>
        </Checkbox.Group>
        <TagsInput
          label={t('applications.ui.redirectUris')}
          description={t('applications.ui.tagsHint')}
          value={form.oAuthRedirectUri}
          onChange={(v) => {
            set('oAuthRedirectUri', v);
            touch('oAuthRedirectUri');
          }}
          onBlur={() => touch('oAuthRedirectUri')}
          acceptValueOnBlur
          splitChars={[',', ' ']}
          clearable
          error={shown('oAuthRedirectUri')}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('applications.ui.redocCallback')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('applications.ui.redocCallbackHint')}
          </Text>
          <Group gap="xs" wrap="wrap">
            <Code data-testid="redoc-callback" style={{ wordBreak: 'break-all' }}>
              {callback}
            </Code>
            <CopyButton value={callback}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="light" onClick={copy}>
                  {copied ? t('applications.ui.copied') : t('applications.ui.copy')}
                </Button>
              )}
            </CopyButton>
            <Button
              size="compact-sm"
              variant="subtle"
              disabled={form.oAuthRedirectUri.includes(callback)}
              onClick={() => set('oAuthRedirectUri', [...form.oAuthRedirectUri, callback])}
            >
              {t('applications.ui.addRedocCallback')}
            </Button>
          </Group>
        </Stack>
        <TagsInput
          label={t('applications.ui.postLogoutRedirectUris')}
          description={t('applications.ui.tagsHint')}
          value={form.postLogoutRedirectUri}
          onChange={(v) => {
            set('postLogoutRedirectUri', v);
            touch('postLogoutRedirectUri');
          }}
          onBlur={() => touch('postLogoutRedirectUri')}
          acceptValueOnBlur
          splitChars={[',', ' ']}
          clearable
          error={shown('postLogoutRedirectUri')}
        />
        <ClientAuthFields
          value={form.clientAuth}
          onChange={(v) => set('clientAuth', v)}
          serverError={error && errorAttribute ? { attribute: errorAttribute, message: error } : undefined}
        />
        {error && (
          <Alert color="red" role="alert" data-testid="form-error">
            {error}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
          {actions}
        </Group>
      </Stack>
    </form>
  );
}
