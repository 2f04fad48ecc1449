import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Pagination,
  Select,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { ContentTabs, formatDateTime } from './editing';
import { listStories, STORY_STATES, type StoryState } from './quickstart-api';

const PAGE = 20;
export const STORY_STATE_COLORS: Record<StoryState, string> = {
  draft: 'gray',
  published: 'green',
  scheduled: 'blue',
};

/** /admin/content/quickstart: the Quick Start stories, drafts and scheduled ones included. */
export default function StoriesPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['console-stories', state, search, page],
    queryFn: () =>
      listStories({ state: state ?? undefined, q: search, limit: PAGE, offset: (page - 1) * PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / PAGE));
  return (
    <ConsolePage roles="content_editor" title={t('console.quickstart.list.title')}>
      <ContentTabs />
      <Text mb="md">{t('console.quickstart.list.intro')}</Text>
      <Group align="flex-end" mb="md">
        <TextInput
          label={t('console.quickstart.list.searchLabel')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label={t('console.quickstart.list.stateFilter')}
          placeholder={t('console.quickstart.list.allStates')}
          clearable
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          data={STORY_STATES.map((s) => ({ value: s, label: t(`console.quickstart.list.states.${s}`) }))}
        />
        <Button component={Link} to={paths.adminStoryNew} ml="auto">
          {t('console.quickstart.list.newStory')}
        </Button>
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert">
          {t('console.quickstart.list.loadFailed')}
        </Alert>
      ) : !query.data ? (
        <Loading />
      ) : query.data.data.length === 0 ? (
        <Text>{t('console.quickstart.list.empty')}</Text>
      ) : (
        <>
          <Table data-testid="console-stories">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.quickstart.list.columns.title')}</Table.Th>
                <Table.Th>{t('console.quickstart.list.columns.weight')}</Table.Th>
                <Table.Th>{t('console.quickstart.list.columns.steps')}</Table.Th>
                <Table.Th>{t('console.quickstart.list.columns.state')}</Table.Th>
                <Table.Th>{t('console.quickstart.list.columns.changed')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.adminStory(s.id)}>
                      {s.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{s.weight}</Table.Td>
                  <Table.Td>{s.steps}</Table.Td>
                  <Table.Td>
                    <Badge color={STORY_STATE_COLORS[s.state]} variant="light">
                      {t(`console.quickstart.list.states.${s.state}`)}
                    </Badge>
                    {s.state === 'scheduled' && s.publishAt && (
                      <Text size="xs" c="dimmed">
                        {t('console.quickstart.list.scheduledFor', { date: formatDateTime(s.publishAt) })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDateTime(s.changed)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
        </>
      )}
    </ConsolePage>
  );
}
