/** The console's page calls (apps/server/src/modules/pages/README.md 'Console'). */

export {
  PAGE_STATES,
  type FieldChange,
  type PageFields,
  type PageListItem,
  type PageState,
} from '@portico/contracts/console-pages';
import type { PageFields, PageListItem } from '@portico/contracts/console-pages';
import { versionedApi } from './versioned-api';

export interface ConsolePage extends PageFields {
  id: string;
  version: number;
  created: string;
  changed: string;
  editedAt: string | null;
  sourceFile: string | null;
}

/** The page calls (versioned-api.ts). */
export const pagesApi = versionedApi<ConsolePage, PageFields, PageListItem>('/admin-api/content/pages');
