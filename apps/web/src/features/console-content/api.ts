import { apiRequest } from '../../lib/api-client';

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

export type { FieldChange } from '@portico/contracts/console-content';
import type { FieldChange } from '@portico/contracts/console-content';

export interface Revision {
  version: number;
  author: string | null;
  created: string;
  current: boolean;
}

const BASE = '/admin-api/content/articles';

export const listArticles = (query: { state?: string; q?: string; limit: number; offset: number }) =>
  apiRequest<{ data: ArticleListItem[]; meta: { count: number } }>(BASE, {
    format: 'json',
    query: {
      state: query.state || undefined,
      q: query.q || undefined,
      'page[limit]': query.limit,
      'page[offset]': query.offset,
    },
  });

export const getArticle = (id: string) =>
  apiRequest<{ data: Article }>(`${BASE}/${encodeURIComponent(id)}`, { format: 'json' });

export const listCategories = () =>
  apiRequest<{ data: { id: string; name: string }[] }>('/admin-api/content/categories', { format: 'json' });

export const createArticle = (fields: ArticleFields) =>
  apiRequest<{ data: Article }>(BASE, { method: 'POST', format: 'json', body: fields });

export const saveArticle = (id: string, fields: ArticleFields, version: number) =>
  apiRequest<{ data: Article }>(`${BASE}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    format: 'json',
    body: { ...fields, version },
  });

export const deleteArticle = (id: string, version: number) =>
  apiRequest<undefined>(`${BASE}/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    format: 'json',
    headers: { 'If-Match': `"${version}"` },
  });

export const listRevisions = (id: string) =>
  apiRequest<{ data: Revision[] }>(`${BASE}/${encodeURIComponent(id)}/revisions`, { format: 'json' });

export const getRevision = (id: string, version: number) =>
  apiRequest<{ data: Revision & { fields: ArticleFields; changes: FieldChange<keyof ArticleFields>[] } }>(
    `${BASE}/${encodeURIComponent(id)}/revisions/${version}`,
    { format: 'json' },
  );

export const restoreRevision = (id: string, revision: number, version: number) =>
  apiRequest<{ data: Article }>(`${BASE}/${encodeURIComponent(id)}/revisions/${revision}/restore`, {
    method: 'POST',
    format: 'json',
    body: { version },
  });

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

export const listFaqs = (query: {
  category?: string;
  state?: string;
  q?: string;
  limit: number;
  offset: number;
}) =>
  apiRequest<{ data: FaqListItem[]; meta: { count: number } }>(FAQS, {
    format: 'json',
    query: {
      category: query.category || undefined,
      state: query.state || undefined,
      q: query.q || undefined,
      'page[limit]': query.limit,
      'page[offset]': query.offset,
    },
  });

export const getFaq = (id: string) =>
  apiRequest<{ data: FaqQuestion }>(`${FAQS}/${encodeURIComponent(id)}`, { format: 'json' });

export const createFaq = (fields: FaqFields) =>
  apiRequest<{ data: FaqQuestion }>(FAQS, { method: 'POST', format: 'json', body: fields });

export const saveFaq = (id: string, fields: FaqFields, version: number) =>
  apiRequest<{ data: FaqQuestion }>(`${FAQS}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    format: 'json',
    body: { ...fields, version },
  });

export const deleteFaq = (id: string, version: number) =>
  apiRequest<undefined>(`${FAQS}/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    format: 'json',
    headers: { 'If-Match': `"${version}"` },
  });

export const reorderFaqs = (ids: string[]) =>
  apiRequest<undefined>(`${FAQS}/reorder`, { method: 'POST', format: 'json', body: { ids } });

export const listFaqRevisions = (id: string) =>
  apiRequest<{ data: Revision[] }>(`${FAQS}/${encodeURIComponent(id)}/revisions`, { format: 'json' });

export const getFaqRevision = (id: string, version: number) =>
  apiRequest<{ data: Revision & { fields: FaqFields; changes: FieldChange<keyof FaqFields>[] } }>(
    `${FAQS}/${encodeURIComponent(id)}/revisions/${version}`,
    { format: 'json' },
  );

export const restoreFaqRevision = (id: string, revision: number, version: number) =>
  apiRequest<{ data: FaqQuestion }>(`${FAQS}/${encodeURIComponent(id)}/revisions/${revision}/restore`, {
    method: 'POST',
    format: 'json',
    body: { version },
  });

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
