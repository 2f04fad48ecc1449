/** The console's page calls (apps/server/src/modules/pages/README.md 'Console'). */

export {
  PAGE_STATES,
  type FieldChange,
  type PageFields,
  type PageState,
} from '@portico/contracts/console-pages';
import type { PageFields, PageState } from '@portico/contracts/console-pages';
import { versionedApi } from './versioned-api';

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

/** The page calls (versioned-api.ts). */
export const pagesApi = versionedApi<ConsolePage, PageFields, PageListItem>('/admin-api/content/pages');
