import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { Application } from '@portico/contracts/applications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { messageOf } from '../../lib/api-client';
import { resetSecret } from './api';
import { ClientSecrets, secretsKey } from './client-secrets';
import { NewSecret } from './new-secret';
import { useApplicationCache } from './queries';

/** A credential hidden by default, with Show/Hide and copy (spec A 4). */
function HiddenValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <Group gap="xs" wrap="wrap">
      <Code data-testid={testId} data-shown={shown} style={{ wordBreak: 'break-all' }}>
        {shown ? value : '•'.repeat(Math.min(value.length, 24))}
      </Code>
      <Button
        size="compact-xs"
        variant="subtle"
        aria-label={`${shown ? t('applications.ui.hide') : t('applications.ui.show')} ${label}`}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? t('applications.ui.hide') : t('applications.ui.show')}
      </Button>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button
            size="compact-xs"
            variant="light"
            aria-label={`${t('applications.ui.copy')} ${label}`}
            onClick={copy}
          >
            {copied ? t('applications.ui.copied') : t('applications.ui.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * Client IDs and secrets of an application (spec A 2, 4): the production client ID once the
 * provider approved, and Reset client secret for the DEVELOPMENT client (confirmation first).
 */
export function Credentials({ app }: { app: Application }) {
  const { t } = useTranslation();
  const cache = useApplicationCache();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const reset = useMutation({
    mutationFn: () => resetSecret(app.uuid),
    onSuccess: () => {
      setConfirming(false);
      void cache.refetch(app.uuid);
      void queryClient.invalidateQueries({ queryKey: secretsKey(app.uuid) });
    },
  });
  const rows: { label: string; value: string | null; testId: string; secret: boolean }[] = [
    {
      label: t('applications.ui.clientIdDevelopment'),
      value: app.clientId.development,
      testId: 'client-id-development',
      secret: false,
    },
  ];
  if (app.clientId.production)
    rows.push({
      label: t('applications.ui.clientIdProduction'),
      value: app.clientId.production,
      testId: 'client-id-production',
      secret: false,
    });
  if (app.permissions.viewSecret) {
    rows.push({
      label: t('applications.ui.clientSecret'),
      value: app.clientSecrets.development ?? app.clientSecret,
      testId: 'client-secret',
      secret: true,
    });
    if (app.clientId.production)
      rows.push({
        label: t('applications.ui.clientSecretProduction'),
        value: app.clientSecrets.production,
        testId: 'client-secret-production',
        secret: true,
      });
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="app-credentials">
      <Title order={2} size="h4" id="app-credentials">
        {t('applications.ui.credentials')}
      </Title>
      <Table layout="fixed" verticalSpacing="xs">
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.testId}>
              <Table.Th scope="row" w={{ base: 120, sm: 200 }}>
                {r.label}
              </Table.Th>
              <Table.Td>
                {r.value ? (
                  <HiddenValue label={r.label} value={r.value} testId={r.testId} />
                ) : (
                  <Text size="sm" c="dimmed">
                    {r.secret ? t('applications.ui.secretDeleted') : t('applications.ui.none')}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {!app.permissions.viewSecret && (
        <Text size="sm" c="dimmed">
          {t('applications.ui.secretNotShown')}
        </Text>
      )}
      {reset.isSuccess && (
        <NewSecret testId="new-secret" title={t('applications.ui.newSecret')} secret={reset.data.secret} />
      )}
      {app.permissions.update && app.permissions.viewSecret && (
        <Group>
          <Button
            variant="default"
            onClick={() => {
              reset.reset();
              setConfirming(true);
            }}
          >
            {t('applications.ui.resetSecret')}
          </Button>
        </Group>
      )}
      {app.permissions.viewSecret && <ClientSecrets app={app} />}
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('applications.ui.resetSecret')}
        centered
      >
        <Stack>
          <Text>{t('applications.ui.resetSecretConfirm', { title: app.title })}</Text>
          {reset.isError && (
            <Alert color="red" role="alert">
              {messageOf(reset.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('applications.ui.cancel')}
            </Button>
            <Button color="red" loading={reset.isPending} onClick={() => reset.mutate()}>
              {t('applications.ui.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
