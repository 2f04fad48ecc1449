import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';

/** The content section's two lists: articles and the FAQ. */
export function ContentTabs({ current }: { current: 'articles' | 'faq' }) {
  const { t } = useTranslation();
  const tabs = [
    { key: 'articles', to: paths.adminContent, label: t('console.content.tabs.articles') },
    { key: 'faq', to: paths.adminFaq, label: t('console.content.tabs.faq') },
  ] as const;
  return (
    <Group component="nav" aria-label={t('console.content.tabs.label')} gap="xs" mb="md">
      {tabs.map((tab) => (
        <Button
          key={tab.key}
          component={Link}
          to={tab.to}
          variant={tab.key === current ? 'filled' : 'default'}
          aria-current={tab.key === current ? 'page' : undefined}
        >
          {tab.label}
        </Button>
      ))}
    </Group>
  );
}
