import { apiRequest } from '../../lib/api-client';
import { versionedApi } from './versioned-api';

/** The console's article calls (modules/content/README.md 'Console'). */

export { ARTICLE_STATES, type ArticleFields, type ArticleState } from '@portico/contracts/console-content';
import type { ArticleFields, ArticleState } from '@portico/contracts/console-content';

export interface Article extends ArticleFields {
  id: string;
  version: number;
  created: string;
  changed: string;
  editedAt: string | null;
  sourceFile: string | null;
}

export interface ArticleListItem {
  id: string;
  title: string;
  path: string | null;
  state: ArticleState;
  publishAt: string | null;
  version: number;
  changed: string;
  category: string | null;
}

/** The article calls (versioned-api.ts). */
export const articlesApi = versionedApi<Article, ArticleFields, ArticleListItem>(
  '/admin-api/content/articles',
);
export const listArticles = articlesApi.list;

// News and FAQ categories (modules/content/README.md 'Console: categories'): versioned items.
export type { CategoryFields, ConsoleCategory, NewsCategory } from '@portico/contracts/console-content';
import type { CategoryFields, NewsCategory } from '@portico/contracts/console-content';

const NEWS_CATEGORIES = '/admin-api/content/categories';

/** The news category calls (versioned-api.ts); the list is the whole list, in order. */
export const newsCategoriesApi = versionedApi<NewsCategory, CategoryFields, NewsCategory>(NEWS_CATEGORIES);

export const listCategories = () => apiRequest<{ data: NewsCategory[] }>(NEWS_CATEGORIES, { format: 'json' });

/** A new category (news or FAQ, by its calls' address): its name; it comes last. */
export const createCategory = <T>(base: string, name: string) =>
  apiRequest<{ data: T }>(base, { method: 'POST', format: 'json', body: { name } });

/** Gives the categories of `base` the order of `ids` (each moved one gets a new version). */
export const reorderCategories = (base: string, ids: string[]) =>
  apiRequest<undefined>(`${base}/reorder`, { method: 'POST', format: 'json', body: { ids } });

// The FAQ (modules/content/README.md 'Console: FAQ').
export {
  FAQ_STATES,
  type FaqCategory,
  type FaqFields,
  type FaqListItem,
  type FaqQuestion,
  type FaqState,
} from '@portico/contracts/console-content';
import type { FaqCategory, FaqFields, FaqListItem, FaqQuestion } from '@portico/contracts/console-content';

const FAQS = '/admin-api/content/faqs';
const FAQ_CATEGORIES = '/admin-api/content/faq-categories';

/** The FAQ question calls (versioned-api.ts); `category` filters the list. */
export const faqsApi = versionedApi<FaqQuestion, FaqFields, FaqListItem>(FAQS);
export const listFaqs = faqsApi.list;

export const reorderFaqs = (ids: string[]) =>
  apiRequest<undefined>(`${FAQS}/reorder`, { method: 'POST', format: 'json', body: { ids } });

export const listFaqCategories = () =>
  apiRequest<{ data: FaqCategory[] }>(FAQ_CATEGORIES, { format: 'json' });

/** The FAQ category calls (versioned-api.ts). */
export const faqCategoriesApi = versionedApi<FaqCategory, CategoryFields, FaqCategory>(FAQ_CATEGORIES);

export const CATEGORY_BASES = { news: NEWS_CATEGORIES, faq: FAQ_CATEGORIES } as const;
