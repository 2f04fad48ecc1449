import { Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { CategoriesPanel } from './categories';
import { ContentTabs } from './editing';

/** /admin/content/categories: the blog's news categories, in order, each with its own form. */
export default function NewsCategoriesPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="content_editor" title={t('console.content.newsCategories.title')}>
      <ContentTabs />
      <Text mb="md">{t('console.content.newsCategories.intro')}</Text>
      <CategoriesPanel kind="news" />
    </ConsolePage>
  );
}
