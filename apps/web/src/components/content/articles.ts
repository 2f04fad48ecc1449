import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { BLOG_PAGE_SIZE } from '@portico/contracts/constants';
import { apiRequest } from '../../lib/api-client';
import { readerLanguage, type TranslationMarker } from './translation';

/** Blog calls of spec B 7: GET /jsonapi/node/article and /jsonapi/taxonomy_term/news_categories. */

interface Ref {
  type: string;
  id: string;
}
interface ArticleResource {
  type: 'node--article';
  id: string;
  attributes: {
    title: string;
    created: string;
    path: { alias: string } | null;
    body: { processed: string; summary: string } | null;
    field_description: string;
    field_scrollspy_visible: boolean;
  };
  meta?: { translation?: TranslationMarker };
  relationships: {
    field_category: { data: Ref | null };
    field_image: { data: (Ref & { meta?: { alt?: string } }) | null };
    uid: { data: Ref | null };
  };
}
interface Included {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: Ref | null }>;
  meta?: { translation?: TranslationMarker };
}
interface ArticleDocument {
  data: ArticleResource[];
  included?: Included[];
  links: { next?: { href: string } };
  meta: { count: number };
}

/** An article as the blog shows it (spec B 3 'Article'). */
export interface Article {
  uuid: string;
  title: string;
  created: string;
  description: string;
  /** The article's path alias (its page). */
  url: string;
  body: string;
  image: { url: string; alt: string } | null;
  /** Its category, with the language of its name (decision 063) when not the page's. */
  category: { uuid: string; name: string; translation: TranslationMarker | null } | null;
  author: { name: string; first_name: string | null; last_name: string | null; image: string | null } | null;
  scrollspyVisible: boolean;
  /** The language of its texts (decision 063). */
  translation: TranslationMarker | null;
}

export interface Category {
  uuid: string;
  name: string;
}

const INCLUDE = 'field_category,field_image,uid.user_picture';

/** The document's articles; those without a path are dropped (spec B 3, 5). */
export function toArticles(doc: ArticleDocument): Article[] {
  const included = new Map((doc.included ?? []).map((r) => [`${r.type}:${r.id}`, r]));
  const find = (ref: Ref | null | undefined) => (ref ? included.get(`${ref.type}:${ref.id}`) : undefined);
  return doc.data
    .filter((a) => Boolean(a.attributes.path?.alias))
    .map((a) => {
      const category = find(a.relationships.field_category.data);
      const image = find(a.relationships.field_image.data);
      const user = find(a.relationships.uid.data);
      const picture = find(user?.relationships?.user_picture?.data);
      return {
        uuid: a.id,
        title: a.attributes.title,
        created: a.attributes.created,
        description: a.attributes.field_description || a.attributes.body?.summary || '',
        url: a.attributes.path!.alias,
        body: a.attributes.body?.processed ?? '',
        image: image
          ? { url: String(image.attributes.url), alt: a.relationships.field_image.data?.meta?.alt ?? '' }
          : null,
        category: category
          ? {
              uuid: category.id,
              name: String(category.attributes.name),
              translation: category.meta?.translation ?? null,
            }
          : null,
        author: user
          ? {
              name: String(user.attributes.name),
              first_name: (user.attributes.first_name as string | null) ?? null,
              last_name: (user.attributes.last_name as string | null) ?? null,
              image: picture ? String(picture.attributes.url) : null,
            }
          : null,
        scrollspyVisible: a.attributes.field_scrollspy_visible,
        translation: a.meta?.translation ?? null,
      };
    });
}

export interface ArticleQuery {
  page: number;
  limit?: number;
  categories?: string[];
  search?: string;
  internal?: boolean;
}

/** The query string of one page: offset = limit x page, status=1, newest first, OR group of categories. */
export function articleParams(q: ArticleQuery): Record<string, string> {
  const limit = q.limit ?? BLOG_PAGE_SIZE;
  const params: Record<string, string> = {
    'page[limit]': String(limit),
    'page[offset]': String(limit * q.page),
    'filter[status]': '1',
    include: INCLUDE,
    sort: '-created',
    ...readerLanguage(),
  };
  if (q.internal !== undefined) params['filter[field_internal]'] = q.internal ? '1' : '0';
  const search = q.search?.trim();
  if (search) {
    params['filter[title][value]'] = search;
    params['filter[title][operator]'] = 'CONTAINS';
  }
  if (q.categories?.length) {
    params['filter[categories][group][conjunction]'] = 'OR';
    q.categories.forEach((id, i) => {
      params[`filter[category-${i}][condition][path]`] = 'field_category.id';
      params[`filter[category-${i}][condition][value]`] = id;
      params[`filter[category-${i}][condition][memberOf]`] = 'categories';
    });
  }
  return params;
}

export function useArticles(q: ArticleQuery) {
  return useQuery({
    queryKey: ['articles', q],
    queryFn: async () => {
      const doc = await apiRequest<ArticleDocument>('/jsonapi/node/article', { query: articleParams(q) });
      return { articles: toArticles(doc), count: doc.meta.count };
    },
    placeholderData: keepPreviousData,
  });
}

/** One article by its path alias (modules/content/README.md 'One article for its page'). */
export function useArticleByPath(path: string) {
  return useQuery({
    queryKey: ['article', path],
    queryFn: async () => {
      const doc = await apiRequest<ArticleDocument>('/jsonapi/node/article', {
        query: { 'filter[path.alias]': path.toLowerCase(), include: INCLUDE, ...readerLanguage() },
      });
      return toArticles(doc)[0] ?? null;
    },
  });
}

export function useNewsCategories() {
  return useQuery({
    queryKey: ['news-categories', readerLanguage()],
    queryFn: async () => {
      // Their names in the page's language (decision 063).
      const doc = await apiRequest<{ data: { id: string; attributes: { name: string } }[] }>(
        '/jsonapi/taxonomy_term/news_categories',
        { query: readerLanguage() },
      );
      return doc.data.map((c): Category => ({ uuid: c.id, name: c.attributes.name }));
    },
    staleTime: 5 * 60_000,
  });
}
