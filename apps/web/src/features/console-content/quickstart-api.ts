import { apiRequest } from '../../lib/api-client';

/** The console's Quick Start story calls (apps/server/src/modules/quickstart/README.md 'Console'). */

export {
  STORY_STATES,
  type Story,
  type StoryFields,
  type StoryListItem,
  type StoryState,
} from '@portico/contracts/console-quickstart';
import type { Story, StoryFields, StoryListItem } from '@portico/contracts/console-quickstart';
import type { FieldChange } from '@portico/contracts/console-content';
import type { RevisionItem } from './editing';

const BASE = '/admin-api/content/quickstart';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const listStories = (query: { state?: string; q?: string; limit: number; offset: number }) =>
  apiRequest<{ data: StoryListItem[]; meta: { count: number } }>(BASE, {
    format: 'json',
    query: {
      state: query.state || undefined,
      q: query.q || undefined,
      'page[limit]': query.limit,
      'page[offset]': query.offset,
    },
  });

export const getStory = (id: string) => apiRequest<{ data: Story }>(one(id), { format: 'json' });

export const createStory = (fields: StoryFields) =>
  apiRequest<{ data: Story }>(BASE, { method: 'POST', format: 'json', body: fields });

export const saveStory = (id: string, fields: StoryFields, version: number) =>
  apiRequest<{ data: Story }>(one(id), { method: 'PATCH', format: 'json', body: { ...fields, version } });

export const deleteStory = (id: string, version: number) =>
  apiRequest<undefined>(one(id), {
    method: 'DELETE',
    format: 'json',
    headers: { 'If-Match': `"${version}"` },
  });

export const listStoryRevisions = (id: string) =>
  apiRequest<{ data: RevisionItem[] }>(`${one(id)}/revisions`, { format: 'json' });

export const getStoryRevision = (id: string, version: number) =>
  apiRequest<{ data: RevisionItem & { fields: StoryFields; changes: FieldChange<keyof StoryFields>[] } }>(
    `${one(id)}/revisions/${version}`,
    { format: 'json' },
  );

export const restoreStoryRevision = (id: string, revision: number, version: number) =>
  apiRequest<{ data: Story }>(`${one(id)}/revisions/${revision}/restore`, {
    method: 'POST',
    format: 'json',
    body: { version },
  });
