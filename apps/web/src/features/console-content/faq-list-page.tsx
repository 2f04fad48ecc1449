import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Pagination,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import {
  createFaqCategory,
  deleteFaqCategory,
  FAQ_STATES,
  listFaqCategories,
  listFaqs,
  renameFaqCategory,
  reorderFaqCategories,
  reorderFaqs,
  type FaqCategory,
} from './api';
import { StateCell } from './versioned-list';
import { ContentTabs, formatDateTime } from './editing';

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
        <Categories />
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

function Categories() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const categories = useQuery({ queryKey: ['console-faq-categories'], queryFn: listFaqCategories });
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: ['console-faq-categories'] });
    await client.invalidateQueries({ queryKey: ['console-faqs'] });
  };
  const fail = (err: unknown) =>
    setMessage({ ok: false, text: messageOf(err, t('errors.somethingWentWrong')) });
  const add = useMutation({
    mutationFn: createFaqCategory,
    onSuccess: async ({ data }) => {
      setName('');
      setMessage({ ok: true, text: t('console.content.faqCategories.created', { name: data.name }) });
      await refresh();
    },
    onError: fail,
  });
  const rename = useMutation({
    mutationFn: (r: { id: string; name: string }) => renameFaqCategory(r.id, r.name),
    onSuccess: async ({ data }) => {
      setRenaming(null);
      setMessage({ ok: true, text: t('console.content.faqCategories.renamed', { name: data.name }) });
      await refresh();
    },
    onError: fail,
  });
  const reorder = useMutation({ mutationFn: reorderFaqCategories, onSuccess: refresh, onError: fail });
  const remove = useMutation({
    mutationFn: (c: FaqCategory) => deleteFaqCategory(c.id),
    onSuccess: async () => {
      setMessage({ ok: true, text: t('console.content.faqCategories.deleted') });
      await refresh();
    },
    onError: fail,
  });
  const list = categories.data?.data ?? [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) add.mutate(name.trim());
  };
  return (
    <Paper
      withBorder
      p="md"
      style={{ flex: '0 1 360px' }}
      component="section"
      aria-labelledby="faq-categories-title"
    >
      <Title order={2} size="h4" id="faq-categories-title" mb="sm">
        {t('console.content.faqCategories.title')}
      </Title>
      {message && (
        <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'} mb="sm">
          {message.text}
        </Alert>
      )}
      {!categories.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Text size="sm">{t('console.content.faqCategories.empty')}</Text>
      ) : (
        <Stack
          gap="xs"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          data-testid="faq-categories"
        >
          {list.map((c, i) => (
            <li key={c.id}>
              {renaming?.id === c.id ? (
                <Group
                  component="form"
                  gap="xs"
                  align="flex-end"
                  onSubmit={(e: FormEvent) => {
                    e.preventDefault();
                    if (renaming.name.trim()) rename.mutate({ id: c.id, name: renaming.name.trim() });
                  }}
                >
                  <TextInput
                    size="xs"
                    label={t('console.content.faqCategories.renameLabel', { name: c.name })}
                    value={renaming.name}
                    onChange={(e) => setRenaming({ id: c.id, name: e.currentTarget.value })}
                  />
                  <Button size="xs" type="submit" loading={rename.isPending}>
                    {t('console.content.faqCategories.save')}
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setRenaming(null)}>
                    {t('console.content.faqCategories.cancel')}
                  </Button>
                </Group>
              ) : (
                <Group gap={4} wrap="nowrap" justify="space-between">
                  <div>
                    <Text size="sm" fw={700}>
                      {c.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('console.content.faqCategories.questions', { count: c.questions })}
                    </Text>
                  </div>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      disabled={i === 0 || reorder.isPending}
                      aria-label={t('console.content.faqCategories.moveUp', { name: c.name })}
                      onClick={() =>
                        reorder.mutate(
                          moved(
                            list.map((x) => x.id),
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
                      disabled={i === list.length - 1 || reorder.isPending}
                      aria-label={t('console.content.faqCategories.moveDown', { name: c.name })}
                      onClick={() =>
                        reorder.mutate(
                          moved(
                            list.map((x) => x.id),
                            i,
                            1,
                          ),
                        )
                      }
                    >
                      <IconArrowDown size={16} aria-hidden />
                    </ActionIcon>
                    <Button
                      size="compact-xs"
                      variant="light"
                      onClick={() => setRenaming({ id: c.id, name: c.name })}
                    >
                      {t('console.content.faqCategories.rename')}
                    </Button>
                    <Button
                      size="compact-xs"
                      color="red"
                      variant="outline"
                      aria-label={t('console.content.faqCategories.deleteLabel', { name: c.name })}
                      onClick={() => {
                        if (
                          window.confirm(t('console.content.faqCategories.deleteConfirm', { name: c.name }))
                        )
                          remove.mutate(c);
                      }}
                    >
                      {t('console.content.faqCategories.delete')}
                    </Button>
                  </Group>
                </Group>
              )}
            </li>
          ))}
        </Stack>
      )}
      <Group component="form" onSubmit={submit} align="flex-end" gap="xs" mt="md">
        <TextInput
          label={t('console.content.faqCategories.nameLabel')}
          placeholder={t('console.content.faqCategories.newName')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" loading={add.isPending}>
          {t('console.content.faqCategories.add')}
        </Button>
      </Group>
    </Paper>
  );
}
