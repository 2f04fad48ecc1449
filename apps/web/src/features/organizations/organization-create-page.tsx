import { Container, Paper } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { RequireLogin } from '../../components/require-login';
import { PageTitle } from '../../components/ui/page-title';
import { OrganizationForm } from './organization-form';
import { OrganizationBreadcrumbs } from './parts';

/** /organization/create: CREATE ORGANIZATION (spec A 2); afterwards the new organization's page. */
export default function OrganizationCreatePage() {
  const { t } = useTranslation();
  return (
    <RequireLogin>
      <Container size="sm" py="xl">
        <OrganizationBreadcrumbs current={t('organizations.breadcrumbCreate')} />
        <PageTitle>{t('organizations.createTitle')}</PageTitle>
        <Paper withBorder p="lg">
          <OrganizationForm />
        </Paper>
      </Container>
    </RequireLogin>
  );
}
