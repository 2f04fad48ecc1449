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
import { ARTICLE_STATES, listArticles, type ArticleState } from './api';
import { ContentTabs } from './content-tabs';

const PAGE = 20;
export const STATE_COLORS: Record<ArticleState, string> = {
  draft: 'gray',
  published: 'green',
  scheduled: 'blue',
};

/** When a scheduled article goes live, in the reader's own time. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** /admin/content: the articles, drafts and scheduled ones included, with their states. */
export default function ArticlesPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['console-articles', state, search, page],
    queryFn: () =>
      listArticles({ state: state ?? undefined, q: search, limit: PAGE, offset: (page - 1) * PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / PAGE));
  return (
    <ConsolePage roles="content_editor" title={t('console.content.articles.title')}>
      <ContentTabs current="articles" />
      <Text mb="md">{t('console.content.articles.intro')}</Text>
      <Group align="flex-end" mb="md">
        <TextInput
          label={t('console.content.articles.searchLabel')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label={t('console.content.articles.stateFilter')}
          placeholder={t('console.content.articles.allStates')}
          clearable
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          data={ARTICLE_STATES.map((s) => ({ value: s, label: t(`console.content.articles.states.${s}`) }))}
        />
        <Button component={Link} to={paths.adminArticleNew} ml="auto">
          {t('console.content.articles.newArticle')}
        </Button>
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert">
          {t('console.content.articles.loadFailed')}
        </Alert>
      ) : !query.data ? (
        <Loading />
      ) : query.data.data.length === 0 ? (
        <Text>{t('console.content.articles.empty')}</Text>
      ) : (
        <>
          <Table data-testid="console-articles">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.content.articles.columns.title')}</Table.Th>
                <Table.Th>{t('console.content.articles.columns.state')}</Table.Th>
                <Table.Th>{t('console.content.articles.columns.changed')}</Table.Th>
                <Table.Th>{t('console.content.articles.columns.version')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.data.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.adminArticle(a.id)}>
                      {a.title}
                    </Anchor>
                    {a.path && (
                      <Text size="xs" c="dimmed">
                        {a.path}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLORS[a.state]} variant="light">
                      {t(`console.content.articles.states.${a.state}`)}
                    </Badge>
                    {a.state === 'scheduled' && a.publishAt && (
                      <Text size="xs">
                        {t('console.content.articles.scheduledFor', { date: formatDateTime(a.publishAt) })}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDateTime(a.changed)}</Table.Td>
                  <Table.Td>{a.version}</Table.Td>
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
