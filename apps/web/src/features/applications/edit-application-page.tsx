import { Anchor, Container } from '@mantine/core';
import type { Application, ApplicationForm } from '@portico/contracts/applications';
import { clientAuthFormOf } from '@portico/contracts/client-auth';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate, useParams } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { ApiError, messageOf } from '../../lib/api-client';
import { updateApplication } from './api';
import { errorAttribute } from './client-auth-fields';
import { ApplicationFormView } from './application-form';
import { EditDenied, LoadFailed, MissingOrganization, NotAllowedHere } from './page-states';
import { applicationPath, useApplication, useApplicationCache, useOrganizationParam } from './queries';

/** /application/:applicationId/edit?organization=: 'Edit application' (spec A 2). */
export default function EditApplicationPage() {
  return (
    <RequireLogin>
      <EditApplication />
    </RequireLogin>
  );
}

function formOf(app: Application): ApplicationForm {
  return {
    title: app.title,
    description: app.description,
    authorizationCodeAllowed: app.allowedGrantTypes.includes('authorization_code'),
    clientCredentialsAllowed: app.allowedGrantTypes.includes('client_credentials'),
    oAuthRedirectUri: app.oauthRedirectUri,
    postLogoutRedirectUri: app.postLogoutRedirectUri,
    clientAuth: clientAuthFormOf(app.clientAuthentication),
  };
}

function EditApplication() {
  const { applicationId = '' } = useParams();
  const organization = useOrganizationParam();
  const query = useApplication(applicationId, organization);
  if (!organization) return <MissingOrganization />;
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadFailed error={query.error} />;
  const app = query.data;
  const back = applicationPath(app.uuid, organization);
  // Spec A 4: a production application cannot be edited.
  if (app.applicationStatus === 'PRODUCTION') return <EditDenied backTo={back} />;
  if (!app.permissions.update) return <NotAllowedHere />;
  return <EditForm key={app.uuid} app={app} organization={organization} />;
}

function EditForm({ app, organization }: { app: Application; organization: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const cache = useApplicationCache();
  const back = applicationPath(app.uuid, organization);
  const save = useMutation({
    mutationFn: (form: ApplicationForm) => updateApplication(app, form),
    onSuccess: (updated) => {
      cache.put(updated);
      void navigate(back);
    },
  });
  // The server refuses a production application too (another tab may have gone live).
  if (
    save.error instanceof ApiError &&
    save.error.status === 403 &&
    save.error.serverMessage === t('applications.cannotEdit')
  )
    return <EditDenied backTo={back} />;
  return (
    <Container size="md" py="xl">
      <Anchor component={Link} to={back} size="sm">
        {t('applications.ui.backToOverview')}
      </Anchor>
      <PageTitle mt="sm">{t('applications.editTitle')}</PageTitle>
      <ApplicationFormView
        initial={formOf(app)}
        submitLabel={t('applications.ui.save')}
        pending={save.isPending}
        error={save.isError ? messageOf(save.error, t('errors.somethingWentWrong')) : null}
        errorAttribute={errorAttribute(save.error)}
        onSubmit={(form) => save.mutate(form)}
      />
    </Container>
  );
}
