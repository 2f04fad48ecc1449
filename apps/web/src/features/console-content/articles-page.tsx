import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ARTICLE_STATES, listArticles, type ArticleListItem } from './api';
import { formatDateTime } from '../../lib/text';
import { StateCell, VersionedListPage } from './versioned-list';

/** /admin/content: the articles, drafts and scheduled ones included, with their states. */
export default function ArticlesPage() {
  const { t } = useTranslation();
  return (
    <VersionedListPage<ArticleListItem, (typeof ARTICLE_STATES)[number]>
      queryKey="console-articles"
      list={listArticles}
      states={ARTICLE_STATES}
      newPath={paths.adminArticleNew}
      testId="console-articles"
      texts={{
        title: t('console.content.articles.title'),
        intro: t('console.content.articles.intro'),
        searchLabel: t('console.content.articles.searchLabel'),
        stateFilter: t('console.content.articles.stateFilter'),
        allStates: t('console.content.articles.allStates'),
        newItem: t('console.content.articles.newArticle'),
        loadFailed: t('console.content.articles.loadFailed'),
        empty: t('console.content.articles.empty'),
        stateLabel: (s) => t(`console.content.articles.states.${s}`),
      }}
      columns={[
        {
          header: t('console.content.articles.columns.title'),
          cell: (a) => (
            <>
              <Anchor component={Link} to={paths.adminArticle(a.id)}>
                {a.title}
              </Anchor>
              {a.path && (
                <Text size="xs" c="dimmed">
                  {a.path}
                </Text>
              )}
            </>
          ),
        },
        {
          header: t('console.content.articles.columns.state'),
          cell: (a) => (
            <StateCell
              state={a.state}
              label={t(`console.content.articles.states.${a.state}`)}
              publishAt={a.publishAt}
              scheduledFor={(date) => t('console.content.articles.scheduledFor', { date })}
            />
          ),
        },
        { header: t('console.content.articles.columns.changed'), cell: (a) => formatDateTime(a.changed) },
        { header: t('console.content.articles.columns.version'), cell: (a) => a.version },
      ]}
    />
  );
}
