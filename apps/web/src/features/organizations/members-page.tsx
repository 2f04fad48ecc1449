import { Alert, Badge, Button, Container, Group, Modal, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { ApiError, messageOf } from '../../lib/api-client';
import {
  PERMISSIONS,
  deleteMembership,
  hasPermission,
  listMembers,
  listRoles,
  organizationKeys,
  resendInvitation,
  type MemberResource,
  type OrganizationResource,
} from './api';
import { EditRolesForm } from './edit-roles-form';
import { InviteForm } from './invite-form';
import { MessageAlert, NotPermitted, OrganizationBreadcrumbs } from './parts';
import { useTimedMessage } from './timed-message';
import { useOrganization } from './use-organization';

/** /organization/:organizationId/members: Members List (spec A 2, 4, 5). */
export default function MembersPage() {
  return (
    <RequireLogin>
      <Members />
    </RequireLogin>
  );
}

function Members() {
  const { t } = useTranslation();
  const { organizationId = '' } = useParams();
  const org = useOrganization(organizationId);
  if (org.isPending) return <Loading />;
  if (org.missing) return <NotFound />;
  if (org.error instanceof ApiError && org.error.status === 403) return <NotPermitted />;
  if (org.isError)
    return (
      <Container size="lg" py="xl">
        <Alert color="red" role="alert">
          {messageOf(org.error, t('organizations.somethingWentWrong'))}
        </Alert>
      </Container>
    );
  if (!hasPermission(org.data.resource, PERMISSIONS.viewMembers)) return <NotPermitted />;
  return <MembersList organization={org.data.resource} />;
}

type Confirm = { kind: 'remove' | 'cancel'; member: MemberResource };

function MembersList({ organization }: { organization: OrganizationResource }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = organization.id;
  const name = organization.attributes.label;
  const members = useQuery({ queryKey: organizationKeys.members(orgId), queryFn: () => listMembers(orgId) });
  const roles = useQuery({ queryKey: organizationKeys.roles, queryFn: listRoles, staleTime: 10 * 60_000 });
  const [message, showMessage] = useTimedMessage();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<MemberResource | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const canAdminister = hasPermission(organization, PERMISSIONS.administerMembers);
  const canEditRoles = hasPermission(organization, PERMISSIONS.editMemberRoles);
  const refresh = () => queryClient.invalidateQueries({ queryKey: organizationKeys.members(orgId) });
  const failed = (error: unknown) =>
    showMessage({ kind: 'error', text: messageOf(error, t('organizations.somethingWentWrong')) });

  const resend = useMutation({
    mutationFn: (m: MemberResource) => resendInvitation(orgId, m.id),
    onSuccess: (serverMessage) => {
      showMessage({ kind: 'status', text: serverMessage ?? t('organizations.invitationSent') });
      void refresh();
    },
    onError: failed,
  });
  // Removal is tracked per membership until it is deleted or fails (spec A 4).
  const [removing, setRemoving] = useState<Set<string>>(new Set());
  const remove = useMutation({
    mutationFn: (c: Confirm) => deleteMembership(c.member.id),
    onMutate: (c) => setRemoving((s) => new Set(s).add(c.member.id)),
    onSettled: (_d, _e, c) =>
      setRemoving((s) => {
        const next = new Set(s);
        next.delete(c.member.id);
        return next;
      }),
    onSuccess: (_d, c) => {
      const who = c.member.attributes.userName;
      showMessage({
        kind: 'status',
        text:
          c.kind === 'cancel'
            ? t('organizations.invitationCancelled', { name: who })
            : t('organizations.memberRemoved', { name: who }),
      });
      void refresh();
    },
    onError: failed,
  });

  const roleLabel = (id: string) => roles.data?.find((r) => r.attributes.id === id)?.attributes.label ?? id;
  const statusLabel = (status: string) =>
    status === 'active'
      ? t('organizations.statusActive')
      : status === 'pending_invitation'
        ? t('organizations.statusPending')
        : status === 'blocked'
          ? t('organizations.statusBlocked')
          : status;

  return (
    <Container size="lg" py="xl">
      <OrganizationBreadcrumbs
        organization={{ id: orgId, name }}
        current={t('organizations.breadcrumbMembers')}
      />
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle>{t('organizations.membersTitle')}</PageTitle>
        {canAdminister && (
          <Button onClick={() => setInviting(true)} disabled={!roles.data}>
            {t('organizations.inviteButton')}
          </Button>
        )}
      </Group>
      <MessageAlert message={message} />
      {members.isPending ? (
        <Loading />
      ) : members.isError ? (
        <Alert color="red" role="alert">
          {messageOf(members.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={640} mt="md">
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('organizations.columnMemberName')}</Table.Th>
                <Table.Th>{t('organizations.columnMemberStatus')}</Table.Th>
                <Table.Th>{t('organizations.columnRole')}</Table.Th>
                <Table.Th>{t('organizations.columnOperations')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.map((m) => {
                const a = m.attributes;
                const pending = a.status === 'pending_invitation';
                return (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      <Group gap="xs">
                        <div>
                          <Text size="sm" fw={600}>
                            {a.userName}
                          </Text>
                          {a.userName !== a.email && (
                            <Text size="xs" c="dimmed">
                              {a.email}
                            </Text>
                          )}
                        </div>
                        {a.isCreator && (
                          <Badge variant="light" size="sm">
                            {t('organizations.creatorBadge')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{statusLabel(a.status)}</Table.Td>
                    <Table.Td>{a.roles.map(roleLabel).join(', ')}</Table.Td>
                    <Table.Td>
                      <Group gap="xs">
                        {pending && canAdminister && (
                          <>
                            <Button
                              size="compact-sm"
                              variant="light"
                              loading={resend.isPending && resend.variables.id === m.id}
                              onClick={() => resend.mutate(m)}
                            >
                              {t('organizations.resendInvitation')}
                            </Button>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              loading={removing.has(m.id)}
                              onClick={() => setConfirm({ kind: 'cancel', member: m })}
                            >
                              {t('organizations.cancelInvitation')}
                            </Button>
                          </>
                        )}
                        {!pending && canEditRoles && roles.data && (
                          <Button size="compact-sm" variant="light" onClick={() => setEditing(m)}>
                            {t('organizations.editRoles')}
                          </Button>
                        )}
                        {!pending && !a.isCreator && canAdminister && (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            loading={removing.has(m.id)}
                            onClick={() => setConfirm({ kind: 'remove', member: m })}
                          >
                            {t('organizations.removeMember')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Modal
        opened={inviting}
        onClose={() => setInviting(false)}
        title={t('organizations.inviteTitle')}
        size="lg"
      >
        {roles.data && (
          <InviteForm
            organizationId={orgId}
            roles={roles.data}
            onInvited={(emails) => {
              showMessage({ kind: 'status', text: t('organizations.invited', { email: emails.join(', ') }) });
              void refresh();
            }}
            onDone={() => setInviting(false)}
          />
        )}
      </Modal>

      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? t('organizations.editRolesTitle', { name: editing.attributes.userName }) : ''}
      >
        {editing && roles.data && (
          <EditRolesForm
            member={editing}
            roles={roles.data}
            onSaved={(updated) => {
              showMessage({
                kind: 'status',
                text: t('organizations.rolesUpdated', { name: updated.attributes.userName }),
              });
              void refresh();
            }}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>

      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={
          confirm?.kind === 'cancel' ? t('organizations.cancelInvitation') : t('organizations.removeMember')
        }
      >
        {confirm && (
          <>
            <Text>
              {confirm.kind === 'cancel'
                ? t('organizations.cancelInvitationQuestion', { name: confirm.member.attributes.userName })
                : t('organizations.removeMemberQuestion', { name: confirm.member.attributes.userName })}
            </Text>
            <Group justify="flex-end" mt="lg">
              <Button variant="default" onClick={() => setConfirm(null)}>
                {confirm.kind === 'cancel' ? t('organizations.closeButton') : t('organizations.cancelButton')}
              </Button>
              <Button
                color="red"
                onClick={() => {
                  remove.mutate(confirm);
                  setConfirm(null);
                }}
              >
                {confirm.kind === 'cancel'
                  ? t('organizations.cancelInvitation')
                  : t('organizations.removeMember')}
              </Button>
            </Group>
          </>
        )}
      </Modal>
    </Container>
  );
}
