/** The console's Quick Start story calls (apps/server/src/modules/quickstart/README.md 'Console'). */

export {
  STORY_STATES,
  type Story,
  type StoryFields,
  type StoryListItem,
  type StoryState,
} from '@portico/contracts/console-quickstart';
import type { Story, StoryFields, StoryListItem } from '@portico/contracts/console-quickstart';
import { versionedApi } from './versioned-api';

/** The story calls (versioned-api.ts). */
export const storiesApi = versionedApi<Story, StoryFields, StoryListItem>('/admin-api/content/quickstart');
