import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import {
  PERMISSIONS,
  fetchAllPages,
  hasPermission,
  organizationKeys,
  type OrganizationResource,
} from './api';
import { formatDate } from './parts';

/** The fields of an application (spec A 3) this list shows; the full shape is the applications module's. */
export interface OrganizationApplication {
  uuid: string;
  title: string;
  created: string;
  applicationStatus: 'DEVELOPMENT' | 'PRODUCTION';
}

/**
 * The applications of one organization: GET /phpsdk/organization/apps?organization={uuid}
 * (apps/server/src/modules/applications/README.md), every page through links.next.
 */
export async function listOrganizationApplications(
  organizationId: string,
): Promise<OrganizationApplication[]> {
  try {
    const { data } = await fetchAllPages<OrganizationApplication>('/phpsdk/organization/apps', {
      organization: organizationId,
    });
    return data;
  } catch (error) {
    // The caller is a member (the organization page loaded), so a 404 means a server without the
    // applications module: the organization simply has no applications there.
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function useOrganizationApplications(organizationId: string, enabled = true) {
  return useQuery({
    queryKey: organizationKeys.applications(organizationId),
    queryFn: () => listOrganizationApplications(organizationId),
    enabled,
  });
}

/**
 * The applications section of the organization and content views (spec A 2): each row links to
 * the application with the organization query parameter; members who may create applications get
 * ADD APPLICATION (the create form, also with the organization parameter).
 */
export function OrganizationApplications({ organization }: { organization: OrganizationResource }) {
  const { t } = useTranslation();
  const query = useOrganizationApplications(organization.id);
  const canCreate = hasPermission(organization, PERMISSIONS.createApplication);
  return (
    <Stack component="section" aria-labelledby="organization-applications" gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h3" id="organization-applications">
          {t('organizations.applicationsTitle')}
        </Title>
        {canCreate && (
          <Button component={Link} to={paths.applicationCreateIn(organization.id)} variant="light">
            {t('organizations.addApplication')}
          </Button>
        )}
      </Group>
      {query.isPending ? (
        <Loader size="sm" aria-label={t('organizations.applicationsTitle')} />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : query.data.length === 0 ? (
        <Text>{t('organizations.noApplications')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('organizations.columnApplication')}</Table.Th>
                <Table.Th>{t('organizations.columnStatus')}</Table.Th>
                <Table.Th>{t('organizations.columnCreated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((app) => (
                <Table.Tr key={app.uuid}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.applicationInOrganization(app.uuid, organization.id)}>
                      {app.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={app.applicationStatus === 'PRODUCTION' ? 'green' : 'gray'} variant="light">
                      {app.applicationStatus}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDate(app.created)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
