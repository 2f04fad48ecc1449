import { Button, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { Link, useLocation } from 'react-router';
import { SITE_ROLES } from '@portico/contracts/constants';
import { loginPath } from '../config/paths';
import { useUser } from '../lib/store';
import { RevealApp } from '../lib/first-screen';

/**
 * The route guard of spec B 2.1: only the site roles user and anonymous pass; a page that needs
 * a signed-in user shows UNAUTHORIZED with a 'LOGIN TO VIEW' link back to this very path.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const user = useUser();
  if (!user.roles.every((r) => (SITE_ROLES as readonly string[]).includes(r))) return <NotAllowed />;
  if (!user.isLoggedIn) return <LoginToView />;
  return children;
}

/**
 * The provider's admin pages: a signed-in user who is not an administrator sees UNAUTHORIZED with
 * `message` (what the page is for), visitors the 'LOGIN TO VIEW' of RequireLogin.
 */
export function RequireAdmin({ children, message }: { children: ReactNode; message?: string }) {
  return (
    <RequireLogin>
      <AdminOnly message={message}>{children}</AdminOnly>
    </RequireLogin>
  );
}

function AdminOnly({ children, message }: { children: ReactNode; message?: string }) {
  const { t } = useTranslation();
  const user = useUser();
  if (user.isAdmin) return children;
  return (
    <Stack align="center" py={60} data-testid="admin-only">
      <Title order={1}>{t('errors.unauthorized')}</Title>
      <Text>{message ?? t('errors.notAllowed')}</Text>
    </Stack>
  );
}

/** Pages open to everyone still refuse unknown roles. */
export function RoleGuard({ children }: { children: ReactNode }) {
  const user = useUser();
  if (!user.roles.every((r) => (SITE_ROLES as readonly string[]).includes(r))) return <NotAllowed />;
  return children;
}

export function LoginToView() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Stack align="center" py={60} gap="md" data-testid="login-to-view">
      <Title order={1}>{t('errors.unauthorized')}</Title>
      <Text>{t('errors.onlyMembers')}</Text>
      <Button component={Link} to={loginPath(location.pathname + location.search)}>
        {t('errors.loginToView')}
      </Button>
    </Stack>
  );
}

function NotAllowed() {
  const { t } = useTranslation();
  return (
    <Stack align="center" py={60}>
      <RevealApp />
      <Title order={1}>{t('errors.unauthorized')}</Title>
      <Text>{t('errors.notAllowed')}</Text>
    </Stack>
  );
}
