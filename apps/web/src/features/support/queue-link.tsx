import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { useUser } from '../../lib/store';
import { fetchSupportMe, ticketKeys } from './api';

/**
 * The header's link to the support queue, for support staff: administrators, and the accounts an
 * administrator listed (asked of the server once per account and session). Loaded after sign-in,
 * never part of the first page.
 */
export default function SupportQueueLink() {
  const { t } = useTranslation();
  const user = useUser();
  const me = useQuery({
    queryKey: [...ticketKeys.me, user.uid],
    queryFn: fetchSupportMe,
    enabled: !user.isAdmin,
    staleTime: Infinity,
  });
  if (!user.isAdmin && !me.data?.staff) return null;
  return (
    <Anchor component={Link} to={paths.adminSupport} size="sm">
      {t('support.adminLink')}
    </Anchor>
  );
}
