import { Alert, Anchor, Container, Group, Paper } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { Link, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { PERMISSIONS, hasPermission } from './api';
import { OrganizationForm } from './organization-form';
import { NotPermitted, OrganizationBreadcrumbs } from './parts';
import { useOrganization } from './use-organization';

/** /organization/:organizationId/edit: EDIT ORGANIZATION with BACK TO OVERVIEW (spec A 2). */
export default function OrganizationEditPage() {
  return (
    <RequireLogin>
      <EditOrganization />
    </RequireLogin>
  );
}

function EditOrganization() {
  const { t } = useTranslation();
  const { organizationId = '' } = useParams();
  const query = useOrganization(organizationId);
  if (query.isPending) return <Loading />;
  if (query.missing) return <NotFound />;
  if (query.isError)
    return (
      <Container size="sm" py="xl">
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      </Container>
    );
  const { resource } = query.data;
  if (!hasPermission(resource, PERMISSIONS.editGroup)) return <NotPermitted />;
  return (
    <Container size="sm" py="xl">
      <OrganizationBreadcrumbs
        organization={{ id: resource.id, name: resource.attributes.label }}
        current={t('organizations.breadcrumbEdit')}
      />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle>{t('organizations.editTitle')}</PageTitle>
        <Anchor component={Link} to={paths.organization(resource.id)}>
          {t('organizations.backToOverview')}
        </Anchor>
      </Group>
      <Paper withBorder p="lg">
        <OrganizationForm key={resource.id} organization={query.data} />
      </Paper>
    </Container>
  );
}
