import { Box, Group, NavLink, Stack, Text, Title } from '@mantine/core';
import { hasProviderRole, type ProviderRole } from '@portico/contracts/provider-roles';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { PageTitle } from '../../components/ui/page-title';
import { useTranslation } from '../../lib/i18n';
import { useUser } from '../../lib/store';
import { CONSOLE_SECTIONS } from './sections';

/**
 * A page of the provider console: the console's navigation (only the sections the user's roles
 * may use) beside the page. Visitors see 'LOGIN TO VIEW'; a signed-in user without one of `roles`
 * sees UNAUTHORIZED and which roles the page is for. The server checks the roles again on every
 * call: this only spares the user a page of refusals.
 */
export function ConsolePage({
  roles,
  title,
  children,
}: {
  /** Who may use the page (an administrator always may). */
  roles: ProviderRole | readonly ProviderRole[];
  title: string;
  children: ReactNode;
}) {
  return (
    <RequireLogin>
      <ConsoleFrame roles={typeof roles === 'string' ? [roles] : roles} title={title}>
        {children}
      </ConsoleFrame>
    </RequireLogin>
  );
}

function ConsoleFrame({
  roles,
  title,
  children,
}: {
  roles: readonly ProviderRole[];
  title: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const user = useUser();
  const location = useLocation();
  const mine = user.providerRoles;
  const sections = CONSOLE_SECTIONS.filter((s) => hasProviderRole(mine, s.roles));
  if (!hasProviderRole(mine, roles)) {
    return (
      <Stack align="center" py={60} data-testid="console-refused">
        <Title order={1}>{t('errors.unauthorized')}</Title>
        <Text>
          {mine.length === 0
            ? t('console.notForYou')
            : t('console.rolesOnly', {
                roles: ['administrator' as const, ...roles.filter((r) => r !== 'administrator')]
                  .map((r) => t(`console.roles.${r}`))
                  .join(', '),
              })}
        </Text>
      </Stack>
    );
  }
  return (
    <Group align="flex-start" wrap="nowrap" gap="xl" py="md" data-testid="console">
      <Box component="nav" aria-label={t('console.navLabel')} w={220} style={{ flexShrink: 0 }}>
        <Text fw={700} size="sm" c="dimmed" tt="uppercase" mb="xs">
          {t('console.title')}
        </Text>
        {sections.map((s) => (
          <NavLink
            key={s.path}
            component={Link}
            to={s.path}
            label={t(s.label)}
            active={location.pathname === s.path}
            aria-current={location.pathname === s.path ? 'page' : undefined}
          />
        ))}
      </Box>
      <Box id="console-main" style={{ flex: 1, minWidth: 0 }}>
        <PageTitle>{title}</PageTitle>
        {children}
      </Box>
    </Group>
  );
}
