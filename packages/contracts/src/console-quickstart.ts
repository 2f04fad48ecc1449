import type { QuickstartStep } from './quickstart.ts';

/** The console's Quick Start stories (issue 27, apps/server/src/modules/quickstart/README.md 'Console'). */
export const STORY_STATES = ['draft', 'scheduled', 'published'] as const;
export type StoryState = (typeof STORY_STATES)[number];

/** The fields of a story the console edits: what a revision stores and a diff compares. */
export interface StoryFields {
  title: string;
  /** The order among the stories (smaller first). */
  weight: number;
  /** Hides the story from visitors who are not signed in. */
  disableForAnonymous: boolean;
  /** The tour's steps, in order (quickstartStepSchema). */
  steps: QuickstartStep[];
  state: StoryState;
  /** ISO date-time of a scheduled publication, else null. */
  publishAt: string | null;
}

/** A story as the console reads it (GET /admin-api/content/quickstart/:id). */
export interface Story extends StoryFields {
  id: string;
  version: number;
  created: string;
  changed: string;
  editedAt: string | null;
  sourceFile: string | null;
}

/** A row of the console's story list (GET /admin-api/content/quickstart). */
export interface StoryListItem {
  id: string;
  title: string;
  weight: number;
  steps: number;
  state: StoryState;
  publishAt: string | null;
  version: number;
  changed: string;
}
