import { Alert, Anchor, Badge, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { ApiDraft } from '@portico/contracts/api-drafts';
import { hasProviderRole } from '@portico/contracts/provider-roles';
import { IconEye } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { RequireLogin } from '../../components/require-login';
import { preloadMarkdown } from '../../components/ui/markdown';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { ApiError, apiRequest, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useUser } from '../../lib/store';
import { draftSource } from './api-documentation';
import { ApiReference } from './reference/api-reference';

/**
 * /admin/apis/:alias/drafts/:draftId/preview (issue 27): a draft's documentation before it is
 * published, rendered by the documentation page's own reference (ApiReference) from the draft's
 * answers (`draftSource`: the published reference's answers, made by the server from the draft).
 * API managers and administrators only (the server refuses everyone else); marked as a preview,
 * never indexed. What works only against the published version (try-out, tour) is left out.
 */
export default function DraftPreviewPage() {
  return (
    <RequireLogin>
      <ManagersOnly />
    </RequireLogin>
  );
}

function ManagersOnly() {
  const { t } = useTranslation();
  const user = useUser();
  useNoIndex();
  if (!hasProviderRole(user.providerRoles, ['api_manager'])) {
    return (
      <Stack align="center" py={60} data-testid="console-refused">
        <Title order={1}>{t('errors.unauthorized')}</Title>
        <Text>{t('console.apis.managersOnly')}</Text>
      </Stack>
    );
  }
  return <DraftPreview />;
}

/** A `robots` meta tag saying noindex while the page is shown (the server's answers say it too). */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.appendChild(meta);
    return () => meta.remove();
  }, []);
}

function DraftPreview() {
  const { t } = useTranslation();
  const { alias = '', draftId = '' } = useParams();
  const draft = useQuery({
    queryKey: ['console-apis', 'draft', alias, draftId],
    queryFn: async () =>
      (
        await apiRequest<{ data: ApiDraft }>(
          `/admin-api/catalog/apis/${encodeURIComponent(alias)}/drafts/${encodeURIComponent(draftId)}`,
          { format: 'json' },
        )
      ).data,
  });
  const source = useMemo(() => draftSource(alias, draftId), [alias, draftId]);
  // The reference's descriptions are Markdown: its renderer (own chunk) loads beside the data.
  useEffect(() => void preloadMarkdown().catch(() => undefined), []);

  if (draft.error instanceof ApiError && draft.error.status === 404) return <NotFound />;
  if (draft.isError) {
    return (
      <Container size="xl" py="xl">
        <Alert color="red" role="alert">
          {messageOf(draft.error, t('errors.somethingWentWrong'))}
        </Alert>
      </Container>
    );
  }
  const d = draft.data;
  const version = d?.toVersion ?? '';
  const title = d?.title ?? alias;
  return (
    <Container size="xl" py="xl">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconEye size={20} aria-hidden="true" />}
        title={t('console.apis.previewBannerTitle')}
        mb="lg"
        data-testid="preview-banner"
      >
        <Text size="sm">
          {d?.status === 'published'
            ? t('console.apis.previewBannerPublished')
            : t('console.apis.previewBanner', { version, title })}
        </Text>
        <Anchor component={Link} to={paths.adminApis} size="sm">
          {t('console.apis.back')}
        </Anchor>
      </Alert>
      <Stack gap="xs" mb="xl">
        <Group gap="sm" align="center">
          <PageTitle mb={0}>{t('console.apis.previewPageTitle', { title, version })}</PageTitle>
          <Badge color="yellow" variant="filled" c="dark.9" size="lg">
            {t('console.apis.previewBannerTitle')}
          </Badge>
        </Group>
        {version && <Text c="dimmed">{t('products.version', { version })}</Text>}
      </Stack>
      <ApiReference alias={alias} source={source} />
    </Container>
  );
}
