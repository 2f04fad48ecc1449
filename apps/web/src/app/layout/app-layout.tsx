import { Affix, Box, Group } from '@mantine/core';
import { documentationPageId } from '@portico/contracts/documentation-data';
import { lazy, Suspense, useLayoutEffect } from 'react';
import { useAppStore } from '../../lib/store';
import { useTranslation } from '../../lib/i18n';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../../components/error-boundary';
import { Loading } from '../../components/ui/loading';
import { CookiePopup } from '../../features/cookies/cookie-popup';
import { QuickstartButton, QuickstartHost } from '../../features/quickstart/quickstart-button';
import { BackToTop } from './back-to-top';
import { Footer } from './footer';
import { Header } from './header';
import classes from './layout.module.css';
import { SessionSync } from './session-sync';
import { FeatureMessages } from '../../lib/feature-messages-gate';
import { revealApp } from '../../lib/first-screen';
import { EmailVerificationNotice } from '../../features/auth/email-verification-notice';

// The terminal is for signed-in users only: its code is not part of the first page (spec B 2.14).
const TerminalLauncher = lazy(() =>
  import('../../features/terminal/terminal-launcher').then((m) => ({ default: m.TerminalLauncher })),
);

// Rarely needed: loaded only when the session expires.
const SessionExpiredModal = lazy(() => import('../../features/auth/session-expired-modal'));

/** The frame of every page: header, the page (lazy, behind an error boundary), footer, popups. */
export function AppLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const sessionExpired = useAppStore((s) => s.sessionExpired);
  const loggedIn = useAppStore((s) => s.applicationUser.isLoggedIn);
  // The server's first screen (decision 043) is the documentation page's; the page reveals the app
  // itself when it is ready, any other page at once.
  useLayoutEffect(() => {
    if (documentationPageId(pathname) === undefined) revealApp();
  }, [pathname]);
  return (
    <div className={classes.page}>
      <a href="#main" className="skip-link">
        {t('site.skipToContent')}
      </a>
      <SessionSync />
      <Header />
      {/* Signed-in users only: asks an account with an unproven address to confirm it. */}
      <EmailVerificationNotice />
      <Box component="main" id="main" className={classes.main} tabIndex={-1}>
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Box>
      <Footer />
      <BackToTop />
      {/* Quick Start and terminal (issue 15): small launchers; the tour and xterm.js load when opened. */}
      <Affix position={{ bottom: 24, left: 24 }} zIndex={190}>
        <Group gap="xs">
          <QuickstartButton />
          {loggedIn && (
            <FeatureMessages>
              <Suspense fallback={null}>
                <TerminalLauncher />
              </Suspense>
            </FeatureMessages>
          )}
        </Group>
      </Affix>
      <QuickstartHost />
      <CookiePopup />
      {sessionExpired && (
        <Suspense fallback={null}>
          <SessionExpiredModal />
        </Suspense>
      )}
    </div>
  );
}
