import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import {
  acceptInvitation,
  deleteMembership,
  listRoles,
  organizationKeys,
  type OrganizationResource,
} from './api';
import { MessageAlert } from './parts';
import { useTimedMessage } from './timed-message';

/**
 * The pending-invitation banner of the organization view (spec A 2, 4): accept makes the membership
 * active (PATCH field_status), ignore deletes it and returns to the organizations list.
 */
export function InvitationBanner({ organization }: { organization: OrganizationResource }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, showMessage] = useTimedMessage();
  const roles = useQuery({ queryKey: organizationKeys.roles, queryFn: listRoles, staleTime: 10 * 60_000 });
  const membershipId = organization.meta.membership.id;
  const name = organization.attributes.label;
  const onError = (error: unknown) =>
    showMessage({ kind: 'error', text: messageOf(error, t('organizations.somethingWentWrong')) });

  const accept = useMutation({
    mutationFn: () => acceptInvitation(membershipId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
    },
    onError,
  });
  const ignore = useMutation({
    mutationFn: () => deleteMembership(membershipId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      void navigate(paths.organizations);
    },
    onError,
  });

  const roleNames = organization.meta.membership.roles
    .map((id) => roles.data?.find((r) => r.attributes.id === id)?.attributes.label ?? id)
    .join(', ');
  return (
    <Alert color="yellow" mb="lg" title={t('organizations.invitationBanner', { organization: name })}>
      {roleNames && <Text size="sm">{t('organizations.invitationRoles', { roles: roleNames })}</Text>}
      <Group mt="sm">
        <Button onClick={() => accept.mutate()} loading={accept.isPending} disabled={ignore.isPending}>
          {t('organizations.acceptInvitation')}
        </Button>
        <Button
          variant="default"
          onClick={() => ignore.mutate()}
          loading={ignore.isPending}
          disabled={accept.isPending}
        >
          {t('organizations.ignoreInvitation')}
        </Button>
      </Group>
      <MessageAlert message={message} />
    </Alert>
  );
}
