import { Alert, Button, Checkbox, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { COOKIE_SAVE_NOTICE_MS } from '@portico/contracts/constants';
import { PageTitle } from '../../components/ui/page-title';
import { useAppStore } from '../../lib/store';
import { deleteAnalyticsCookies, writeConsentCookie } from './consent-cookies';

/** /cookie-settings (spec B 2.7): technical cookies (mandatory) and analysis cookies (optional). */
export default function CookieSettingsPage() {
  const { t } = useTranslation();
  const stored = useAppStore((s) => s.cookies.cookiesEnabled.analytics);
  const setConsent = useAppStore((s) => s.setCookieConsent);
  const [analytics, setAnalytics] = useState(stored);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), COOKIE_SAVE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  function save() {
    const action = analytics ? 'accept' : 'dismiss';
    setConsent(action, analytics);
    writeConsentCookie(action);
    if (!analytics) deleteAnalyticsCookies();
    setSaved(true);
  }

  return (
    <Container size="md" py="xl">
      <PageTitle>{t('cookies.settingsTitle')}</PageTitle>
      <Stack gap="md">
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            {t('cookies.technicalTitle')}
          </Title>
          <Text size="sm" mb="sm">
            {t('cookies.technicalText')}
          </Text>
          <Checkbox label={t('cookies.technicalTitle')} checked disabled readOnly />
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            {t('cookies.analysisTitle')}
          </Title>
          <Text size="sm" mb="sm">
            {t('cookies.analysisText')}
          </Text>
          <Checkbox
            label={t('cookies.analyticsLabel')}
            checked={analytics}
            onChange={(e) => setAnalytics(e.currentTarget.checked)}
          />
        </Paper>
        <div>
          <Button onClick={save}>{t('cookies.save')}</Button>
        </div>
        {saved && (
          <Alert color="green" role="status">
            {t('cookies.saved')}
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
