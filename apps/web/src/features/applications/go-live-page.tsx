import { Alert, Anchor, Button, Container, Radio, Group, Stack, TextInput, Textarea } from '@mantine/core';
import {
  DEVELOPER_TYPES,
  goLiveFormSchema,
  type Application,
  type GoLiveForm,
} from '@portico/contracts/applications';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/i18n';
import { issueText } from '../../components/forms/zod-text';
import { useTouched } from '../../lib/touched';
import { Link, useNavigate, useParams } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { messageOf } from '../../lib/api-client';
import { submitGoLive } from './api';
import { LoadFailed, NotAllowedHere } from './page-states';
import { applicationPath, useApplication, useApplicationCache, useOrganizationParam } from './queries';

type Field = keyof GoLiveForm;

const EMPTY: GoLiveForm = {
  developerType: '' as GoLiveForm['developerType'],
  firstName: '',
  lastName: '',
  companyName: '',
  address: '',
  email: '',
  siteUrl: '',
  useCases: '',
};

function validate(form: GoLiveForm): Partial<Record<Field, string>> {
  const result = goLiveFormSchema.safeParse(form);
  if (result.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field | undefined;
    if (field && !errors[field]) errors[field] = issueText(issue);
  }
  return errors;
}

/** /goLive/:applicationId: 'Go Live for {app title}' (spec A 2, 3, 5). */
export default function GoLivePage() {
  return (
    <RequireLogin>
      <GoLive />
    </RequireLogin>
  );
}

function GoLive() {
  const { applicationId = '' } = useParams();
  const organization = useOrganizationParam();
  const query = useApplication(applicationId, organization);
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadFailed error={query.error} />;
  // Spec A 6: the go-live page needs the create application entity role.
  if (!query.data.permissions.goLive) return <NotAllowedHere />;
  return (
    <GoLiveFormView
      key={query.data.uuid}
      app={query.data}
      organization={organization ?? query.data.organizationId}
    />
  );
}

function GoLiveFormView({ app, organization }: { app: Application; organization: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const cache = useApplicationCache();
  const [form, setForm] = useState<GoLiveForm>(EMPTY);
  const { touched, touch } = useTouched<Field>();
  const [submitted, setSubmitted] = useState(false);
  const errors = useMemo(() => validate(form), [form]);
  // Spec A 5: errors show only after a field is touched (and for all fields on submit).
  const shown = (f: Field) => (submitted || touched[f] ? errors[f] : undefined);
  const set = (f: Field, value: string) => setForm((s) => ({ ...s, [f]: value }));
  const back = applicationPath(app.uuid, organization);
  const submit = useMutation({
    mutationFn: (values: GoLiveForm) => submitGoLive(app, values),
    onSuccess: async () => {
      await cache.refetch(app.uuid);
      void navigate(applicationPath(app.uuid, organization, { golive: 'true' }));
    },
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validate(form)).length === 0) submit.mutate(form);
  }

  const text = (f: Exclude<Field, 'developerType' | 'useCases'>, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      required
      value={form[f]}
      onChange={(e) => set(f, e.currentTarget.value)}
      onBlur={() => touch(f)}
      error={shown(f)}
    />
  );

  return (
    <Container size="sm" py="xl">
      <Anchor component={Link} to={back} size="sm">
        {t('applications.ui.backToOverview')}
      </Anchor>
      <PageTitle mt="sm">{t('applications.goLiveTitle', { title: app.title })}</PageTitle>
      {app.applicationStatus === 'PRODUCTION' ? (
        <Alert color="blue">{t('applications.alreadyProduction')}</Alert>
      ) : (
        <form
          onSubmit={onSubmit}
          noValidate
          aria-busy={submit.isPending}
          aria-label={t('applications.goLiveTitle', { title: app.title })}
        >
          <Stack gap="md">
            <Radio.Group
              label={t('applications.ui.developerType')}
              required
              value={form.developerType}
              onChange={(v) => {
                set('developerType', v);
                touch('developerType');
              }}
              error={shown('developerType')}
            >
              <Group mt="xs">
                {DEVELOPER_TYPES.map((type) => (
                  <Radio
                    key={type}
                    value={type}
                    label={type === 'Personal' ? t('applications.ui.personal') : t('applications.ui.company')}
                    onBlur={() => touch('developerType')}
                  />
                ))}
              </Group>
            </Radio.Group>
            {text('firstName', t('applications.ui.firstName'))}
            {text('lastName', t('applications.ui.lastName'))}
            {text('companyName', t('applications.ui.companyName'))}
            {text('address', t('applications.ui.address'))}
            {text('email', t('applications.ui.email'), 'email')}
            {text('siteUrl', t('applications.ui.siteUrl'))}
            <Textarea
              label={t('applications.ui.useCases')}
              required
              autosize
              minRows={4}
              value={form.useCases}
              onChange={(e) => set('useCases', e.currentTarget.value)}
              onBlur={() => touch('useCases')}
              error={shown('useCases')}
            />
            {submit.isError && (
              <Alert color="red" role="alert">
                {t('applications.goLiveFailed', {
                  message: messageOf(submit.error, t('errors.somethingWentWrong')),
                })}
              </Alert>
            )}
            <Group>
              <Button type="submit" loading={submit.isPending}>
                {t('applications.ui.submit')}
              </Button>
              <Button component={Link} to={back} variant="default">
                {t('applications.ui.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Container>
  );
}
