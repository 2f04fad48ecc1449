import { Button, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from '../lib/i18n';
import { Link } from 'react-router';

/**
 * The 404 page (spec B 2.1): '404 NOT FOUND', 'We were not able to find this page.' and the
 * meta marker `status-code` 404 that crawlers and tests read. The server answers such paths with
 * status 404 as well (contracts/web-routes.ts), except app routes whose data turns out missing.
 */
export function NotFound() {
  const { t } = useTranslation();
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'status-code';
    meta.content = '404';
    document.head.appendChild(meta);
    const title = document.title;
    document.title = `${t('errors.notFoundTitle')} | ${t('site.title')}`;
    return () => {
      meta.remove();
      document.title = title;
    };
  }, [t]);
  return (
    <Stack align="center" py={80} gap="md">
      <Title order={1}>{t('errors.notFoundTitle')}</Title>
      <Text>{t('errors.notFoundText')}</Text>
      <Button component={Link} to="/" variant="default">
        {t('errors.goHome')}
      </Button>
    </Stack>
  );
}
