/**
 * The Quick Start tour's constants and its enabling and progress rules (spec B 4, 9), apart from the
 * zod schema (quickstart.ts) so that the layout's Quick Start button brings no zod into the first
 * page's JavaScript.
 */
import type { QuickstartStep } from './quickstart.ts';

/** Spec B 9: the sidebar is 25% of the width; docked left 335 px or at the bottom, 20% high. */
export const QUICKSTART_SIDEBAR_WIDTH_PERCENT = 25;
export const QUICKSTART_DOCK_LEFT_PX = 335;
export const QUICKSTART_DOCK_BOTTOM_HEIGHT_PERCENT = 20;
export const QUICKSTART_SCROLL_OFFSET_PX = 150;
export const QUICKSTART_STEP_DELAY_MS = 1000;
export const QUICKSTART_START_DELAY_MS = 600;
/** The URL fragment that opens the tour, re-enabling it when the visitor cancelled it. */
export const QUICKSTART_HASH = '#quickstart';

export interface QuickstartStory {
  uuid: string;
  title: string;
  steps: QuickstartStep[];
  disableForAnonymous: boolean;
  /** Computed for the caller (storyDisabled). */
  disabled: boolean;
  /** Computed for the caller: in the signed-in user's completed stories; false when anonymous. */
  completed: boolean;
}

type StoryFacts = Pick<QuickstartStory, 'uuid' | 'disableForAnonymous'>;

/**
 * Spec B 4: a story is disabled for anonymous users if disableForAnonymous is set; for signed-in
 * users a story is enabled only if the previous story is completed or not anonymous-restricted
 * (the first story is always enabled for them).
 */
export function storyDisabled(
  stories: readonly StoryFacts[],
  index: number,
  loggedIn: boolean,
  completed: ReadonlySet<string>,
): boolean {
  const story = stories[index];
  if (!story) return true;
  if (!loggedIn) return story.disableForAnonymous;
  const previous = stories[index - 1];
  if (!previous) return false;
  return !(completed.has(previous.uuid) || !previous.disableForAnonymous);
}

/**
 * Spec B 4: progress percent = (completed stories + for signed-in users the stories not restricted
 * to anonymous) / all stories, rounded. Only completed stories that exist count, and the result
 * never passes 100.
 */
export function progressPercent(
  stories: readonly StoryFacts[],
  loggedIn: boolean,
  completed: ReadonlySet<string>,
): number {
  if (!stories.length) return 0;
  const done = stories.filter((s) => completed.has(s.uuid)).length;
  const open = loggedIn ? stories.filter((s) => !s.disableForAnonymous).length : 0;
  return Math.min(100, Math.round(((done + open) / stories.length) * 100));
}

/** The stories with disabled and completed computed for a caller. */
export function storiesFor<T extends StoryFacts>(
  stories: readonly T[],
  loggedIn: boolean,
  completed: ReadonlySet<string>,
): (T & { disabled: boolean; completed: boolean })[] {
  return stories.map((s, i) => ({
    ...s,
    disabled: storyDisabled(stories, i, loggedIn, completed),
    completed: completed.has(s.uuid),
  }));
}
