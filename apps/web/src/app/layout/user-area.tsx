import { Anchor, Button, Group, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { loadConsoleMessages, useTranslation } from '../../lib/i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { loginPath, paths } from '../../config/paths';
import { logout } from '../../lib/session';
import { useUser } from '../../lib/store';
import { FeatureMessages } from '../../lib/feature-messages-gate';

// The provider's team (any provider role, issue 27): loaded after sign-in, not on the first page.
// The console's navigation leads to the import, the support queue and the other sections. Its
// words are the console's namespace's (lib/i18n.ts), which come with it.
const ConsoleLink = lazy(() =>
  Promise.all([import('../../features/console/console-link'), loadConsoleMessages()]).then(([m]) => m),
);

/** 'Welcome name', My Profile and Sign Out; LOGIN and SIGN UP for visitors (spec B 2.14). */
export function UserArea() {
  const { t } = useTranslation();
  const user = useUser();
  const location = useLocation();
  const navigate = useNavigate();
  const here = location.pathname + location.search;

  if (user.isLoggedIn) {
    return (
      <Group gap="md" wrap="nowrap">
        <Text size="sm" fw={600}>
          {t('user.welcome', { name: user.name ?? '' })}
        </Text>
        <Anchor component={Link} to={paths.profile} size="sm">
          {t('user.myProfile')}
        </Anchor>
        <FeatureMessages>
          <Suspense fallback={null}>{user.providerRoles.length > 0 && <ConsoleLink />}</Suspense>
        </FeatureMessages>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => {
            void logout().finally(() => navigate(paths.home));
          }}
        >
          {t('user.signOut')}
        </Button>
      </Group>
    );
  }
  const returnTo = here.startsWith(paths.login) || here.startsWith(paths.loginCallback) ? '/' : here;
  return (
    <Group gap="xs" wrap="nowrap">
      <Button component={Link} to={loginPath(returnTo)} variant="subtle" size="compact-sm">
        {t('user.login')}
      </Button>
      <Button component={Link} to={loginPath(returnTo, 'signup')} size="compact-sm">
        {t('user.signUp')}
      </Button>
    </Group>
  );
}
