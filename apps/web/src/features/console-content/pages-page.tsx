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
import { listPages, PAGE_STATES, type PageState } from './pages-api';

const PAGE = 20;
export const PAGE_STATE_COLORS: Record<PageState, string> = {
  draft: 'gray',
  published: 'green',
  scheduled: 'blue',
};

/** /admin/content/pages: the basic pages, drafts included, with their states. */
export default function PagesPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['console-pages', state, search, page],
    queryFn: () =>
      listPages({ state: state ?? undefined, q: search, limit: PAGE, offset: (page - 1) * PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / PAGE));
  return (
    <ConsolePage roles="content_editor" title={t('console.pages.list.title')}>
      <ContentTabs />
      <Text mb="md">{t('console.pages.list.intro')}</Text>
      <Group align="flex-end" mb="md">
        <TextInput
          label={t('console.pages.list.searchLabel')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label={t('console.pages.list.stateFilter')}
          placeholder={t('console.pages.list.allStates')}
          clearable
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          data={PAGE_STATES.map((s) => ({ value: s, label: t(`console.pages.list.states.${s}`) }))}
        />
        <Button component={Link} to={paths.adminPageNew} ml="auto">
          {t('console.pages.list.newPage')}
        </Button>
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert">
          {t('console.pages.list.loadFailed')}
        </Alert>
      ) : !query.data ? (
        <Loading />
      ) : query.data.data.length === 0 ? (
        <Text>{t('console.pages.list.empty')}</Text>
      ) : (
        <>
          <Table data-testid="console-pages">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.pages.list.columns.title')}</Table.Th>
                <Table.Th>{t('console.pages.list.columns.state')}</Table.Th>
                <Table.Th>{t('console.pages.list.columns.changed')}</Table.Th>
                <Table.Th>{t('console.pages.list.columns.version')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.data.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.adminPage(p.id)}>
                      {p.title}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {p.path}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={PAGE_STATE_COLORS[p.state]} variant="light">
                      {t(`console.pages.list.states.${p.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{formatDateTime(p.changed)}</Table.Td>
                  <Table.Td>{p.version}</Table.Td>
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
