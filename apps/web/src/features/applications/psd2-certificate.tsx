import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { Application } from '@portico/contracts/applications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  CertificateKind,
  CertificateListDocument,
  CertificateResource,
} from '@portico/contracts/certificates';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

const keys = {
  current: (app: string) => ['applications', app, 'psd2-certificate'] as const,
  list: (org: string) => ['organizations', org, 'certificates'] as const,
};

async function currentCertificate(app: string): Promise<CertificateResource | null> {
  const doc = await apiRequest<{ data: CertificateResource | null }>(
    `/api/applications/${encodeURIComponent(app)}/psd2-certificate`,
  );
  return doc.data;
}

async function saveCertificate(app: string, certificate: string | null): Promise<CertificateResource | null> {
  const doc = await apiRequest<{ data: CertificateResource | null }>(
    `/api/applications/${encodeURIComponent(app)}/psd2-certificate`,
    { method: 'PUT', body: { certificate }, format: 'json' },
  );
  return doc.data;
}

const listCertificates = (org: string) =>
  apiRequest<CertificateListDocument>(`/api/organizations/${encodeURIComponent(org)}/certificates`);

const kindKey = (kind: CertificateKind) =>
  kind === 'qwac' ? 'certificates.kindQwac' : 'certificates.kindQseal';

/**
 * The application's PSD2 certificate (issue 28): one of its organization's sandbox certificates,
 * whose roles limit the products it may subscribe to and its tokens' scopes. Members who may edit
 * the application choose it; the others see it.
 */
export default function Psd2Certificate({ app }: { app: Application }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: keys.current(app.uuid),
    queryFn: () => currentCertificate(app.uuid),
  });
  const list = useQuery({
    queryKey: keys.list(app.organizationId),
    queryFn: () => listCertificates(app.organizationId),
  });
  // The member's pick, until saved; null: the current certificate.
  const [picked, setPicked] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const currentId = current.data?.id ?? '';
  const choice = picked ?? currentId;
  const save = useMutation({
    mutationFn: () => saveCertificate(app.uuid, choice || null),
    onSuccess: (data) => {
      setSaved(true);
      setPicked(null);
      queryClient.setQueryData(keys.current(app.uuid), data);
      // Subscriptions and scopes depend on the roles.
      void queryClient.invalidateQueries({ queryKey: ['applications'] });
    },
  });
  const editable = app.permissions.update && app.applicationStatus !== 'PRODUCTION';
  if (current.isPending) return <Loading />;
  const active = (list.data?.data ?? []).filter(
    (c) => c.attributes.status === 'active' || c.id === current.data?.id,
  );
  const option = (c: CertificateResource) =>
    t('certificates.appCertificateOption', {
      kind: t(kindKey(c.attributes.kind)),
      subject: c.attributes.subject,
      roles: c.attributes.roles.join(', '),
      serial: c.attributes.serial,
    });
  return (
    <Stack
      gap={4}
      component="section"
      aria-labelledby="psd2-certificate-title"
      data-testid="psd2-certificate"
    >
      <Title order={3} size="h5" id="psd2-certificate-title">
        {t('certificates.appCertificateTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('certificates.appCertificateIntro')}
      </Text>
      {current.data && current.data.attributes.status === 'active' && (
        <Text size="sm">
          {t('certificates.appCertificateHolds', { roles: current.data.attributes.roles.join(', ') })}
        </Text>
      )}
      {editable ? (
        <Stack gap="xs">
          <NativeSelect
            label={t('certificates.appCertificateLabel')}
            value={choice}
            onChange={(e) => {
              setSaved(false);
              save.reset();
              setPicked(e.currentTarget.value);
            }}
            data={[
              { value: '', label: t('certificates.appCertificateNone') },
              ...active.map((c) => ({ value: c.id, label: option(c) })),
            ]}
          />
          <Group gap="sm">
            <Button
              size="compact-sm"
              onClick={() => save.mutate()}
              loading={save.isPending}
              disabled={choice === currentId}
            >
              {t('certificates.appCertificateSave')}
            </Button>
            <Anchor component={Link} to={paths.organizationCertificates(app.organizationId)} size="sm">
              {t('certificates.appCertificateManage')}
            </Anchor>
          </Group>
          {save.isError && (
            <Alert color="red" role="alert">
              {messageOf(save.error, t('certificates.genericError'))}
            </Alert>
          )}
          {saved && !save.isPending && (
            <Text size="sm" role="status">
              {t('certificates.appCertificateSaved')}
            </Text>
          )}
        </Stack>
      ) : (
        <Text size="sm">{current.data ? option(current.data) : t('certificates.appCertificateNone')}</Text>
      )}
    </Stack>
  );
}
