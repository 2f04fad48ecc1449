import { Alert, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { ApplicationNotice } from '@portico/contracts/api-drafts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/**
 * The notices the API provider sent about breaking changes to operations this application called
 * (issue 27): shown above the application's details, nothing when there are none. A chunk of its
 * own, loaded with the application page, so the first page does not grow.
 */
export default function ApplicationNotices({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: ['application-notices', applicationId],
    queryFn: () =>
      apiRequest<{ data: ApplicationNotice[] }>(
        `/api/applications/${encodeURIComponent(applicationId)}/notices`,
      ),
  });
  const notices = query.data?.data ?? [];
  if (!notices.length) return null;
  return (
    <Stack component="section" aria-labelledby="application-notices-title" gap="sm" mb="lg">
      <Title order={2} size="h4" id="application-notices-title">
        {t('applicationNotices.title')}
      </Title>
      {notices.map((n) => (
        <Alert
          key={n.id}
          color="yellow"
          title={t('applicationNotices.from', { api: n.apiTitle, date: n.createdAt.slice(0, 10) })}
          data-testid="application-notice"
        >
          <Stack gap={4}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {n.text}
            </Text>
            <Group gap={4}>
              <Text size="sm">{t('applicationNotices.endpoints')}</Text>
              {n.endpoints.map((e) => (
                <Code key={e}>{e}</Code>
              ))}
            </Group>
          </Stack>
        </Alert>
      ))}
    </Stack>
  );
}
