import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { PAGE_STATES, pagesApi, type PageListItem, type PageState } from './pages-api';
import { StateCell, VersionedListPage } from './versioned-list';

/** /admin/content/pages: the basic pages, drafts included, with their states. */
export default function PagesPage() {
  const { t } = useTranslation();
  return (
    <VersionedListPage<PageListItem, PageState>
      queryKey="console-pages"
      list={pagesApi.list}
      states={PAGE_STATES}
      newPath={paths.adminPageNew}
      testId="console-pages"
      texts={{
        title: t('console.pages.list.title'),
        intro: t('console.pages.list.intro'),
        searchLabel: t('console.pages.list.searchLabel'),
        stateFilter: t('console.pages.list.stateFilter'),
        allStates: t('console.pages.list.allStates'),
        newItem: t('console.pages.list.newPage'),
        loadFailed: t('console.pages.list.loadFailed'),
        empty: t('console.pages.list.empty'),
        stateLabel: (s) => t(`console.pages.list.states.${s}`),
      }}
      columns={[
        {
          header: t('console.pages.list.columns.title'),
          cell: (p) => (
            <>
              <Anchor component={Link} to={paths.adminPage(p.id)}>
                {p.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {p.path}
              </Text>
            </>
          ),
        },
        {
          header: t('console.pages.list.columns.state'),
          cell: (p) => (
            <StateCell
              state={p.state}
              label={t(`console.pages.list.states.${p.state}`)}
              publishAt={p.publishAt}
              scheduledFor={(date) => t('console.pages.list.scheduledFor', { date })}
            />
          ),
        },
        { header: t('console.pages.list.columns.changed'), cell: (p) => formatDateTime(p.changed) },
        { header: t('console.pages.list.columns.version'), cell: (p) => p.version },
      ]}
    />
  );
}
