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

export const listCategories = () =>
  apiRequest<{ data: { id: string; name: string }[] }>('/admin-api/content/categories', { format: 'json' });

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

export const createFaqCategory = (name: string) =>
  apiRequest<{ data: FaqCategory }>(FAQ_CATEGORIES, { method: 'POST', format: 'json', body: { name } });

export const renameFaqCategory = (id: string, name: string) =>
  apiRequest<{ data: FaqCategory }>(`${FAQ_CATEGORIES}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    format: 'json',
    body: { name },
  });

export const reorderFaqCategories = (ids: string[]) =>
  apiRequest<undefined>(`${FAQ_CATEGORIES}/reorder`, { method: 'POST', format: 'json', body: { ids } });

export const deleteFaqCategory = (id: string) =>
  apiRequest<undefined>(`${FAQ_CATEGORIES}/${encodeURIComponent(id)}`, { method: 'DELETE', format: 'json' });
