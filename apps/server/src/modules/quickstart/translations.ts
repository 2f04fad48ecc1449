import type { FastifyInstance } from 'fastify';
import { en } from '@portico/contracts/messages';
import type { Locale } from '@portico/contracts/locales';
import type { QuickstartStep } from '@portico/contracts/quickstart';
import type { Db } from '../../db/client.ts';
import { overlayTranslations, type Overlay } from '../../lib/translation-overlay.ts';
import type { TranslationMarker } from '../../lib/translations.ts';

/**
 * The Quick Start stories' translations (decision 064): one overlay per story and language in
 * `content_translations` (`entity_type` 'quickstart_story', `entity_id` the story's uuid) over
 * `{ title, steps }`: the title and each step's content (never a selector, path or style).
 */

export const STORY_TRANSLATION_TYPE = 'quickstart_story';

/** The translatable part of a story: what its overlay's pointers name. */
export interface StoryText {
  title: string;
  steps: QuickstartStep[];
}

const storyOverlays = overlayTranslations<StoryText>({
  type: STORY_TRANSLATION_TYPE,
  kind: { texts: ['title', 'content'], max: 2000 },
});

/** The stories in the reader's language, each with its translation marker (one query). */
export async function storiesIn<S extends StoryText & { uuid: string }>(
  db: Db,
  stories: readonly S[],
  langcode: Locale,
): Promise<(S & { translation: TranslationMarker })[]> {
  const shown = await storyOverlays.shownIn(
    db,
    stories.map((s) => [s.uuid, { title: s.title, steps: s.steps }] as const),
    langcode,
  );
  return stories.map((s, i) => ({ ...s, ...shown[i]!.doc, translation: shown[i]!.translation }));
}

/** A story's `translations` block of the content file (lib/translation-overlay.ts). */
export const importStoryTranslations = storyOverlays.importFor;

/** Every story's overlays by uuid and language, for the export's `translations` blocks. */
export async function exportStoryTranslations(
  db: Db,
  stories: readonly (StoryText & { uuid: string })[],
): Promise<Map<string, Record<string, Overlay>>> {
  const out = new Map<string, Record<string, Overlay>>();
  for (const { uuid, title, steps } of stories) {
    const overlays = await storyOverlays.exportFor(db, uuid, { title, steps });
    if (overlays) out.set(uuid, overlays);
  }
  return out;
}

/**
 * The console's routes: `GET /admin-api/content/quickstart/{id}/translations`, `PUT` and `DELETE
 * …/{langcode}`, for those who edit the stories, over the story's title and steps as edited.
 */
export function storyTranslationRoutes(
  app: FastifyInstance,
  find: (db: Db, id: string) => Promise<(StoryText & { uuid: string }) | undefined>,
): void {
  storyOverlays.routes(app, {
    base: '/admin-api/content/quickstart',
    role: 'content_editor',
    messages: { forbidden: en.console.quickstart.forbidden, notFound: en.console.quickstart.notFound },
    async find(db, id) {
      const story = await find(db, id);
      return story && { id: story.uuid, label: story.title, doc: { title: story.title, steps: story.steps } };
    },
  });
}
