import { Anchor, Container } from '@mantine/core';
import type { ApplicationForm } from '@portico/contracts/applications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { Link, useNavigate } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { createApplication } from './api';
import { errorAttribute } from './client-auth-fields';
import { ApplicationFormView, emptyApplicationForm } from './application-form';
import { MissingOrganization } from './page-states';
import { applicationPath, useApplicationCache, useOrganizationParam } from './queries';

/** /application?organization=<id>: 'Create application' (spec A 2). */
export default function CreateApplicationPage() {
  return (
    <RequireLogin>
      <CreateApplication />
    </RequireLogin>
  );
}

function CreateApplication() {
  const { t } = useTranslation();
  const organization = useOrganizationParam();
  const navigate = useNavigate();
  const cache = useApplicationCache();
  const create = useMutation({
    mutationFn: (form: ApplicationForm) => createApplication(organization ?? '', form),
    onSuccess: (app) => {
      cache.put(app);
      // Spec A 2: to the application page, keeping the organization parameter.
      void navigate(applicationPath(app.uuid, organization));
    },
  });
  if (!organization) return <MissingOrganization />;
  return (
    <Container size="md" py="xl">
      <Anchor component={Link} to={paths.organization(organization)} size="sm">
        {t('applications.ui.allApps')}
      </Anchor>
      <PageTitle mt="sm">{t('applications.createTitle')}</PageTitle>
      <ApplicationFormView
        initial={emptyApplicationForm}
        submitLabel={t('applications.ui.create')}
        pending={create.isPending}
        error={create.isError ? messageOf(create.error, t('errors.somethingWentWrong')) : null}
        errorAttribute={errorAttribute(create.error)}
        onSubmit={(form) => create.mutate(form)}
      />
    </Container>
  );
}
