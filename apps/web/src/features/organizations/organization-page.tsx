import {
  Alert,
  Button,
  Container,
  Divider,
  Group,
  Image,
  Loader,
  Menu,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useLocation, useParams } from 'react-router';
import { MESSAGE_TIMEOUT_MS } from '@portico/contracts/constants';
import { NotFound } from '../../components/not-found';
import { RequireLogin } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { PERMISSIONS, hasPermission, type Organization } from './api';
import { DeleteOrganization } from './delete-organization';
import { InvitationBanner } from './invitation-banner';
import { OrganizationApplications } from './organization-applications';
import { OrganizationDocuments } from './organization-documents';
import type { AfterSaveState } from './organization-form';
import { NotPermitted, OrganizationBreadcrumbs } from './parts';
import { useOrganization } from './use-organization';

// The organization's activity (its part of the audit log) is for owners only: a chunk of its own.
const OrganizationActivity = lazy(() => import('./organization-activity'));

/**
 * /organization/:organizationId (spec A 2): description, image, menu (Edit Organization,
 * View/Manage Members), applications, documents, the pending-invitation banner and DELETE
 * ORGANIZATION. `view="content"` is /content and /content/add: the applications and documents only.
 */
export default function OrganizationPage({ view = 'overview' }: { view?: 'overview' | 'content' }) {
  return (
    <RequireLogin>
      <OrganizationView view={view} />
    </RequireLogin>
  );
}

function OrganizationView({ view }: { view: 'overview' | 'content' }) {
  const { t } = useTranslation();
  const { organizationId = '' } = useParams();
  const query = useOrganization(organizationId);
  if (query.isPending) return <Loading />;
  if (query.missing) return <NotFound />;
  if (query.error instanceof ApiError && query.error.status === 403) return <NotPermitted />;
  if (query.isError)
    return (
      <Container size="lg" py="xl">
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      </Container>
    );
  return <OrganizationBody organization={query.data} view={view} />;
}

function OrganizationBody({
  organization,
  view,
}: {
  organization: Organization;
  view: 'overview' | 'content';
}) {
  const { t } = useTranslation();
  const { resource, image } = organization;
  const name = resource.attributes.label;
  const pending = resource.meta.membership.status === 'pending_invitation';
  const description = resource.attributes.field_body.processed;

  return (
    <Container size="lg" py="xl">
      <OrganizationBreadcrumbs organization={{ id: resource.id, name }} />
      {pending && <InvitationBanner organization={resource} />}
      <SaveProblems />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle>{name}</PageTitle>
        {!pending && <OrganizationMenu organization={organization} />}
      </Group>
      <Stack gap="xl">
        {view === 'overview' && (
          <Group align="flex-start" wrap="wrap" gap="lg">
            {image && (
              <Image
                src={image.attributes.url}
                alt={t('organizations.imageOf', { organization: name })}
                w={200}
                radius="sm"
              />
            )}
            {description && <HtmlContent html={description} style={{ flex: 1, minWidth: 240 }} />}
          </Group>
        )}
        {!pending && (
          <>
            <OrganizationApplications organization={resource} />
            <Divider />
            <OrganizationDocuments organization={organization} />
            {view === 'overview' && isOwner(resource) && (
              <>
                <Divider />
                <ActivitySection organizationId={resource.id} />
              </>
            )}
            {view === 'overview' && hasPermission(resource, PERMISSIONS.deleteGroup) && (
              <>
                <Divider />
                <DeleteOrganization organization={resource} />
              </>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

/**
 * The organization's activity, for owners: shown on request, so that the page loads neither its
 * chunk nor its entries until an owner asks.
 */
function ActivitySection({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Stack gap="sm" component="section" aria-labelledby="organization-activity-title">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h3" id="organization-activity-title">
          {t('organizations.activity.title')}
        </Title>
        {!shown && (
          <Button variant="default" onClick={() => setShown(true)}>
            {t('organizations.activity.show')}
          </Button>
        )}
      </Group>
      {shown && (
        <Suspense fallback={<Loader size="sm" aria-label={t('organizations.activity.title')} />}>
          <OrganizationActivity organizationId={organizationId} />
        </Suspense>
      )}
    </Stack>
  );
}

/** Owners (the creator always is one) see the organization's activity. */
function isOwner(resource: Organization['resource']): boolean {
  const { membership, isCreator } = resource.meta;
  return membership.status === 'active' && (isCreator || membership.roles.includes('organization-admin'));
}

/** Edit Organization (owners: 'edit group') and View/Manage Members (spec A 2, 6). */
function OrganizationMenu({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const { resource } = organization;
  const canEdit = hasPermission(resource, PERMISSIONS.editGroup);
  const canSeeMembers = hasPermission(resource, PERMISSIONS.viewMembers);
  if (!canEdit && !canSeeMembers) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} aria-hidden />}>
          {t('organizations.organizationMenu')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {canEdit && (
          <Menu.Item component={Link} to={paths.organizationEdit(resource.id)}>
            {t('organizations.editOrganization')}
          </Menu.Item>
        )}
        {canSeeMembers && (
          <Menu.Item component={Link} to={paths.organizationMembers(resource.id)}>
            {t('organizations.viewMembers')}
          </Menu.Item>
        )}
        {canSeeMembers && (
          <Menu.Item component={Link} to={paths.organizationCertificates(resource.id)}>
            {t('certificates.menuLink')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/** An image that could not be uploaded while creating or editing: shown here for 10 s. */
function SaveProblems() {
  const location = useLocation();
  const problems = (location.state as AfterSaveState | null)?.uploadProblems;
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (!problems?.length) return;
    const timer = setTimeout(() => setVisible(false), MESSAGE_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [problems]);
  if (!visible || !problems?.length) return null;
  return (
    <Stack gap="xs" mb="md">
      {problems.map((p) => (
        <Alert key={p.fileName} color="red" role="alert" title={`${p.fileName}: ${p.problem.title}`}>
          {p.problem.detail && <Text size="sm">{p.problem.detail}</Text>}
        </Alert>
      ))}
    </Stack>
  );
}
