import { Anchor, List, Text, Title } from '@mantine/core';
import { hasProviderRole, PROVIDER_ROLES } from '@portico/contracts/provider-roles';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { useTranslation } from '../../lib/i18n';
import { useUser } from '../../lib/store';
import { ConsolePage } from './console-layout';
import { CONSOLE_SECTIONS } from './sections';

// The administrators' dashboard, with the chart library: a chunk of its own, loaded for them only.
const Dashboard = lazy(() => import('../console-dashboard/dashboard'));

/**
 * /admin: the console's home, open to every provider role: the dashboard for administrators, then
 * the sections the user may use.
 */
export default function ConsoleHomePage() {
  const { t } = useTranslation();
  const user = useUser();
  const sections = CONSOLE_SECTIONS.filter(
    (s) => s.path !== '/admin' && hasProviderRole(user.providerRoles, s.roles),
  );
  const admin = user.providerRoles.includes('administrator');
  return (
    <ConsolePage roles={PROVIDER_ROLES} title={t('console.title')}>
      {admin && (
        <Suspense fallback={<Loading />}>
          <Dashboard />
        </Suspense>
      )}
      {admin && (
        <Title order={2} mb="xs">
          {t('console.dashboard.sections')}
        </Title>
      )}
      <Text mb="sm">{t('console.homeIntro')}</Text>
      <List>
        {sections.map((s) => (
          <List.Item key={s.path}>
            <Anchor component={Link} to={s.path}>
              {t(s.label)}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </ConsolePage>
  );
}
