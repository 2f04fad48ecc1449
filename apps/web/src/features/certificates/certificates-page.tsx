import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  Container,
  FileButton,
  Group,
  Modal,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import {
  PSD2_ROLES,
  SANDBOX_NCA,
  type CertificateKind,
  type CertificateListDocument,
  type CertificateResource,
} from '@portico/contracts/certificates';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDate } from '../../lib/text';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import {
  certificateKeys,
  downloadText,
  issueCertificate,
  kindKey,
  listCertificates,
  revokeCertificate,
} from './api';

/** A certificate's day (UTC), as the page's language writes dates (lib/text.ts). */
const day = (iso: string) => formatDate(iso);

/** /organization/:organizationId/certificates: the organization's sandbox test certificates (issue 28). */
export default function CertificatesPage() {
  return (
    <RequireLogin>
      <Certificates />
    </RequireLogin>
  );
}

function Certificates() {
  const { t } = useTranslation();
  const { organizationId = '' } = useParams();
  const list = useQuery({
    queryKey: certificateKeys.list(organizationId),
    queryFn: () => listCertificates(organizationId),
  });
  if (list.isPending) return <Loading />;
  if (list.error instanceof ApiError && list.error.status === 404) return <NotFound />;
  if (list.isError)
    return (
      <Container size="lg" py="xl">
        <Alert color="red" role="alert">
          {messageOf(list.error, t('certificates.genericError'))}
        </Alert>
      </Container>
    );
  return <CertificatesBody document={list.data} />;
}

function CertificatesBody({ document }: { document: CertificateListDocument }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const organization = document.meta.organization;
  const orgId = organization.id;
  const [notice, setNotice] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<CertificateResource | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: certificateKeys.list(orgId) });
  const revoke = useMutation({
    mutationFn: (c: CertificateResource) => revokeCertificate(orgId, c.id),
    onSuccess: (c) => {
      setConfirm(null);
      setNotice(t('certificates.revoked', { serial: c.attributes.serial }));
      void refresh();
    },
  });
  const { ca } = document.meta;

  return (
    <Container size="lg" py="xl">
      <PageBreadcrumbs
        items={[
          { title: t('organizations.breadcrumbOrganizations'), to: paths.organizations },
          { title: organization.label, to: paths.organization(orgId) },
          { title: t('certificates.title') },
        ]}
      />
      <PageTitle>{t('certificates.title')}</PageTitle>
      <Stack gap="xl">
        <Text>{t('certificates.intro')}</Text>
        <Paper withBorder p="md" component="section" aria-labelledby="sandbox-ca-title">
          <Stack gap="xs">
            <Title order={2} size="h3" id="sandbox-ca-title">
              {t('certificates.caTitle')}
            </Title>
            <Alert color="yellow" data-testid="sandbox-ca-warning">
              {t('certificates.caWarning')}
            </Alert>
            <Text size="sm">{t('certificates.caSubject', { subject: ca.subject })}</Text>
            <Text size="sm">{t('certificates.caValidUntil', { date: day(ca.notAfter) })}</Text>
            <Group>
              <Button variant="default" onClick={() => downloadText('portico-sandbox-ca.pem', ca.pem)}>
                {t('certificates.caDownload')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        {notice && (
          <Alert
            color="green"
            role="status"
            withCloseButton
            closeButtonLabel={t('certificates.closeNotice')}
            onClose={() => setNotice(null)}
          >
            {notice}
          </Alert>
        )}
        <CertificateList
          certificates={document.data}
          canIssue={document.meta.canIssue}
          onRevoke={(c) => {
            revoke.reset();
            setConfirm(c);
          }}
        />
        {document.meta.canIssue ? (
          <IssueForm organization={organization} onIssued={(text) => setNotice(text)} />
        ) : (
          <Alert color="gray">{t('certificates.ownersOnly')}</Alert>
        )}
        <Anchor component={Link} to={paths.organization(orgId)} size="sm">
          {t('certificates.backToOrganization')}
        </Anchor>
      </Stack>
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('certificates.revoke')}
        centered
      >
        {confirm && (
          <Stack>
            <Text>{t('certificates.revokeConfirm', { serial: confirm.attributes.serial })}</Text>
            {revoke.isError && (
              <Alert color="red" role="alert">
                {messageOf(revoke.error, t('certificates.genericError'))}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirm(null)}>
                {t('certificates.cancel')}
              </Button>
              <Button color="red" loading={revoke.isPending} onClick={() => revoke.mutate(confirm)}>
                {t('certificates.revoke')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Container>
  );
}

function CertificateList({
  certificates,
  canIssue,
  onRevoke,
}: {
  certificates: CertificateResource[];
  canIssue: boolean;
  onRevoke: (c: CertificateResource) => void;
}) {
  const { t } = useTranslation();
  const status = (c: CertificateResource) =>
    c.attributes.status === 'revoked'
      ? t('certificates.statusRevoked', { date: day(c.attributes.revokedAt ?? '') })
      : c.attributes.status === 'expired'
        ? t('certificates.statusExpired')
        : t('certificates.statusActive');
  return (
    <Stack gap="sm" component="section" aria-labelledby="certificates-list-title">
      <Title order={2} size="h3" id="certificates-list-title">
        {t('certificates.listTitle')}
      </Title>
      {!certificates.length ? (
        <Text c="dimmed">{t('certificates.listEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped data-testid="certificates-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('certificates.columnKind')}</Table.Th>
                <Table.Th>{t('certificates.columnSubject')}</Table.Th>
                <Table.Th>{t('certificates.columnRoles')}</Table.Th>
                <Table.Th>{t('certificates.columnSerial')}</Table.Th>
                <Table.Th>{t('certificates.columnValidUntil')}</Table.Th>
                <Table.Th>{t('certificates.columnStatus')}</Table.Th>
                <Table.Th>{t('certificates.columnActions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {certificates.map((c) => {
                const a = c.attributes;
                return (
                  <Table.Tr key={c.id}>
                    <Table.Td>{t(kindKey(a.kind))}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>{a.subject}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {a.roles.map((r) => (
                          <Badge key={r} variant="light">
                            {r}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Code>{a.serial}</Code>
                    </Table.Td>
                    <Table.Td>{day(a.notAfter)}</Table.Td>
                    <Table.Td>{status(c)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="light"
                          aria-label={t('certificates.downloadLabel', { serial: a.serial })}
                          onClick={() => downloadText(`${a.kind}-${a.serial}.pem`, a.pem)}
                        >
                          {t('certificates.download')}
                        </Button>
                        {canIssue && a.status === 'active' && (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            aria-label={t('certificates.revokeLabel', { serial: a.serial })}
                            onClick={() => onRevoke(c)}
                          >
                            {t('certificates.revoke')}
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
    </Stack>
  );
}

function IssueForm({
  organization,
  onIssued,
}: {
  organization: { id: string; label: string };
  onIssued: (notice: string) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = organization.id;
  const [kind, setKind] = useState<CertificateKind>('qwac');
  const [roles, setRoles] = useState<string[]>(['PSP_AI']);
  const [source, setSource] = useState<'browser' | 'csr'>('browser');
  const [commonName, setCommonName] = useState('');
  const [csr, setCsr] = useState('');
  const [ncaName, setNcaName] = useState<string>(SANDBOX_NCA.name);
  const [ncaId, setNcaId] = useState<string>(SANDBOX_NCA.id);
  const [nameError, setNameError] = useState<string | null>(null);
  const [privateKey, setPrivateKey] = useState<{ pem: string; serial: string } | null>(null);

  const issue = useMutation({
    mutationFn: async () => {
      let request = csr;
      let keyPem: string | null = null;
      if (source === 'browser') {
        if (!globalThis.crypto?.subtle) throw new Error(t('certificates.browserNoCrypto'));
        const { generateKeyAndCsr } = await import('./browser-key');
        const made = await generateKeyAndCsr(commonName.trim(), organization.label);
        request = made.csr;
        keyPem = made.privateKeyPem;
      }
      const issued = await issueCertificate(orgId, {
        kind,
        roles,
        csr: request,
        ...(source === 'browser' ? { commonName: commonName.trim() } : {}),
        ncaName,
        ncaId,
      });
      return { issued, keyPem };
    },
    onSuccess: ({ issued, keyPem }) => {
      const serial = issued.attributes.serial;
      setPrivateKey(keyPem ? { pem: keyPem, serial } : null);
      setCsr('');
      onIssued(t('certificates.issued', { serial }));
      void queryClient.invalidateQueries({ queryKey: certificateKeys.list(orgId) });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (source === 'browser' && !commonName.trim()) {
      setNameError(t('certificates.commonNameRequired'));
      return;
    }
    setNameError(null);
    setPrivateKey(null);
    issue.mutate();
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="issue-certificate-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="issue-certificate-title">
            {t('certificates.issueTitle')}
          </Title>
          <Radio.Group
            label={t('certificates.kindLabel')}
            value={kind}
            onChange={(v) => setKind(v === 'qseal' ? 'qseal' : 'qwac')}
          >
            <Group mt="xs">
              <Radio value="qwac" label={t('certificates.kindQwac')} />
              <Radio value="qseal" label={t('certificates.kindQseal')} />
            </Group>
          </Radio.Group>
          <Checkbox.Group label={t('certificates.rolesLabel')} value={roles} onChange={setRoles}>
            <Group mt="xs">
              {PSD2_ROLES.map((r) => (
                <Checkbox key={r} value={r} label={r} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group grow align="flex-start">
            <TextInput
              label={t('certificates.ncaNameLabel')}
              value={ncaName}
              onChange={(e) => setNcaName(e.currentTarget.value)}
            />
            <TextInput
              label={t('certificates.ncaIdLabel')}
              value={ncaId}
              onChange={(e) => setNcaId(e.currentTarget.value)}
            />
          </Group>
          <Radio.Group
            label={t('certificates.keySourceLabel')}
            value={source}
            onChange={(v) => setSource(v === 'csr' ? 'csr' : 'browser')}
          >
            <Stack mt="xs" gap="xs">
              <Radio value="browser" label={t('certificates.keyBrowser')} />
              <Radio value="csr" label={t('certificates.keyCsr')} />
            </Stack>
          </Radio.Group>
          {source === 'browser' ? (
            <>
              <Text size="sm" c="dimmed">
                {t('certificates.keyBrowserHelp')}
              </Text>
              <TextInput
                label={t('certificates.commonNameLabel')}
                description={t('certificates.commonNameHelp')}
                value={commonName}
                maxLength={64}
                error={nameError}
                onChange={(e) => setCommonName(e.currentTarget.value)}
                required
              />
            </>
          ) : (
            <Stack gap="xs">
              <Textarea
                label={t('certificates.csrLabel')}
                description={t('certificates.csrHelp')}
                value={csr}
                onChange={(e) => setCsr(e.currentTarget.value)}
                autosize
                minRows={6}
                styles={{ input: { fontFamily: 'monospace' } }}
                required
              />
              <Group>
                <FileButton
                  onChange={(file) => {
                    if (file) void file.text().then(setCsr);
                  }}
                  accept=".csr,.pem,.req,.txt,application/pkcs10"
                >
                  {(props) => (
                    <Button size="xs" variant="default" {...props}>
                      {t('certificates.csrFile')}
                    </Button>
                  )}
                </FileButton>
              </Group>
            </Stack>
          )}
          {issue.isError && (
            <Alert color="red" role="alert">
              {issue.error instanceof ApiError
                ? messageOf(issue.error, t('certificates.genericError'))
                : issue.error.message || t('certificates.genericError')}
            </Alert>
          )}
          {privateKey && (
            <Alert color="yellow" role="status" title={t('certificates.keyWarning')}>
              <Button
                mt="xs"
                onClick={() => downloadText(`private-key-${privateKey.serial}.pem`, privateKey.pem)}
              >
                {t('certificates.downloadKey')}
              </Button>
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={issue.isPending}>
              {t('certificates.issueButton')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
