import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { ConsoleUserDetail } from '@portico/contracts/console-users';
import { PROVIDER_ROLES, type ProviderRole } from '@portico/contracts/provider-roles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { ConsolePage } from '../console/console-layout';
import { fetchUser, saveRoles, setBlocked, userKeys } from './api';
import { RoleBadges } from './role-badges';

type User = ConsoleUserDetail['data'];
const when = (iso: string | null, never: string) => (iso ? formatDateTime(iso) : never);

/** /admin/users/:userId: one account's organizations, applications and tickets; block, roles. */
export default function UserPage() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const user = useQuery({ queryKey: userKeys.one(userId), queryFn: () => fetchUser(userId) });
  return (
    <ConsolePage roles="administrator" title={user.data?.attributes.name ?? t('console.users.title')}>
      <Anchor component={Link} to={paths.adminUsers} mb="md" display="inline-block">
        {t('console.users.back')}
      </Anchor>
      {user.isPending ? (
        <Loading />
      ) : user.isError ? (
        <Alert color="red" role="alert">
          {messageOf(user.error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : (
        <Account user={user.data} />
      )}
    </ConsolePage>
  );
}

function Account({ user }: { user: User }) {
  const { t } = useTranslation();
  const a = user.attributes;
  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Text>{a.email}</Text>
        <Group gap="xs">
          {a.blocked ? (
            <Badge color="red.9">{t('console.users.blocked')}</Badge>
          ) : (
            <Badge color="green" variant="light">
              {t('console.users.active')}
            </Badge>
          )}
          {a.blockedAt && (
            <Text size="sm">{t('console.users.blockedSince', { date: when(a.blockedAt, '') })}</Text>
          )}
        </Group>
        <Text size="sm">
          {t('console.users.created')}: {when(a.created, '')} · {t('console.users.columns.lastSignIn')}:{' '}
          {when(a.lastSignIn, t('console.users.never'))}
        </Text>
        <RoleBadges roles={a.providerRoles} />
      </Stack>
      <BlockControl user={user} />
      <RolesForm user={user} />
      <section aria-labelledby="user-organizations">
        <Title order={2} size="h3" id="user-organizations" mb="xs">
          {t('console.users.organizationsTitle')}
        </Title>
        {a.memberships.length === 0 ? (
          <Text>{t('console.users.none')}</Text>
        ) : (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.users.columns.organizations')}</Table.Th>
                <Table.Th>{t('console.users.organizationRoles')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {a.memberships.map((m) => (
                <Table.Tr key={m.uuid}>
                  <Table.Td>{m.title}</Table.Td>
                  <Table.Td>{m.roles.join(', ')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
      <section aria-labelledby="user-applications">
        <Title order={2} size="h3" id="user-applications" mb="xs">
          {t('console.users.applicationsTitle')}
        </Title>
        {a.applications.length === 0 ? (
          <Text>{t('console.users.none')}</Text>
        ) : (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.users.applicationsTitle')}</Table.Th>
                <Table.Th>{t('console.users.applicationOrganization')}</Table.Th>
                <Table.Th>{t('console.users.applicationEnvironment')}</Table.Th>
                <Table.Th>{t('console.users.createdByUser')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {a.applications.map((app) => (
                <Table.Tr key={app.uuid}>
                  <Table.Td>{app.title}</Table.Td>
                  <Table.Td>{app.organizationTitle}</Table.Td>
                  <Table.Td>{app.status}</Table.Td>
                  <Table.Td>{app.createdByUser ? '✓' : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
      <section aria-labelledby="user-tickets">
        <Title order={2} size="h3" id="user-tickets" mb="xs">
          {t('console.users.ticketsTitle')}
        </Title>
        {a.tickets.length === 0 ? (
          <Text>{t('console.users.none')}</Text>
        ) : (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>{t('console.users.ticketSubject')}</Table.Th>
                <Table.Th>{t('console.users.ticketStatus')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {a.tickets.map((ticket) => (
                <Table.Tr key={ticket.uuid}>
                  <Table.Td>{ticket.id}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/support/ticket/${ticket.id}`}>
                      {ticket.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{ticket.status}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </section>
    </Stack>
  );
}

function useUpdate(uuid: string) {
  const client = useQueryClient();
  return async (updated: User) => {
    client.setQueryData(userKeys.one(uuid), updated);
    await client.invalidateQueries({ queryKey: userKeys.all });
  };
}

/** Block or unblock, after a confirmation. */
function BlockControl({ user }: { user: User }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState('');
  const blocked = user.attributes.blocked;
  const name = user.attributes.name;
  const update = useUpdate(user.id);
  const change = useMutation({
    mutationFn: () => setBlocked(user.id, !blocked),
    onSuccess: async (updated) => {
      setOpen(false);
      setDone(t(updated.attributes.blocked ? 'console.users.blockedDone' : 'console.users.unblockedDone'));
      await update(updated);
    },
  });
  return (
    <div>
      <Button
        // Shades with AA contrast (axe): dark red on white, Mantine's light green.
        color={blocked ? 'green' : 'red.9'}
        variant={blocked ? 'light' : 'outline'}
        onClick={() => {
          change.reset();
          setDone('');
          setOpen(true);
        }}
      >
        {t(blocked ? 'console.users.unblock' : 'console.users.block')}
      </Button>
      <Text role="status" mt="xs">
        {done}
      </Text>
      {change.isError && !open && (
        <Alert color="red" role="alert" mt="xs">
          {messageOf(change.error, t('errors.somethingWentWrong'))}
        </Alert>
      )}
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t(blocked ? 'console.users.unblockTitle' : 'console.users.blockTitle', { name })}
        centered
      >
        <Text mb="md">{t(blocked ? 'console.users.unblockText' : 'console.users.blockText')}</Text>
        {change.isError && (
          <Alert color="red" role="alert" mb="md">
            {messageOf(change.error, t('errors.somethingWentWrong'))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t('console.users.cancel')}
          </Button>
          <Button
            color={blocked ? 'green' : 'red.9'}
            variant={blocked ? 'light' : 'filled'}
            loading={change.isPending}
            onClick={() => change.mutate()}
          >
            {t(blocked ? 'console.users.unblockConfirm' : 'console.users.blockConfirm')}
          </Button>
        </Group>
      </Modal>
    </div>
  );
}

/** The provider roles as checkboxes, saved together. */
function RolesForm({ user }: { user: User }) {
  const { t } = useTranslation();
  // The boxes the administrator changed and has not saved yet; otherwise the stored roles.
  const [draft, setDraft] = useState<ProviderRole[] | null>(null);
  const roles = draft ?? user.attributes.providerRoles;
  const [done, setDone] = useState('');
  const update = useUpdate(user.id);
  const save = useMutation({
    mutationFn: () => saveRoles(user.id, roles),
    onSuccess: async (updated) => {
      setDraft(null);
      setDone(t('console.users.rolesSaved'));
      await update(updated);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone('');
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-labelledby="user-roles">
      <Checkbox.Group
        value={roles}
        onChange={(value) => {
          setDone('');
          save.reset();
          setDraft(PROVIDER_ROLES.filter((r) => value.includes(r)));
        }}
        label={
          <Title order={2} size="h3" id="user-roles" component="span">
            {t('console.users.rolesTitle')}
          </Title>
        }
        description={t('console.users.rolesHelp')}
      >
        <Stack gap="xs" mt="xs">
          {PROVIDER_ROLES.map((r) => (
            <Checkbox key={r} value={r} label={t(`console.roles.${r}`)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Button type="submit" mt="md" loading={save.isPending}>
        {t('console.users.saveRoles')}
      </Button>
      <Text role="status" mt="xs">
        {done}
      </Text>
      {save.isError && (
        <Alert color="red" role="alert" mt="xs">
          {messageOf(save.error, t('errors.somethingWentWrong'))}
        </Alert>
      )}
    </form>
  );
}
