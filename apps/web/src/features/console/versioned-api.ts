import type { FieldChange } from '@portico/contracts/console-content';
import { apiRequest } from '../../lib/api-client';
import type { RevisionItem } from './editing';

/**
 * The calls of one kind of versioned console item, all alike (articles, pages, FAQ questions,
 * Quick Start stories): a list filtered by state and text, one item, create (POST), save (PATCH
 * with the version edited), delete (If-Match), and the revisions with their comparison and restore.
 */
export interface ListQuery {
  state?: string;
  q?: string;
  limit: number;
  offset: number;
  /** More filters of this kind of item (the FAQ's category). */
  [filter: string]: string | number | undefined;
}

export function versionedApi<T, F, R>(base: string) {
  const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
  return {
    list: ({ limit, offset, ...filters }: ListQuery) =>
      apiRequest<{ data: R[]; meta: { count: number } }>(base, {
        format: 'json',
        query: {
          ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v || undefined])),
          'page[limit]': limit,
          'page[offset]': offset,
        },
      }),
    get: (id: string) => apiRequest<{ data: T }>(one(id), { format: 'json' }),
    create: (fields: F) => apiRequest<{ data: T }>(base, { method: 'POST', format: 'json', body: fields }),
    save: (id: string, fields: F, version: number) =>
      apiRequest<{ data: T }>(one(id), { method: 'PATCH', format: 'json', body: { ...fields, version } }),
    remove: (id: string, version: number) =>
      apiRequest<undefined>(one(id), {
        method: 'DELETE',
        format: 'json',
        headers: { 'If-Match': `"${version}"` },
      }),
    listRevisions: (id: string) =>
      apiRequest<{ data: RevisionItem[] }>(`${one(id)}/revisions`, { format: 'json' }),
    getRevision: (id: string, version: number) =>
      apiRequest<{
        data: RevisionItem & { fields: F; changes: FieldChange<keyof F & string>[] };
      }>(`${one(id)}/revisions/${version}`, { format: 'json' }),
    restoreRevision: (id: string, revision: number, version: number) =>
      apiRequest<{ data: T }>(`${one(id)}/revisions/${revision}/restore`, {
        method: 'POST',
        format: 'json',
        body: { version },
      }),
  };
}
