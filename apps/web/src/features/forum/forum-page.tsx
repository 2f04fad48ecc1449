import { Alert, Anchor, Button, Container, Grid, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { FORUM_TOPICS_PAGE_SIZE } from '@portico/contracts/forum';
import { RoleGuard } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs, type Crumb } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { useUser } from '../../lib/store';
import {
  setSubscription,
  useForums,
  useForumTopics,
  useInvalidateForum,
  useTopicList,
  summaryOf,
  type Forum,
} from './api';
import { ForumSidebar, ForumToolbar, LastPost, TopicTable } from './parts';

/** /forum and /forum/:forum_id (spec B 2.13): forums, sub-forums and topics; filter and search. */
export default function ForumPage() {
  return (
    <RoleGuard>
      <ForumIndex />
    </RoleGuard>
  );
}

function ForumIndex() {
  const { t } = useTranslation();
  const { forum_id: forumId } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const q = params.get('q') ?? '';
  const forums = useForums();
  const current = forumId
    ? forums.data?.find((f) => f.uuid === forumId || String(f.tid) === forumId)
    : undefined;

  if (forums.isPending) return <Loading />;
  if (forums.isError)
    return (
      <Container size="xl" py="xl">
        <Alert color="red" role="alert">
          {messageOf(forums.error, t('forum.loadFailed'))}
        </Alert>
      </Container>
    );
  const all = forums.data;
  const notFound = forumId !== undefined && !current;

  const crumbs: Crumb[] = [{ title: t('forum.title'), to: paths.forum }];
  const chain: Forum[] = [];
  for (let f = current; f && chain.length < 10; f = all.find((x) => x.uuid === f!.parent)) chain.unshift(f);
  for (const f of chain) crumbs.push({ title: f.name, to: paths.forumOf(f.uuid) });

  return (
    <Container size="xl" py="xl">
      <PageBreadcrumbs items={crumbs} />
      <PageTitle>{current?.name ?? t('forum.title')}</PageTitle>
      {current?.description ? <Text mb="md">{current.description}</Text> : null}
      <ForumToolbar
        key={forumId ?? 'root'}
        forums={all}
        current={current?.uuid ?? null}
        query={q}
        onForum={(id) => navigate(id ? paths.forumOf(id) : paths.forum)}
        onSearch={(text) => {
          const next = new URLSearchParams(params);
          if (text) next.set('q', text);
          else next.delete('q');
          next.delete('page');
          setParams(next);
        }}
      />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 9 }}>
          {notFound ? (
            <Alert color="yellow" role="status">
              {t('forum.noResults')}
            </Alert>
          ) : q ? (
            <SearchResults q={q} forum={current && !current.container ? current.uuid : null} />
          ) : (
            <ForumBody all={all} current={current} />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <ForumSidebar />
        </Grid.Col>
      </Grid>
    </Container>
  );
}

function ForumBody({ all, current }: { all: Forum[]; current: Forum | undefined }) {
  const { t } = useTranslation();
  const user = useUser();
  const children = all.filter((f) => f.parent === (current?.uuid ?? null));
  // The create button: only in a forum that takes topics (not a container, not the virtual root).
  const canCreate = current !== undefined && !current.container;
  return (
    <Stack gap="xl">
      {current && (
        <Group justify="space-between">
          <Group>
            {canCreate && (
              <Button component={Link} to={paths.forumCreateTopic(current.uuid)}>
                {t('forum.createTopic')}
              </Button>
            )}
          </Group>
          {user.isLoggedIn && user.uuid && <SubscribeForum forum={current} userUuid={user.uuid} />}
        </Group>
      )}
      {children.length > 0 && <ForumTable forums={children} all={all} />}
      {canCreate && <ForumTopics forum={current} />}
    </Stack>
  );
}

function SubscribeForum({ forum, userUuid }: { forum: Forum; userUuid: string }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateForum();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await setSubscription('taxonomy_term', forum.uuid, userUuid, !forum.subscribed);
      await invalidate();
    } catch (err) {
      setError(messageOf(err, t('forum.loadFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4} align="flex-end">
      <Button variant="outline" onClick={() => void toggle()} loading={busy} aria-pressed={forum.subscribed}>
        {forum.subscribed ? t('forum.unsubscribe') : t('forum.subscribe')}
      </Button>
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** Forums with their sub-forums, topic and comment counts and last post. */
function ForumTable({ forums, all }: { forums: Forum[]; all: Forum[] }) {
  const { t } = useTranslation();
  return (
    <Table striped data-testid="forum-table">
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{t('forum.forums')}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('forum.forum')}</Table.Th>
          <Table.Th scope="col">{t('forum.topics')}</Table.Th>
          <Table.Th scope="col">{t('forum.posts')}</Table.Th>
          <Table.Th scope="col">{t('forum.lastPost')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {forums.map((f) => {
          const subs = all.filter((s) => s.parent === f.uuid);
          return (
            <Table.Tr key={f.uuid}>
              <Table.Td>
                <Anchor component={Link} to={paths.forumOf(f.uuid)} fw={600}>
                  {f.name}
                </Anchor>
                {f.description && (
                  <Text size="sm" c="dimmed">
                    {f.description}
                  </Text>
                )}
                {subs.length > 0 && (
                  <Text size="sm">
                    {t('forum.subForums')}:{' '}
                    {subs.map((s, i) => (
                      <span key={s.uuid}>
                        {i > 0 && ', '}
                        <Anchor component={Link} to={paths.forumOf(s.uuid)}>
                          {s.name}
                        </Anchor>
                      </span>
                    ))}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{f.statistics.topic_count}</Table.Td>
              <Table.Td>{f.statistics.topic_count + f.statistics.comment_count}</Table.Td>
              <Table.Td>
                <LastPost post={f.last_post} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function ForumTopics({ forum }: { forum: Forum }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const topics = useForumTopics(forum.uuid, page);
  const pages = Math.ceil(forum.statistics.topic_count / FORUM_TOPICS_PAGE_SIZE);
  if (topics.isPending) return <Loading />;
  if (topics.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(topics.error, t('forum.loadFailed'))}
      </Alert>
    );
  if (topics.data.length === 0 && page === 0) return <Text>{t('forum.noTopics')}</Text>;
  return (
    <Stack>
      <TopicTable topics={topics.data} caption={t('forum.topics')} />
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
  );
}

function SearchResults({ q, forum }: { q: string; forum: string | null }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const list = useTopicList('search', q, forum, page);
  if (list.isPending) return <Loading />;
  if (list.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(list.error, t('forum.loadFailed'))}
      </Alert>
    );
  if (list.data.data.length === 0)
    return (
      <Text role="status" fw={600}>
        {t('forum.noResults')}
      </Text>
    );
  const pages = Math.ceil(list.data.meta.count / FORUM_TOPICS_PAGE_SIZE);
  return (
    <Stack>
      <TopicTable
        topics={list.data.data.map((topic) => summaryOf(topic, forum ?? ''))}
        caption={t('forum.searchLabel')}
      />
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
  );
}
