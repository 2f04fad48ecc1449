import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { Application } from '@portico/contracts/applications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { deleteApplication } from './api';
import { useApplicationCache } from './queries';

/**
 * Delete (spec A 4): a modal asks first; a production application cannot be deleted and the
 * modal says so. Success clears the application from the cache and goes to the organization.
 */
export function DeleteApplication({ app }: { app: Application }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const cache = useApplicationCache();
  const [open, setOpen] = useState(false);
  const production = app.applicationStatus === 'PRODUCTION';
  const remove = useMutation({
    mutationFn: () => deleteApplication(app.uuid),
    onSuccess: () => {
      setOpen(false);
      void navigate(paths.organization(app.organizationId));
      cache.remove(app.uuid);
    },
  });
  return (
    <>
      <Button
        color="red"
        variant="outline"
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        {t('applications.ui.delete')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('applications.ui.deleteTitle')} centered>
        <Stack>
          {production ? (
            <Text>{t('applications.cannotDelete')}</Text>
          ) : (
            <Text>{t('applications.ui.deleteConfirm', { title: app.title })}</Text>
          )}
          {remove.isError && (
            <Alert color="red" role="alert">
              {messageOf(remove.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('applications.ui.cancel')}
            </Button>
            {!production && (
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                {t('applications.ui.delete')}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
