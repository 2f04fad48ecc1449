import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';

/** The header's link to the provider console, for the provider's team; never on the first page. */
export default function ConsoleLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.console} size="sm">
      {t('console.link')}
    </Anchor>
  );
}
