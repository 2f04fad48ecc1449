import type { FastifyInstance } from 'fastify';
import { en } from '@portico/contracts/messages';
import type { Locale } from '@portico/contracts/locales';
import type { QuickstartStep } from '@portico/contracts/quickstart';
import type { Db } from '../../db/client.ts';
import {
  applyOverlay,
  exportOverlays,
  importOverlays,
  overlayFields,
  type Overlay,
  type OverlayKind,
} from '../../lib/translation-overlay.ts';
import {
  markerOf,
  translationRoutes,
  translationsOf,
  type TranslationMarker,
} from '../../lib/translations.ts';

/**
 * The Quick Start stories' translations (decision 064): one overlay per story and language in
 * `content_translations` (`entity_type` 'quickstart_story', `entity_id` the story's uuid) over
 * `{ title, steps }`: the title and each step's content (never a selector, path or style).
 */

export const STORY_TRANSLATION_TYPE = 'quickstart_story';

export const STORY_OVERLAY: OverlayKind = { texts: ['title', 'content'], max: 2000 };

/** The translatable part of a story: what its overlay's pointers name. */
export interface StoryText {
  title: string;
  steps: QuickstartStep[];
}

/** The stories in the reader's language, each with its translation marker (one query). */
export async function storiesIn<S extends StoryText & { uuid: string }>(
  db: Db,
  stories: readonly S[],
  langcode: Locale,
): Promise<(S & { translation: TranslationMarker })[]> {
  const found = await translationsOf(db).overlaysOf(
    STORY_TRANSLATION_TYPE,
    stories.map((s) => s.uuid),
    langcode,
  );
  return stories.map((s) => {
    const overlay = found.get(s.uuid);
    const text = overlay
      ? applyOverlay({ title: s.title, steps: s.steps }, overlay.fields, STORY_OVERLAY, overlay.sources)
      : s;
    return { ...s, title: text.title, steps: text.steps, translation: markerOf(langcode, !!overlay) };
  });
}

/** A story's `translations` block of the content file (lib/translation-overlay.ts). */
export async function importStoryTranslations(
  db: Db,
  uuid: string,
  story: StoryText,
  block: Record<string, Overlay> | undefined,
): Promise<void> {
  await importOverlays(db, STORY_TRANSLATION_TYPE, uuid, story, STORY_OVERLAY, block);
}

/** Every story's overlays by uuid and language, for the export's `translations` blocks. */
export async function exportStoryTranslations(
  db: Db,
  stories: readonly (StoryText & { uuid: string })[],
): Promise<Map<string, Record<string, Overlay>>> {
  const out = new Map<string, Record<string, Overlay>>();
  for (const { uuid, title, steps } of stories) {
    const overlays = await exportOverlays(db, STORY_TRANSLATION_TYPE, uuid, { title, steps }, STORY_OVERLAY);
    if (overlays) out.set(uuid, overlays);
  }
  return out;
}

/**
 * The console's routes (lib/translations.ts): `GET /admin-api/content/quickstart/{id}/translations`,
 * `PUT` and `DELETE …/{langcode}`, for those who edit the stories. The fields are the story's
 * title and steps' contents as edited, each with its English.
 */
export function storyTranslationRoutes(
  app: FastifyInstance,
  find: (db: Db, id: string) => Promise<(StoryText & { uuid: string }) | undefined>,
): void {
  translationRoutes(app, {
    entityType: STORY_TRANSLATION_TYPE,
    base: '/admin-api/content/quickstart',
    role: 'content_editor',
    messages: { forbidden: en.console.quickstart.forbidden, notFound: en.console.quickstart.notFound },
    sparse: true,
    async find(db, id) {
      const story = await find(db, id);
      return (
        story && {
          ref: story.uuid,
          label: story.title,
          fields: overlayFields({ title: story.title, steps: story.steps }, STORY_OVERLAY),
        }
      );
    },
  });
}
