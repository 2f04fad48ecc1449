import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { CategoryFields, FaqCategory, NewsCategory } from '@portico/contracts/console-content';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import {
  CATEGORY_BASES,
  createCategory,
  faqCategoriesApi,
  listCategories,
  listFaqCategories,
  newsCategoriesApi,
  reorderCategories,
  type ConsoleCategory,
} from './api';
import { moved } from './versioned';
import { versionedSource, type VersionedSource } from './versioned-editor';

/**
 * News and FAQ categories in the console (modules/content/README.md 'Console: categories'): the
 * list with its order (↑ ↓), a new category, and each one's own form (category-editor-page.tsx)
 * with its revisions. Both kinds are versioned items: a save, a rename, a move and a restore each
 * store a revision.
 */

export type CategoryKind = 'news' | 'faq';

/** A category of either kind, as the list and the form use it. */
export type AnyCategory = ConsoleCategory &
  Partial<Pick<FaqCategory, 'questions'> & Pick<NewsCategory, 'articles'>>;

/** The query keys and calls of one kind of category. */
export const CATEGORY_SOURCES: Record<
  CategoryKind,
  VersionedSource<AnyCategory, CategoryFields, keyof CategoryFields>
> = {
  news: {
    ...versionedSource<AnyCategory, CategoryFields>(newsCategoriesApi, {
      key: 'console-news-category',
      lists: ['console-news-categories', 'console-articles'],
      revisions: 'console-news-category-revisions',
    }),
    create: (fields) => createCategory<AnyCategory>(CATEGORY_BASES.news, fields.name),
  },
  faq: {
    ...versionedSource<AnyCategory, CategoryFields>(faqCategoriesApi, {
      key: 'console-faq-category',
      lists: ['console-faq-categories', 'console-faqs'],
      revisions: 'console-faq-category-revisions',
    }),
    create: (fields) => createCategory<AnyCategory>(CATEGORY_BASES.faq, fields.name),
  },
};

/** The list's query of one kind (the FAQ's key is the one its questions' filter shares). */
export const categoryListKey = (kind: CategoryKind) =>
  kind === 'faq' ? 'console-faq-categories' : 'console-news-categories';

const listOf = (kind: CategoryKind) => (): Promise<{ data: AnyCategory[] }> =>
  kind === 'faq' ? listFaqCategories() : listCategories();

/** Where a category's form is. */
export const categoryPath = (kind: CategoryKind, id: string) =>
  kind === 'faq' ? paths.adminFaqCategory(id) : paths.adminNewsCategory(id);

/** The words of one kind's list. */
function useTexts(kind: CategoryKind) {
  const { t } = useTranslation();
  const k = kind === 'faq' ? 'faqCategories' : 'newsCategories';
  return {
    title: t(`console.content.${k}.title`),
    empty: t(`console.content.${k}.empty`),
    nameLabel: t(`console.content.${k}.nameLabel`),
    newName: t(`console.content.${k}.newName`),
    add: t(`console.content.${k}.add`),
    edit: t(`console.content.${k}.edit`),
    editLabel: (name: string) => t(`console.content.${k}.editLabel`, { name }),
    version: (version: number) => t(`console.content.${k}.version`, { version }),
    delete: t(`console.content.${k}.delete`),
    deleteLabel: (name: string) => t(`console.content.${k}.deleteLabel`, { name }),
    deleteConfirm: (name: string) => t(`console.content.${k}.deleteConfirm`, { name }),
    moveUp: (name: string) => t(`console.content.${k}.moveUp`, { name }),
    moveDown: (name: string) => t(`console.content.${k}.moveDown`, { name }),
    created: (name: string) => t(`console.content.${k}.created`, { name }),
    deleted: t(`console.content.${k}.deleted`),
    count: (c: AnyCategory) =>
      kind === 'faq'
        ? t('console.content.faqCategories.questions', { count: c.questions ?? 0 })
        : t('console.content.newsCategories.articles', { count: c.articles ?? 0 }),
  };
}

/** One kind's categories: their order, a new one, and a link to each one's form. */
export function CategoriesPanel({ kind }: { kind: CategoryKind }) {
  const { t } = useTranslation();
  const texts = useTexts(kind);
  const client = useQueryClient();
  const source = CATEGORY_SOURCES[kind];
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const categories = useQuery({ queryKey: [categoryListKey(kind)], queryFn: listOf(kind) });
  const refresh = async () => {
    for (const key of source.lists) await client.invalidateQueries({ queryKey: [key] });
    // A move raises the versions of the categories it moved.
    await client.invalidateQueries({ queryKey: [source.key] });
  };
  const fail = (err: unknown) =>
    setMessage({ ok: false, text: messageOf(err, t('errors.somethingWentWrong')) });
  const add = useMutation({
    mutationFn: (n: string) => source.create({ name: n, weight: 0 }),
    onSuccess: async ({ data }) => {
      setName('');
      setMessage({ ok: true, text: texts.created(data.name) });
      await refresh();
    },
    onError: fail,
  });
  const reorder = useMutation({
    mutationFn: (ids: string[]) => reorderCategories(CATEGORY_BASES[kind], ids),
    onSuccess: refresh,
    onError: fail,
  });
  const remove = useMutation({
    mutationFn: (c: AnyCategory) => source.remove(c.id, c.version),
    onSuccess: async () => {
      setMessage({ ok: true, text: texts.deleted });
      await refresh();
    },
    onError: fail,
  });
  const list = categories.data?.data ?? [];
  const ids = list.map((c) => c.id);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) add.mutate(name.trim());
  };
  const titleId = `${kind}-categories-title`;
  return (
    <Paper withBorder p="md" style={{ flex: '0 1 360px' }} component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId} mb="sm">
        {texts.title}
      </Title>
      {message && (
        <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'} mb="sm">
          {message.text}
        </Alert>
      )}
      {categories.isError ? (
        <Alert color="red" role="alert">
          {messageOf(categories.error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : !categories.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Text size="sm">{texts.empty}</Text>
      ) : (
        <Stack
          gap="xs"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          data-testid={`${kind}-categories`}
        >
          {list.map((c, i) => (
            <li key={c.id}>
              <Group gap={4} wrap="nowrap" justify="space-between">
                <div>
                  <Text size="sm" fw={700}>
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {texts.count(c)} · {texts.version(c.version)}
                  </Text>
                </div>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    disabled={i === 0 || reorder.isPending}
                    aria-label={texts.moveUp(c.name)}
                    onClick={() => reorder.mutate(moved(ids, i, -1))}
                  >
                    <IconArrowUp size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    disabled={i === list.length - 1 || reorder.isPending}
                    aria-label={texts.moveDown(c.name)}
                    onClick={() => reorder.mutate(moved(ids, i, 1))}
                  >
                    <IconArrowDown size={16} aria-hidden />
                  </ActionIcon>
                  <Anchor
                    component={Link}
                    to={categoryPath(kind, c.id)}
                    size="sm"
                    aria-label={texts.editLabel(c.name)}
                  >
                    {texts.edit}
                  </Anchor>
                  <Button
                    size="compact-xs"
                    color="red"
                    variant="outline"
                    aria-label={texts.deleteLabel(c.name)}
                    onClick={() => {
                      if (window.confirm(texts.deleteConfirm(c.name))) remove.mutate(c);
                    }}
                  >
                    {texts.delete}
                  </Button>
                </Group>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      <Group component="form" onSubmit={submit} align="flex-end" gap="xs" mt="md">
        <TextInput
          label={texts.nameLabel}
          placeholder={texts.newName}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <Button type="submit" loading={add.isPending}>
          {texts.add}
        </Button>
      </Group>
    </Paper>
  );
}
