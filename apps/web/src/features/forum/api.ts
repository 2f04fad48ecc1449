import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  FORUM_COMMENT_TYPE,
  FORUM_COMMENTS_PAGE_SIZE,
  FORUM_TERM_TYPE,
  FORUM_TOPIC_TYPE,
  FORUM_TOPICS_PAGE_SIZE,
  USER_TYPE,
  type ForumTopicSummary,
} from '@portico/contracts/forum';
import { apiRequest } from '../../lib/api-client';

/** The forum calls of spec B 7, shaped as apps/server/src/modules/forum/README.md documents them. */

interface Identifier {
  type: string;
  id: string;
}
interface Resource<A> {
  type: string;
  id: string;
  attributes: A;
  relationships: Record<string, { data: Identifier | Identifier[] | null }>;
}
interface Collection<A> {
  data: Resource<A>[];
  included?: Resource<{ name: string }>[];
  meta: { count: number };
}

export interface Forum {
  uuid: string;
  tid: number;
  name: string;
  description: string;
  weight: number;
  container: boolean;
  /** The parent forum's uuid, or null at the virtual root. */
  parent: string | null;
  children: string[];
  subscribed: boolean;
  statistics: { topic_count: number; comment_count: number };
  last_post: { created: string; name: string | null; uid: number | null } | null;
}

interface ForumAttributes {
  drupal_internal__tid: number;
  name: string;
  description: { value: string };
  weight: number;
  forum_container: boolean;
  subscribed: boolean;
  statistics: Forum['statistics'];
  last_post: Forum['last_post'];
}

export interface TopicAttributes {
  drupal_internal__nid: number;
  title: string;
  body: { value: string; processed: string };
  created: string;
  changed: string;
  sticky: boolean;
  status: boolean;
  locked: boolean;
  comment_forum: { comment_count: number; last_comment_timestamp: string | null };
  author_name: string | null;
}
export type Topic = Resource<TopicAttributes>;

export interface CommentAttributes {
  drupal_internal__cid: number;
  subject: string;
  comment_body: { value: string; processed: string };
  created: string;
  status: boolean;
  author_name: string | null;
}
export type Comment = Resource<CommentAttributes>;

export const forumKeys = {
  forums: ['forum', 'forums'] as const,
  topics: (forumId: string) => ['forum', 'topics', forumId] as const,
  list: (kind: string, q: string, forum: string | null, page: number) =>
    ['forum', 'list', kind, q, forum, page] as const,
  topic: (id: string) => ['forum', 'topic', id] as const,
  comments: (id: string, search: string, page: number) => ['forum', 'comments', id, search, page] as const,
};

export function useForums() {
  return useQuery({
    queryKey: forumKeys.forums,
    queryFn: async (): Promise<Forum[]> => {
      const doc = await apiRequest<Collection<ForumAttributes>>('/jsonapi/taxonomy_term/forums');
      return doc.data.map((f) => {
        const parent = (f.relationships.parent?.data as Identifier[] | null)?.[0]?.id ?? 'virtual';
        return {
          uuid: f.id,
          tid: f.attributes.drupal_internal__tid,
          name: f.attributes.name,
          description: f.attributes.description.value,
          weight: f.attributes.weight,
          container: f.attributes.forum_container,
          parent: parent === 'virtual' ? null : parent,
          children: ((f.relationships.children?.data as Identifier[] | null) ?? []).map((c) => c.id),
          subscribed: f.attributes.subscribed,
          statistics: f.attributes.statistics,
          last_post: f.attributes.last_post,
        };
      });
    },
  });
}

/** A topic of the JSON:API list in the shape of the phpsdk list (the fallback of spec B 4). */
export function summaryOf(t: Topic, forumId: string): ForumTopicSummary {
  return {
    uuid: t.id,
    nid: t.attributes.drupal_internal__nid,
    title: t.attributes.title,
    changed: t.attributes.changed,
    created: t.attributes.created,
    sticky: t.attributes.sticky,
    promote: false,
    locked: t.attributes.locked,
    status: t.attributes.status,
    body: t.attributes.body.value,
    author: t.attributes.author_name
      ? { uuid: '', uid: 0, name: t.attributes.author_name, created: '', changed: '', image: null }
      : null,
    comment_forum: {
      comment_count: t.attributes.comment_forum.comment_count,
      last_comment_name: null,
      last_comment_date: t.attributes.comment_forum.last_comment_timestamp,
      last_comment_uid: null,
    },
    forumParent: forumId,
  };
}

/** A page of a forum's topics: GET /phpsdk/forum-topics/{id} (204: none); on failure the JSON:API list. */
export async function fetchForumTopics(forumId: string, page: number): Promise<ForumTopicSummary[]> {
  try {
    const list = await apiRequest<ForumTopicSummary[] | undefined>(
      `/phpsdk/forum-topics/${encodeURIComponent(forumId)}`,
      { format: 'json', query: { page: page > 0 ? page : undefined } },
    );
    return list ?? [];
  } catch {
    const doc = await apiRequest<Collection<TopicAttributes>>('/jsonapi/node/forum', {
      query: {
        'filter[taxonomy_forums.id]': forumId,
        sort: '-sticky,-changed',
        'page[limit]': FORUM_TOPICS_PAGE_SIZE,
        'page[offset]': FORUM_TOPICS_PAGE_SIZE * page,
      },
    });
    return doc.data.map((t) => summaryOf(t, forumId));
  }
}

export function useForumTopics(forumId: string, page: number) {
  return useQuery({
    queryKey: [...forumKeys.topics(forumId), page],
    queryFn: () => fetchForumTopics(forumId, page),
    placeholderData: keepPreviousData,
  });
}

export type TopicListKind = 'search' | 'new' | 'most-popular' | 'unanswered';

/** Topic search (title contains, optional forum; 20 per page) and the three sidebar lists. */
export function useTopicList(
  kind: TopicListKind,
  q: string,
  forum: string | null,
  page: number,
  enabled = true,
) {
  return useQuery({
    queryKey: forumKeys.list(kind, q, forum, page),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: () => {
      const query: Record<string, string | number> = {
        include: 'uid',
        'page[limit]': FORUM_TOPICS_PAGE_SIZE,
        'page[offset]': FORUM_TOPICS_PAGE_SIZE * page,
      };
      if (q) {
        query['filter[title][value]'] = q;
        query['filter[title][operator]'] = 'CONTAINS';
      }
      if (forum) query['filter[taxonomy_forums.id]'] = forum;
      if (kind === 'new') query.sort = '-created';
      if (kind === 'most-popular') query.sort = '-comment_forum.comment_count,-created';
      if (kind === 'unanswered') {
        query['filter[comment_forum.comment_count]'] = 0;
        query.sort = '-created';
      }
      return apiRequest<Collection<TopicAttributes>>('/jsonapi/node/forum', { query });
    },
  });
}

export interface TopicDocument {
  data: Topic;
  meta: { subscribed: boolean; forum: { uuid: string; name: string }; moderator: boolean };
}

export function useTopic(id: string) {
  return useQuery({
    queryKey: forumKeys.topic(id),
    queryFn: () =>
      apiRequest<TopicDocument>(`/jsonapi/node/forum/${encodeURIComponent(id)}`, {
        query: { include: 'uid,uid.user_picture' },
      }),
    retry: false,
  });
}

/** One page of a topic's comments, sorted by created; with a search, subject or body contains. */
export function fetchComments(topicId: string, search: string, page: number) {
  const query: Record<string, string | number> = {
    'filter[entity_id.id]': topicId,
    include: 'uid',
    'page[limit]': FORUM_COMMENTS_PAGE_SIZE,
    'page[offset]': FORUM_COMMENTS_PAGE_SIZE * page,
    sort: 'created',
  };
  if (search) {
    Object.assign(query, {
      'filter[or][group][conjunction]': 'OR',
      'filter[subject][condition][path]': 'subject',
      'filter[subject][condition][operator]': 'CONTAINS',
      'filter[subject][condition][value]': search,
      'filter[subject][condition][memberOf]': 'or',
      'filter[body][condition][path]': 'comment_body.value',
      'filter[body][condition][operator]': 'CONTAINS',
      'filter[body][condition][value]': search,
      'filter[body][condition][memberOf]': 'or',
      sort: 'created,pid',
    });
  }
  return apiRequest<Collection<CommentAttributes>>('/jsonapi/comment/comment_forum', { query });
}

export function useComments(topicId: string, search: string, page: number) {
  return useQuery({
    queryKey: forumKeys.comments(topicId, search, page),
    queryFn: () => fetchComments(topicId, search, page),
    placeholderData: keepPreviousData,
  });
}

export async function createTopic(forumId: string, title: string, body: string): Promise<Topic> {
  const doc = await apiRequest<{ data: Topic }>('/jsonapi/node/forum', {
    method: 'POST',
    body: {
      data: {
        type: FORUM_TOPIC_TYPE,
        attributes: { title, body: { value: body, format: 'basic_html' } },
        relationships: { taxonomy_forums: { data: { type: FORUM_TERM_TYPE, id: forumId } } },
      },
    },
  });
  return doc.data;
}

export async function createComment(input: {
  topicId: string;
  body: string;
  subject: string;
  parentId: string | null;
  userUuid: string | null;
}): Promise<Comment> {
  const doc = await apiRequest<{ data: Comment }>('/jsonapi/comment/comment_forum', {
    method: 'POST',
    body: {
      data: {
        type: FORUM_COMMENT_TYPE,
        attributes: {
          subject: input.subject,
          entity_type: 'node',
          field_name: 'comment_forum',
          comment_body: { value: input.body, format: 'basic_html' },
        },
        relationships: {
          entity_id: { data: { type: FORUM_TOPIC_TYPE, id: input.topicId } },
          ...(input.parentId ? { pid: { data: { type: FORUM_COMMENT_TYPE, id: input.parentId } } } : {}),
          ...(input.userUuid ? { uid: { data: { type: USER_TYPE, id: input.userUuid } } } : {}),
        },
      },
    },
  });
  return doc.data;
}

export async function setSubscription(
  entityType: 'node' | 'taxonomy_term',
  node: string,
  user: string,
  subscribe: boolean,
): Promise<{ subscribed: boolean }> {
  return apiRequest<{ subscribed: boolean }>('/api/subscribe-list', {
    method: 'POST',
    format: 'json',
    body: { entity_type: entityType, type: subscribe ? 'subscribe' : 'unsubscribe', node, user },
  });
}

export function useSubscription(node: string, enabled: boolean) {
  return useQuery({
    queryKey: ['forum', 'subscription', node],
    enabled,
    queryFn: () =>
      apiRequest<{ subscribed: boolean }>('/api/subscribe-list', { query: { node }, format: 'json' }),
  });
}

export function moderateTopic(
  id: string,
  attributes: { status?: boolean; sticky?: boolean; locked?: boolean },
) {
  return apiRequest(`/jsonapi/node/forum/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { data: { type: FORUM_TOPIC_TYPE, id, attributes } },
  });
}
export function deleteTopic(id: string) {
  return apiRequest(`/jsonapi/node/forum/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
export function moderateComment(id: string, status: boolean) {
  return apiRequest(`/jsonapi/comment/comment_forum/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { data: { type: FORUM_COMMENT_TYPE, id, attributes: { status } } },
  });
}
export function deleteComment(id: string) {
  return apiRequest(`/jsonapi/comment/comment_forum/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Invalidates every forum query after a write (lists, counts, the topic). */
export function useInvalidateForum() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['forum'] });
}
