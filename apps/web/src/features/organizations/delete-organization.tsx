import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { deleteOrganization, organizationKeys, type OrganizationResource } from './api';

/**
 * DELETE ORGANIZATION and its confirm dialog (spec A 5). While an application is in PRODUCTION the
 * server refuses with 'This action is not allowed. You should contact {support address}' (the
 * address is the server's configuration, so only the server can word it); the dialog then shows
 * that refusal instead of the question. Otherwise it warns that connected
 * applications stop working. The dialog's text always ends with 'This action cannot be undone.'
 * After a delete the user goes to the organizations list (spec A 2).
 */
export function DeleteOrganization({ organization }: { organization: OrganizationResource }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const remove = useMutation({
    mutationFn: () => deleteOrganization(organization.id),
    onSuccess: async () => {
      setOpen(false);
      queryClient.removeQueries({ queryKey: organizationKeys.one(organization.id) });
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all });
      void navigate(paths.organizations);
    },
    onError: (error) => {
      // 409: the refusal carries the support address from the server's configuration.
      if (error instanceof ApiError && error.status === 409 && error.serverMessage)
        setRefusal(error.serverMessage);
    },
  });

  function close() {
    setOpen(false);
    setRefusal(null);
    remove.reset();
  }

  const otherError =
    remove.isError && !refusal ? messageOf(remove.error, t('organizations.somethingWentWrong')) : null;
  return (
    <>
      <Group>
        <Button color="red" variant="outline" onClick={() => setOpen(true)}>
          {t('organizations.deleteButton')}
        </Button>
      </Group>
      <Modal opened={open} onClose={close} title={t('organizations.deleteTitle')} centered>
        {refusal ? (
          <Text data-testid="delete-organization-text">
            {/[.!?]$/.test(refusal) ? refusal : `${refusal}.`} {t('organizations.cannotBeUndone')}
          </Text>
        ) : (
          <>
            <Text fw={600} mb="xs">
              {t('organizations.deleteQuestion', { organization: organization.attributes.label })}
            </Text>
            <Text data-testid="delete-organization-text">
              {t('organizations.deleteWarning')} {t('organizations.cannotBeUndone')}
            </Text>
          </>
        )}
        {otherError && (
          <Alert color="red" role="alert" mt="sm">
            {otherError}
          </Alert>
        )}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={close}>
            {refusal ? t('organizations.closeButton') : t('organizations.cancelButton')}
          </Button>
          {!refusal && (
            <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
              {t('organizations.deleteConfirm')}
            </Button>
          )}
        </Group>
      </Modal>
    </>
  );
}
