import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { FAQ_STATES, listFaqCategories, listFaqs, reorderFaqs } from './api';
import { CategoriesPanel } from './categories';
import { StateCell } from './versioned-list';
import { formatDateTime } from '../../lib/text';
import { ContentTabs } from './editing';

const PAGE = 50;
/** A category's questions are listed whole to be ordered. */
const CATEGORY_PAGE = 200;
const NO_CATEGORY = 'none';

/** `ids` with the one at `index` swapped with its neighbour `by` places away. */
function moved(ids: string[], index: number, by: -1 | 1): string[] {
  const next = [...ids];
  const other = index + by;
  if (other < 0 || other >= next.length) return next;
  [next[index], next[other]] = [next[other]!, next[index]!];
  return next;
}

/** /admin/content/faq: the FAQ's categories and questions, drafts included, in their order. */
export default function FaqListPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="content_editor" title={t('console.content.faq.title')}>
      <ContentTabs />
      <Text mb="md">{t('console.content.faq.intro')}</Text>
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Questions />
        <CategoriesPanel kind="faq" />
      </Group>
    </ConsolePage>
  );
}

function Questions() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [category, setCategory] = useState<string | null>(null);
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const size = category ? CATEGORY_PAGE : PAGE;
  const categories = useQuery({ queryKey: ['console-faq-categories'], queryFn: listFaqCategories });
  const query = useQuery({
    queryKey: ['console-faqs', category, state, search, page],
    queryFn: () =>
      listFaqs({
        category: category ?? undefined,
        state: state ?? undefined,
        q: search,
        limit: size,
        offset: (page - 1) * size,
      }),
    placeholderData: keepPreviousData,
  });
  const reorder = useMutation({
    mutationFn: reorderFaqs,
    onSuccess: async () => {
      setMessage({ ok: true, text: t('console.content.faq.reordered') });
      await client.invalidateQueries({ queryKey: ['console-faqs'] });
    },
    onError: (err) => setMessage({ ok: false, text: messageOf(err, t('errors.somethingWentWrong')) }),
  });
  // Ordering needs the whole category in view: one category, no other filter.
  const orderable = !!category && !state && !search.trim();
  const rows = query.data?.data ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / size));
  return (
    <Stack style={{ flex: '1 1 560px' }}>
      <Group align="flex-end">
        <TextInput
          label={t('console.content.faq.searchLabel')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label={t('console.content.faq.categoryFilter')}
          placeholder={t('console.content.faq.allCategories')}
          clearable
          value={category}
          onChange={(v) => {
            setCategory(v);
            setPage(1);
          }}
          data={[
            ...(categories.data?.data ?? []).map((c) => ({ value: c.id, label: c.name })),
            { value: NO_CATEGORY, label: t('console.content.faq.noCategory') },
          ]}
        />
        <Select
          label={t('console.content.faq.stateFilter')}
          placeholder={t('console.content.faq.allStates')}
          clearable
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          data={FAQ_STATES.map((s) => ({ value: s, label: t(`console.content.faq.states.${s}`) }))}
        />
        <Button component={Link} to={paths.adminFaqNew} ml="auto">
          {t('console.content.faq.newQuestion')}
        </Button>
      </Group>
      {message && (
        <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Alert>
      )}
      {query.isError ? (
        <Alert color="red" role="alert">
          {t('console.content.faq.loadFailed')}
        </Alert>
      ) : !query.data ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Text>{t('console.content.faq.empty')}</Text>
      ) : (
        <>
          <Table data-testid="console-faqs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('console.content.faq.columns.question')}</Table.Th>
                <Table.Th>{t('console.content.faq.columns.category')}</Table.Th>
                <Table.Th>{t('console.content.faq.columns.state')}</Table.Th>
                <Table.Th>{t('console.content.faq.columns.changed')}</Table.Th>
                {orderable && <Table.Th>{t('console.content.faq.columns.order')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((q, i) => (
                <Table.Tr key={q.id}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.adminFaqQuestion(q.id)}>
                      {q.question}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{q.categoryName ?? t('console.content.faq.noCategory')}</Table.Td>
                  <Table.Td>
                    <StateCell
                      state={q.state}
                      label={t(`console.content.faq.states.${q.state}`)}
                      publishAt={q.publishAt}
                      scheduledFor={(date) => t('console.content.faq.scheduledFor', { date })}
                    />
                  </Table.Td>
                  <Table.Td>{formatDateTime(q.changed)}</Table.Td>
                  {orderable && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          disabled={i === 0 || reorder.isPending}
                          aria-label={t('console.content.faq.moveUp', { question: q.question })}
                          onClick={() =>
                            reorder.mutate(
                              moved(
                                rows.map((r) => r.id),
                                i,
                                -1,
                              ),
                            )
                          }
                        >
                          <IconArrowUp size={16} aria-hidden />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          disabled={i === rows.length - 1 || reorder.isPending}
                          aria-label={t('console.content.faq.moveDown', { question: q.question })}
                          onClick={() =>
                            reorder.mutate(
                              moved(
                                rows.map((r) => r.id),
                                i,
                                1,
                              ),
                            )
                          }
                        >
                          <IconArrowDown size={16} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
        </>
      )}
    </Stack>
  );
}
