import { Alert, Button, Stack, Text, Typography } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { Loading } from '../ui/loading';
import { authenticate, exportHtml, storedToken, useCloudDocsConfig } from './cloud-docs';

/**
 * A cloud document (spec B 1, 2.8, 7): 'AUTHENTICATE WITH GOOGLE' signs in with Google's OAuth 2
 * token flow, then the document is exported as HTML through the Drive API with the bearer token.
 * A failure shows the first error message of the answer in place of the content; without
 * configuration the viewer says that cloud documents are not set up.
 */
export function CloudDocument({ fileId }: { fileId: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const config = useCloudDocsConfig();
  const [token] = useState(storedToken);
  const enabled = config.data?.enabled === true;
  const doc = useQuery({
    queryKey: ['cloud-doc', fileId, token],
    queryFn: () => exportHtml(config.data?.enabled ? config.data.apiUrl : '', fileId, token!),
    enabled: enabled && Boolean(token),
    retry: false,
  });
  const html = useMemo(
    () => (doc.data ? DOMPurify.sanitize(doc.data, { USE_PROFILES: { html: true } }) : ''),
    [doc.data],
  );

  if (config.isPending) return <Loading />;
  if (!config.data?.enabled) {
    return (
      <Alert color="yellow" title={t('content.cloudDocTitle')} data-testid="cloud-doc-not-configured">
        {t('content.cloudDocsNotConfigured')}
      </Alert>
    );
  }
  const cfg = config.data;
  return (
    <Stack gap="md" data-testid="cloud-document">
      {!token && <Text>{t('content.cloudDocSignIn')}</Text>}
      <div>
        <Button
          leftSection={<IconBrandGoogle size={16} aria-hidden />}
          variant={token ? 'light' : 'filled'}
          onClick={() => authenticate(cfg, location.pathname + location.search)}
        >
          {t('content.authenticateWithGoogle')}
        </Button>
      </div>
      {doc.isLoading && <Text c="dimmed">{t('content.loadingDocument')}</Text>}
      {doc.isError && (
        <Alert color="red" role="alert" data-testid="cloud-doc-error">
          {doc.error.message || t('content.cloudDocFailed')}
        </Alert>
      )}
      {doc.data !== undefined && (
        <Typography data-testid="cloud-doc-content" dangerouslySetInnerHTML={{ __html: html }} />
      )}
    </Stack>
  );
}
