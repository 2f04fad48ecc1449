import { Alert, Anchor, Badge, Button, Container, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import {
  PERMISSIONS,
  hasPermission,
  listOrganizations,
  organizationKeys,
  type Organization,
  type OrganizationSort,
} from './api';
import { formatDate } from './parts';

/** /organizations: MY ORGANIZATIONS (spec A 2). */
export default function OrganizationsPage() {
  return (
    <RequireLogin>
      <OrganizationsList />
    </RequireLogin>
  );
}

type Column = 'label' | 'created';

/** `?createApplication=1` (paths.organizationsForNewApplication): rows lead to the create-application form. */
function useCreateApplicationMode(): boolean {
  const [params] = useSearchParams();
  const value = params.get('createApplication');
  return value !== null && value !== '0' && value !== 'false';
}

function OrganizationsList() {
  const { t } = useTranslation();
  const createApplication = useCreateApplicationMode();
  const [sort, setSort] = useState<{ column: Column; desc: boolean }>({ column: 'label', desc: false });
  const sortParam = `${sort.desc ? '-' : ''}${sort.column}` as OrganizationSort;
  const query = useQuery({
    queryKey: organizationKeys.list(sortParam),
    queryFn: () => listOrganizations(sortParam),
    placeholderData: keepPreviousData,
  });

  function toggle(column: Column) {
    setSort((s) => (s.column === column ? { column, desc: !s.desc } : { column, desc: false }));
  }

  const rows = (query.data ?? []).filter(
    (o) =>
      !createApplication ||
      (o.resource.meta.membership.status === 'active' &&
        hasPermission(o.resource, PERMISSIONS.createApplication)),
  );

  return (
    <Container size="lg" py="xl">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle>{t('organizations.listTitle')}</PageTitle>
        <Button component={Link} to={paths.organizationCreate}>
          {t('organizations.createButton')}
        </Button>
      </Group>
      {createApplication && <Text mb="md">{t('organizations.chooseForApplication')}</Text>}
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : rows.length === 0 ? (
        <Text>{t('organizations.noOrganizations')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table striped highlightOnHover aria-busy={query.isFetching}>
            <Table.Thead>
              <Table.Tr>
                <SortableHeader
                  label={t('organizations.columnName')}
                  active={sort.column === 'label'}
                  desc={sort.desc}
                  onClick={() => toggle('label')}
                />
                <SortableHeader
                  label={t('organizations.columnCreated')}
                  active={sort.column === 'created'}
                  desc={sort.desc}
                  onClick={() => toggle('created')}
                />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((o) => (
                <OrganizationRow key={o.resource.id} organization={o} createApplication={createApplication} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Container>
  );
}

function SortableHeader({
  label,
  active,
  desc,
  onClick,
}: {
  label: string;
  active: boolean;
  desc: boolean;
  onClick: () => void;
}) {
  const Icon = !active ? IconSelector : desc ? IconChevronDown : IconChevronUp;
  return (
    <Table.Th aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton onClick={onClick}>
        <Group gap={4} wrap="nowrap">
          <Text fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function OrganizationRow({
  organization,
  createApplication,
}: {
  organization: Organization;
  createApplication: boolean;
}) {
  const { t } = useTranslation();
  const { resource } = organization;
  const pending = resource.meta.membership.status === 'pending_invitation';
  const to = createApplication ? paths.applicationCreateIn(resource.id) : paths.organization(resource.id);
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs">
          <Anchor component={Link} to={to}>
            {resource.attributes.label}
          </Anchor>
          {pending && (
            <Badge color="yellow" variant="light">
              {t('organizations.pendingInvitationBadge')}
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{formatDate(resource.attributes.created)}</Table.Td>
    </Table.Tr>
  );
}
