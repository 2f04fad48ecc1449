import { apiRequest } from '../../lib/api-client';

/** The console's page calls (apps/server/src/modules/pages/README.md 'Console'). */

export {
  PAGE_STATES,
  type FieldChange,
  type PageFields,
  type PageState,
} from '@portico/contracts/console-pages';
import type { FieldChange, PageFields, PageState } from '@portico/contracts/console-pages';
import type { RevisionItem } from './editing';

export interface ConsolePage extends PageFields {
  id: string;
  version: number;
  created: string;
  changed: string;
  editedAt: string | null;
  sourceFile: string | null;
}

export interface PageListItem {
  id: string;
  title: string;
  path: string;
  state: PageState;
  version: number;
  changed: string;
}

const BASE = '/admin-api/content/pages';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const listPages = (query: { state?: string; q?: string; limit: number; offset: number }) =>
  apiRequest<{ data: PageListItem[]; meta: { count: number } }>(BASE, {
    format: 'json',
    query: {
      state: query.state || undefined,
      q: query.q || undefined,
      'page[limit]': query.limit,
      'page[offset]': query.offset,
    },
  });

export const getPage = (id: string) => apiRequest<{ data: ConsolePage }>(one(id), { format: 'json' });

export const createPage = (fields: PageFields) =>
  apiRequest<{ data: ConsolePage }>(BASE, { method: 'POST', format: 'json', body: fields });

export const savePage = (id: string, fields: PageFields, version: number) =>
  apiRequest<{ data: ConsolePage }>(one(id), {
    method: 'PATCH',
    format: 'json',
    body: { ...fields, version },
  });

export const deletePage = (id: string, version: number) =>
  apiRequest<undefined>(one(id), {
    method: 'DELETE',
    format: 'json',
    headers: { 'If-Match': `"${version}"` },
  });

export const listPageRevisions = (id: string) =>
  apiRequest<{ data: RevisionItem[] }>(`${one(id)}/revisions`, { format: 'json' });

export const getPageRevision = (id: string, version: number) =>
  apiRequest<{ data: RevisionItem & { fields: PageFields; changes: FieldChange<keyof PageFields>[] } }>(
    `${one(id)}/revisions/${version}`,
    { format: 'json' },
  );

export const restorePageRevision = (id: string, revision: number, version: number) =>
  apiRequest<{ data: ConsolePage }>(`${one(id)}/revisions/${revision}/restore`, {
    method: 'POST',
    format: 'json',
    body: { version },
  });
