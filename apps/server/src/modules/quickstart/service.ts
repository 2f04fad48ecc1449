import type { QuickstartStory } from '@portico/contracts/quickstart';
import { storiesFor } from '@portico/contracts/quickstart';
import type { Db } from '../../db/client.ts';
import { quickstartDb } from './tables.ts';

/**
 * What other domains may ask of the Quick Start module: the stories as a caller sees them, and which
 * of some ids are stories (the identity module checks completed stories with it).
 */

/**
 * Every published story in weight then title order, with disabled and completed computed for the
 * caller (drafts and scheduled stories are the console's only).
 */
export async function storiesForCaller(
  db: Db,
  caller: { completedStories: readonly string[] } | null,
): Promise<QuickstartStory[]> {
  const rows = await quickstartDb(db)
    .selectFrom('quickstart_stories')
    .select(['uuid', 'title', 'steps', 'disable_for_anonymous'])
    .where('published', '=', true)
    .orderBy('weight')
    .orderBy('title')
    .orderBy('id')
    .execute();
  const stories = rows.map((r) => ({
    uuid: r.uuid,
    title: r.title,
    steps: r.steps,
    disableForAnonymous: r.disable_for_anonymous,
  }));
  return storiesFor(stories, caller !== null, new Set(caller?.completedStories ?? []));
}

/** The ids among `ids` that are not the uuid of a story. */
export async function unknownStoryIds(db: Db, ids: readonly string[]): Promise<string[]> {
  if (!ids.length) return [];
  const uuidLike = ids.filter((id) =>
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id),
  );
  const known = uuidLike.length
    ? await quickstartDb(db)
        .selectFrom('quickstart_stories')
        .select('uuid')
        .where(
          'uuid',
          'in',
          uuidLike.map((id) => id.toLowerCase()),
        )
        .execute()
    : [];
  const set = new Set(known.map((k) => k.uuid));
  return ids.filter((id) => !set.has(id.toLowerCase()));
}

// The console's images module finds where an image is used in this module's tables.
export { quickstartDb } from './tables.ts';
