import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { langOf } from '../../components/content/translation';
import { useCookiesConsent } from '../../lib/site-content';
import { useAppStore } from '../../lib/store';
import { deleteAnalyticsCookies, writeConsentCookie } from './consent-cookies';
import classes from './cookie-popup.module.css';

/**
 * The cookie popup (spec B 2.7, 4): shown until the visitor answers. OK stores analytics as the
 * checkbox says; Decline stores false. Either way analytics cookies go when analytics is off.
 */
export function CookiePopup() {
  const { t } = useTranslation();
  const action = useAppStore((s) => s.cookies.cookiesConsentAction);
  const setConsent = useAppStore((s) => s.setCookieConsent);
  const consent = useCookiesConsent().data;
  const [analytics, setAnalytics] = useState(false);
  // The provider's texts in the page's language, or marked as the default language's (decision 064).
  const lang = langOf(consent?.translation);
  const { pathname } = useLocation();
  // The settings page is itself the answer; the popup would only cover it.
  if (action || pathname === paths.cookieSettings) return null;

  function answer(choice: 'accept' | 'dismiss') {
    const enabled = choice === 'accept' && analytics;
    setConsent(choice, enabled);
    writeConsentCookie(choice, consent?.expiryDays);
    if (!enabled) deleteAnalyticsCookies();
  }

  return (
    <Paper
      role="dialog"
      aria-label={t('cookies.settingsTitle')}
      shadow="xl"
      p="md"
      withBorder
      style={{
        position: 'fixed',
        bottom: 16,
        left: 16,
        right: 16,
        zIndex: 300,
        maxWidth: 720,
        margin: '0 auto',
      }}
    >
      <Text size="sm" mb="xs">
        <span lang={lang}>{consent?.popup.body ?? t('cookies.popupBody')}</span>{' '}
        <Anchor component={Link} to="/page/privacy" size="sm">
          {t('cookies.privacyLink')}
        </Anchor>{' '}
        ·{' '}
        <Anchor component={Link} to={paths.cookieSettings} size="sm">
          {t('cookies.settingsLink')}
        </Anchor>
      </Text>
      {/* A native checkbox: Mantine's brings its group and card variants into every first page. */}
      <label className={classes.check}>
        <input type="checkbox" checked={analytics} onChange={(e) => setAnalytics(e.currentTarget.checked)} />
        <Text component="span" size="sm" lang={lang}>
          {consent?.labelCheckBox ?? t('cookies.analyticsLabel')}
        </Text>
      </label>
      <Group justify="flex-end" gap="xs" lang={lang}>
        <Button variant="default" onClick={() => answer('dismiss')}>
          {consent?.popup.dismiss ?? t('cookies.decline')}
        </Button>
        <Button onClick={() => answer('accept')}>{consent?.popup.accept ?? t('cookies.ok')}</Button>
      </Group>
    </Paper>
  );
}
