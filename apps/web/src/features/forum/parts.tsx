import {
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  NavLink,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import type { ForumTopicSummary } from '@portico/contracts/forum';
import { paths } from '../../config/paths';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import type { Forum } from './api';

/** Shared pieces of the forum pages (spec B 2.13). */

/** When a post was written, as the page's language writes it (lib/text.ts). */
export const when = (iso: string | null | undefined) => formatDateTime(iso);

/** 'n/a' when there is no last post (spec B 8). */
export function LastPost({ post }: { post: { created: string | null; name: string | null } | null }) {
  const { t } = useTranslation();
  if (!post?.created) return <Text size="sm">{t('forum.noLastPost')}</Text>;
  return (
    <Text size="sm">
      {when(post.created)}
      {post.name ? (
        <>
          <br />
          {t('forum.byAuthor', { name: post.name })}
        </>
      ) : null}
    </Text>
  );
}

/** The sidebar lists: Newest Topics, Popular Topics, Unanswered Topics. */
export function ForumSidebar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const links = [
    { to: paths.forumNewest, label: t('forum.newestTopics') },
    { to: paths.forumPopular, label: t('forum.popularTopics') },
    { to: paths.forumUnanswered, label: t('forum.unansweredTopics') },
  ];
  return (
    <nav aria-labelledby="forum-sidebar">
      <Title order={2} size="h5" id="forum-sidebar" mb="sm">
        {t('forum.sidebar')}
      </Title>
      {links.map((l) => (
        <NavLink
          key={l.to}
          component={Link}
          to={l.to}
          label={l.label}
          active={pathname === l.to}
          aria-current={pathname === l.to ? 'page' : undefined}
        />
      ))}
    </nav>
  );
}

/** Forums in tree order with their depth (for the filter select). */
export function forumTree(forums: readonly Forum[]): { forum: Forum; depth: number }[] {
  const out: { forum: Forum; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const f of forums.filter((x) => x.parent === parent)) {
      out.push({ forum: f, depth });
      if (depth < 10) walk(f.uuid, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** The filter-by-forum select and the keyword search (spec B 2.13). */
export function ForumToolbar({
  forums,
  current,
  query,
  onForum,
  onSearch,
}: {
  forums: readonly Forum[];
  current: string | null;
  query: string;
  onForum(id: string | null): void;
  onSearch(q: string): void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(query);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(text.trim());
  };
  return (
    <Group align="end" gap="md" mb="lg" wrap="wrap">
      <NativeSelect
        label={t('forum.filterByForum')}
        value={current ?? ''}
        onChange={(e) => onForum(e.currentTarget.value || null)}
        data={[
          { value: '', label: t('forum.allForums') },
          ...forumTree(forums).map(({ forum, depth }) => ({
            value: forum.uuid,
            label: `${'\u2014 '.repeat(depth)}${forum.name}`,
          })),
        ]}
      />
      <form role="search" onSubmit={submit} style={{ display: 'flex', gap: 8, alignItems: 'flex-end' }}>
        <TextInput
          label={t('forum.searchLabel')}
          placeholder={t('forum.searchPlaceholder')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          type="search"
        />
        <Button type="submit">{t('forum.searchButton')}</Button>
      </form>
    </Group>
  );
}

/** A table of topics: title with author and badges, replies, last post. */
export function TopicTable({ topics, caption }: { topics: readonly ForumTopicSummary[]; caption: string }) {
  const { t } = useTranslation();
  return (
    <Table striped highlightOnHover data-testid="topic-table">
      <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t('forum.topic')}</Table.Th>
          <Table.Th scope="col">{t('forum.replies')}</Table.Th>
          <Table.Th scope="col">{t('forum.lastPost')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {topics.map((topic) => (
          <Table.Tr key={topic.uuid}>
            <Table.Td>
              <Stack gap={2}>
                <Group gap="xs">
                  <Anchor component={Link} to={paths.forumTopic(topic.uuid)} fw={600}>
                    {topic.title}
                  </Anchor>
                  {topic.sticky && (
                    <Badge size="xs" color="blue">
                      {t('forum.pinned')}
                    </Badge>
                  )}
                  {topic.locked && (
                    <Badge size="xs" color="gray">
                      {t('forum.locked')}
                    </Badge>
                  )}
                  {!topic.status && (
                    <Badge size="xs" color="red">
                      {t('forum.hidden')}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('forum.byAuthor', { name: topic.author?.name ?? t('forum.anonymousAuthor') })} ·{' '}
                  {when(topic.created)}
                </Text>
              </Stack>
            </Table.Td>
            <Table.Td>{topic.comment_forum.comment_count}</Table.Td>
            <Table.Td>
              <LastPost
                post={
                  topic.comment_forum.last_comment_date
                    ? {
                        created: topic.comment_forum.last_comment_date,
                        name: topic.comment_forum.last_comment_name,
                      }
                    : { created: topic.created, name: topic.author?.name ?? null }
                }
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
