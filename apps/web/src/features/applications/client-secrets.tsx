import { Alert, Button, Group, Modal, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import type { Application } from '@portico/contracts/applications';
import {
  CLIENT_SECRET_TYPE,
  GRACE_PERIOD_CHOICES,
  type ClientSecretList,
  type ClientSecretResource,
  type RotatedSecret,
} from '@portico/contracts/client-secrets';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation, type MessageKey } from '../../lib/i18n';
import { formatDate } from '../../lib/text';
import { NewSecret } from './new-secret';
import { useApplicationCache } from './queries';

type Environment = 'DEVELOPMENT' | 'PRODUCTION';

/** DD-MM-YYYY HH:MM UTC, as the spec writes dates, with the time a secret expires at. */
export function formatDateTime(iso: string): string {
  return `${formatDate(iso)} ${iso.slice(11, 16)} UTC`;
}

export const secretsKey = (uuid: string) => ['application-secrets', uuid] as const;

function fetchSecrets(uuid: string): Promise<ClientSecretList> {
  return apiRequest<ClientSecretList>(`/api/applications/${encodeURIComponent(uuid)}/secrets`);
}

function rotateSecret(uuid: string, environment: Environment, gracePeriodHours: number) {
  return apiRequest<RotatedSecret>(`/api/applications/${encodeURIComponent(uuid)}/secrets`, {
    method: 'POST',
    body: { data: { type: CLIENT_SECRET_TYPE, attributes: { environment, gracePeriodHours } } },
  });
}

function revokeSecret(uuid: string, secretId: string) {
  return apiRequest<undefined>(
    `/api/applications/${encodeURIComponent(uuid)}/secrets/${encodeURIComponent(secretId)}`,
    { method: 'DELETE' },
  );
}

/**
 * The secrets of one environment's client with their dates (issue 28): Rotate (a new current
 * secret, the previous ones kept for the chosen grace period) and Revoke for an older secret.
 */
function EnvironmentSecrets({
  app,
  environment,
  secrets,
}: {
  app: Application;
  environment: Environment;
  secrets: ClientSecretResource[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cache = useApplicationCache();
  const [rotating, setRotating] = useState(false);
  const [hours, setHours] = useState<number>(24);
  const [revoking, setRevoking] = useState<ClientSecretResource | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: secretsKey(app.uuid) });
  const rotate = useMutation({
    mutationFn: () => rotateSecret(app.uuid, environment, hours),
    onSuccess: () => {
      setRotating(false);
      void refresh();
      void cache.refetch(app.uuid);
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeSecret(app.uuid, id),
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });
  const slug = environment.toLowerCase();
  const headingId = `client-secrets-${slug}`;
  const mayChange = app.permissions.update;

  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId} data-testid={`client-secrets-${slug}`}>
      <Title order={3} size="h5" id={headingId}>
        {environment === 'PRODUCTION' ? t('clientSecrets.headingProduction') : t('clientSecrets.heading')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('clientSecrets.intro')}
      </Text>
      <Table
        layout="auto"
        verticalSpacing="xs"
        aria-label={t('clientSecrets.listLabel', { environment })}
        data-testid={`secret-list-${slug}`}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('clientSecrets.created')}</Table.Th>
            <Table.Th scope="col">{t('clientSecrets.expires')}</Table.Th>
            <Table.Th scope="col">{t('clientSecrets.status')}</Table.Th>
            {mayChange && <Table.Th scope="col">{t('clientSecrets.actions')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {secrets.map((s) => {
            const created = formatDateTime(s.attributes.created);
            return (
              <Table.Tr key={s.id} data-testid="secret-row">
                <Table.Td>{created}</Table.Td>
                <Table.Td>
                  {s.attributes.expires ? formatDateTime(s.attributes.expires) : t('clientSecrets.noExpiry')}
                </Table.Td>
                <Table.Td>
                  {s.attributes.current
                    ? t('clientSecrets.current')
                    : s.attributes.expired
                      ? t('clientSecrets.expired')
                      : t('clientSecrets.active')}
                </Table.Td>
                {mayChange && (
                  <Table.Td>
                    {!s.attributes.current && (
                      <Button
                        size="compact-xs"
                        color="red"
                        variant="light"
                        aria-label={t('clientSecrets.revokeLabel', { created })}
                        onClick={() => {
                          revoke.reset();
                          setRevoking(s);
                        }}
                      >
                        {t('clientSecrets.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {rotate.isSuccess && (
        <NewSecret
          testId="rotated-secret"
          title={t('clientSecrets.newSecret')}
          secret={rotate.data.meta.secret}
        >
          <Text size="sm">
            {t('clientSecrets.rotated', { expires: formatDateTime(rotate.data.meta.previousExpires) })}
          </Text>
        </NewSecret>
      )}
      {revoke.isSuccess && (
        <Alert color="green" role="status">
          {t('clientSecrets.revoked')}
        </Alert>
      )}
      {mayChange && (
        <Group>
          <Button
            variant="default"
            onClick={() => {
              rotate.reset();
              setRotating(true);
            }}
          >
            {t('clientSecrets.rotate')}
          </Button>
        </Group>
      )}
      <Modal
        opened={rotating}
        onClose={() => setRotating(false)}
        title={t('clientSecrets.rotateTitle')}
        centered
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            rotate.mutate();
          }}
        >
          <Stack>
            <Text size="sm">{t('clientSecrets.rotateIntro')}</Text>
            <NativeSelect
              label={t('clientSecrets.gracePeriod')}
              value={String(hours)}
              onChange={(e) => setHours(Number(e.currentTarget.value))}
              data={GRACE_PERIOD_CHOICES.map((h) => ({
                value: String(h),
                label: t(`clientSecrets.graceHours.${h}` as MessageKey),
              }))}
              data-autofocus
            />
            {rotate.isError && (
              <Alert color="red" role="alert">
                {messageOf(rotate.error, t('errors.somethingWentWrong'))}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRotating(false)}>
                {t('clientSecrets.cancel')}
              </Button>
              <Button type="submit" loading={rotate.isPending}>
                {t('clientSecrets.rotateConfirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={t('clientSecrets.revokeTitle')}
        centered
      >
        <Stack>
          <Text>
            {t('clientSecrets.revokeConfirmText', {
              created: revoking ? formatDateTime(revoking.attributes.created) : '',
            })}
          </Text>
          {revoke.isError && (
            <Alert color="red" role="alert">
              {messageOf(revoke.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)} data-autofocus>
              {t('clientSecrets.cancel')}
            </Button>
            <Button
              color="red"
              loading={revoke.isPending}
              onClick={() => revoking && revoke.mutate(revoking.id)}
            >
              {t('clientSecrets.revokeConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Every environment that has a confidential client: its secrets, Rotate and Revoke. */
export function ClientSecrets({ app }: { app: Application }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: secretsKey(app.uuid), queryFn: () => fetchSecrets(app.uuid) });
  if (query.isPending) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('clientSecrets.loading')}
      </Text>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, t('clientSecrets.loadFailed'))}
      </Alert>
    );
  }
  const environments: Environment[] = ['DEVELOPMENT', 'PRODUCTION'];
  return (
    <>
      {environments.map((environment) => {
        const secrets = query.data.data.filter((s) => s.attributes.environment === environment);
        if (!secrets.length) return null;
        return <EnvironmentSecrets key={environment} app={app} environment={environment} secrets={secrets} />;
      })}
    </>
  );
}
