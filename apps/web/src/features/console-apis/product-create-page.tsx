import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { BLANK_PRODUCT, ProductForm } from './product-editor-page';

/** /admin/apis/products/new: a new API product's alias, version and fields, with the preview. */
export default function ProductCreatePage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="api_manager" title={t('console.products.editor.newTitle')}>
      <Button component={Link} to={paths.adminApis} variant="subtle" mb="sm" px={0}>
        {t('console.products.editor.back')}
      </Button>
      <ProductForm product={BLANK_PRODUCT} creating onReplaced={() => undefined} />
    </ConsolePage>
  );
}
