import type { StoryFields } from '@portico/contracts/console-quickstart';
import type { QuickstartStep } from '@portico/contracts/quickstart';

/**
 * A Quick Start story's steps as its form edits them (no React): each with a key of its own, so
 * that a step keeps its fields and its focus while it moves, and the page as text ('' for none).
 */
export interface FormStep {
  key: number;
  target: string;
  content: string;
  /** '' for a step on the page of the step before. */
  navigationUrl: string;
  spotlightClicks: boolean;
  /** The tooltip's inline styles, kept as they were (the form does not edit them). */
  styles?: QuickstartStep['styles'];
}

export type StoryForm = Omit<StoryFields, 'steps'> & { steps: FormStep[] };

let nextKey = 1;

export function blankStep(): FormStep {
  return { key: nextKey++, target: 'body', content: '', navigationUrl: '', spotlightClicks: false };
}

export function formStepsOf(steps: readonly QuickstartStep[]): FormStep[] {
  return steps.map((s) => ({
    key: nextKey++,
    target: s.target,
    content: s.content,
    navigationUrl: s.navigationUrl ?? '',
    spotlightClicks: s.spotlightClicks,
    ...(s.styles ? { styles: s.styles } : {}),
  }));
}

/** The steps a save sends: without the keys, a page only when there is one. */
export function stepsOf(steps: readonly FormStep[]): QuickstartStep[] {
  return steps.map(({ target, content, navigationUrl, spotlightClicks, styles }) => ({
    target: target.trim(),
    content: content.trim(),
    ...(navigationUrl.trim() ? { navigationUrl: navigationUrl.trim() } : {}),
    ...(styles ? { styles } : {}),
    spotlightClicks,
  }));
}

/** The page each step happens on: its own, else the one of the step before (null: wherever the tour is). */
export function pagesOf(steps: readonly { navigationUrl: string }[]): (string | null)[] {
  let page: string | null = null;
  return steps.map((s) => (page = s.navigationUrl.trim() || page));
}
