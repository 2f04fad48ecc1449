import { Alert, Container, Grid, Pagination, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { FORUM_TOPICS_PAGE_SIZE } from '@portico/contracts/forum';
import { RoleGuard } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { summaryOf, useTopicList, type TopicListKind } from './api';
import { ForumSidebar, TopicTable } from './parts';

/** /forum/new, /forum/most-popular, /forum/unanswered (spec B 2.1, 2.13): the sidebar lists. */
export default function TopicListPage() {
  return (
    <RoleGuard>
      <TopicList />
    </RoleGuard>
  );
}

function TopicList() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const kind: TopicListKind =
    pathname === paths.forumPopular
      ? 'most-popular'
      : pathname === paths.forumUnanswered
        ? 'unanswered'
        : 'new';
  const title =
    kind === 'most-popular'
      ? t('forum.popularTopics')
      : kind === 'unanswered'
        ? t('forum.unansweredTopics')
        : t('forum.newestTopics');
  const [page, setPage] = useState(0);
  const list = useTopicList(kind, '', null, page);
  const pages = list.data ? Math.ceil(list.data.meta.count / FORUM_TOPICS_PAGE_SIZE) : 0;
  return (
    <Container size="xl" py="xl" key={kind}>
      <PageBreadcrumbs items={[{ title: t('forum.title'), to: paths.forum }, { title }]} />
      <PageTitle>{title}</PageTitle>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 9 }}>
          {list.isPending ? (
            <Loading />
          ) : list.isError ? (
            <Alert color="red" role="alert">
              {messageOf(list.error, t('forum.loadFailed'))}
            </Alert>
          ) : list.data.data.length === 0 ? (
            <Text role="status">{t('forum.noResults')}</Text>
          ) : (
            <Stack>
              <TopicTable topics={list.data.data.map((topic) => summaryOf(topic, ''))} caption={title} />
              {pages > 1 && (
                <Pagination
                  total={pages}
                  value={page + 1}
                  onChange={(p) => setPage(p - 1)}
                  aria-label={t('forum.pagination')}
                  getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                />
              )}
            </Stack>
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <ForumSidebar />
        </Grid.Col>
      </Grid>
    </Container>
  );
}
