import { Badge, Group, Text } from '@mantine/core';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import { useTranslation } from '../../lib/i18n';

/** An account's provider roles as badges; 'Developer' without any. */
export function RoleBadges({ roles }: { roles: readonly ProviderRole[] }) {
  const { t } = useTranslation();
  if (!roles.length) return <Text size="sm">{t('console.users.noRoles')}</Text>;
  return (
    <Group gap={4}>
      {roles.map((r) => (
        <Badge key={r} variant="outline" color={r === 'administrator' ? 'red.9' : 'blue.9'}>
          {t(`console.roles.${r}`)}
        </Badge>
      ))}
    </Group>
  );
}
