import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { storiesApi, STORY_STATES, type StoryListItem, type StoryState } from './quickstart-api';
import { StateCell, VersionedListPage } from './versioned-list';

/** /admin/content/quickstart: the Quick Start stories, drafts and scheduled ones included. */
export default function StoriesPage() {
  const { t } = useTranslation();
  return (
    <VersionedListPage<StoryListItem, StoryState>
      queryKey="console-stories"
      list={storiesApi.list}
      states={STORY_STATES}
      newPath={paths.adminStoryNew}
      testId="console-stories"
      texts={{
        title: t('console.quickstart.list.title'),
        intro: t('console.quickstart.list.intro'),
        searchLabel: t('console.quickstart.list.searchLabel'),
        stateFilter: t('console.quickstart.list.stateFilter'),
        allStates: t('console.quickstart.list.allStates'),
        newItem: t('console.quickstart.list.newStory'),
        loadFailed: t('console.quickstart.list.loadFailed'),
        empty: t('console.quickstart.list.empty'),
        stateLabel: (s) => t(`console.quickstart.list.states.${s}`),
      }}
      columns={[
        {
          header: t('console.quickstart.list.columns.title'),
          cell: (s) => (
            <Anchor component={Link} to={paths.adminStory(s.id)}>
              {s.title}
            </Anchor>
          ),
        },
        { header: t('console.quickstart.list.columns.weight'), cell: (s) => s.weight },
        { header: t('console.quickstart.list.columns.steps'), cell: (s) => s.steps },
        {
          header: t('console.quickstart.list.columns.state'),
          cell: (s) => (
            <StateCell
              state={s.state}
              label={t(`console.quickstart.list.states.${s.state}`)}
              publishAt={s.publishAt}
              scheduledFor={(date) => t('console.quickstart.list.scheduledFor', { date })}
            />
          ),
        },
        { header: t('console.quickstart.list.columns.changed'), cell: (s) => formatDateTime(s.changed) },
      ]}
    />
  );
}
