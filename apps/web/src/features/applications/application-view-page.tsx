import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Grid,
  Group,
  List,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { Application } from '@portico/contracts/applications';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useParams } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ClientAuthSummary } from './client-auth-fields';
import { Credentials } from './credentials';
import { DeleteApplication } from './delete-application';
import { GoLiveButton } from './go-live-button';
import { LoadFailed, MissingOrganization } from './page-states';
import { useAnalyticsEnabled, useApplication, useOrganizationParam } from './queries';
import { Subscriptions } from './subscriptions';

const AnalyticsSection = lazy(() => import('./analytics-section'));
// The provider's notices about changes to APIs the application calls: their own chunk.
const ApplicationNotices = lazy(() => import('./application-notices'));
const TokenSecuritySection = lazy(() => import('./token-security'));
// The application's PSD2 certificate (issue 28): its own chunk.
const Psd2Certificate = lazy(() => import('./psd2-certificate'));

/** /application/:applicationId?organization=: the application view (spec A 2). */
export default function ApplicationViewPage() {
  return (
    <RequireLogin>
      <ApplicationView />
    </RequireLogin>
  );
}

function ApplicationView() {
  const { applicationId = '' } = useParams();
  const organization = useOrganizationParam();
  const query = useApplication(applicationId, organization);
  const production = query.data?.applicationStatus === 'PRODUCTION';
  // Spec A 2: analytics only when enabled and the application is in production.
  const analytics = useAnalyticsEnabled(production && Boolean(query.data?.permissions.viewAnalytics));
  if (!organization) return <MissingOrganization />;
  if (query.isPending) return <Loading />;
  if (query.isError) return <LoadFailed error={query.error} />;
  const app = query.data;
  return (
    <Container size="xl" py="xl">
      <Suspense fallback={null}>
        <ApplicationNotices applicationId={app.uuid} />
      </Suspense>
      <Details app={app} organization={organization} />
      <Suspense fallback={null}>
        <TokenSecuritySection app={app} />
      </Suspense>
      {production && app.permissions.viewAnalytics && analytics.data === true && (
        <Suspense fallback={<Loading />}>
          <AnalyticsSection app={app} />
        </Suspense>
      )}
    </Container>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {label}
      </Title>
      {children}
    </Stack>
  );
}

function UriList({ uris }: { uris: string[] }) {
  const { t } = useTranslation();
  if (!uris.length)
    return (
      <Text size="sm" c="dimmed">
        {t('applications.ui.none')}
      </Text>
    );
  return (
    <List size="sm" spacing={2}>
      {uris.map((u) => (
        <List.Item key={u} style={{ wordBreak: 'break-all' }}>
          {u}
        </List.Item>
      ))}
    </List>
  );
}

/** The software statement for dynamic client registration (issue 28): a plain download. */
function Registration({ app }: { app: Application }) {
  const { t } = useTranslation();
  const endpoint = `${window.location.origin}/oauth/reg`;
  return (
    <Field label={t('applications.ui.registration')}>
      <Text size="sm">{t('applications.ui.registrationHelp', { endpoint })}</Text>
      <Group>
        <Button
          component="a"
          href={`/api/application/${app.uuid}/software-statement`}
          download
          variant="default"
          size="sm"
        >
          {t('applications.ui.downloadStatement')}
        </Button>
      </Group>
    </Field>
  );
}

function Details({ app, organization }: { app: Application; organization: string }) {
  const { t } = useTranslation();
  const production = app.applicationStatus === 'PRODUCTION';
  const grantLabels = {
    authorization_code: t('applications.ui.authorizationCode'),
    client_credentials: t('applications.ui.clientCredentials'),
  };
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Anchor component={Link} to={paths.organization(app.organizationId)} size="sm">
            {t('applications.ui.allApps')}
          </Anchor>
          <Group gap="sm" align="center">
            <PageTitle mb={0}>{app.title}</PageTitle>
            <Badge color={production ? 'green' : 'blue'} size="lg" data-testid="application-status">
              {app.applicationStatus}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {app.organization.title}
          </Text>
        </Stack>
        <Group gap="xs">
          {app.permissions.update && !production && (
            <Button
              component={Link}
              to={`/application/${app.uuid}/edit?organization=${encodeURIComponent(organization)}`}
              variant="default"
            >
              {t('applications.ui.edit')}
            </Button>
          )}
          {app.permissions.delete && <DeleteApplication app={app} />}
          {app.permissions.goLive && !production && <GoLiveButton app={app} organization={organization} />}
        </Group>
      </Group>
      {app.goLive.status === 'pending' && (
        <Alert color="yellow" role="status" data-testid="go-live-banner">
          {t('applications.goLiveBanner')}
        </Alert>
      )}
      {app.goLive.status === 'rejected' && app.goLive.reason && (
        <Alert color="red" data-testid="go-live-rejected">
          {t('applications.ui.goLiveRejected', { reason: app.goLive.reason })}
        </Alert>
      )}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 2, md: 1 }}>
          <Subscriptions app={app} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 1, md: 2 }}>
          <Stack gap="md">
            <Field label={t('applications.ui.status')}>
              <Text size="sm">{app.applicationStatus}</Text>
            </Field>
            <Field label={t('applications.ui.description')}>
              <HtmlContent html={app.descriptionProcessed || app.description} />
            </Field>
            <Field label={t('applications.ui.grantTypes')}>
              <List size="sm">
                {app.allowedGrantTypes.map((g) => (
                  <List.Item key={g}>{grantLabels[g]}</List.Item>
                ))}
              </List>
            </Field>
            <Field label={t('applications.ui.redirectUris')}>
              <UriList uris={app.oauthRedirectUri} />
            </Field>
            <Field label={t('applications.ui.postLogoutRedirectUris')}>
              <UriList uris={app.postLogoutRedirectUri} />
            </Field>
            <ClientAuthSummary auth={app.clientAuthentication} />
            <Credentials app={app} />
            {app.permissions.update && app.permissions.goLive && <Registration app={app} />}
            <Suspense fallback={<Loading />}>
              <Psd2Certificate app={app} />
            </Suspense>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
