import { Anchor, List, Text } from '@mantine/core';
import { hasProviderRole, PROVIDER_ROLES } from '@portico/contracts/provider-roles';
import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { useUser } from '../../lib/store';
import { ConsolePage } from './console-layout';
import { CONSOLE_SECTIONS } from './sections';

/** /admin: the console's home, open to every provider role; it leads to the sections the user may use. */
export default function ConsoleHomePage() {
  const { t } = useTranslation();
  const user = useUser();
  const sections = CONSOLE_SECTIONS.filter(
    (s) => s.path !== '/admin' && hasProviderRole(user.providerRoles, s.roles),
  );
  return (
    <ConsolePage roles={PROVIDER_ROLES} title={t('console.title')}>
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
