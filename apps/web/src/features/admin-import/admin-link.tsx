import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';

/** The header's link to the import page, for administrators; loaded after sign-in, never on the first page. */
export default function AdminImportLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.adminImportApi} size="sm">
      {t('apiImport.link')}
    </Anchor>
  );
}
