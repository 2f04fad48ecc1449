import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import type { Db } from '../../db/client.ts';
import { STORIES_FILE } from './importer.ts';
import { quickstartDb } from './tables.ts';
import { exportStoryTranslations } from './translations.ts';

/**
 * Writes the Quick Start stories of the database back to content/quickstart/stories.yaml in the
 * format the import reads (README.md 'Console'), so that what was edited in the console can be
 * kept in git: every story in the tour's order (the file's order is the weight, and a
 * weight that differs from its place is written), drafts with
 * `published: false`, scheduled ones with `publishAt`. Returns the number of stories written.
 */
export async function exportStories(db: Db, contentDir: string): Promise<number> {
  const rows = await quickstartDb(db)
    .selectFrom('quickstart_stories')
    .select(['uuid', 'title', 'weight', 'disable_for_anonymous', 'steps', 'published', 'publish_at'])
    .orderBy('weight')
    .orderBy('title')
    .orderBy('id')
    .execute();
  const translations = await exportStoryTranslations(
    db,
    rows.map((r) => ({ uuid: r.uuid, title: r.title, steps: r.steps })),
  );
  const stories = rows.map((r, index) => ({
    uuid: r.uuid,
    title: r.title,
    // The file's order is the weight; a weight the order does not give is written out.
    ...(r.weight === index ? {} : { weight: r.weight }),
    disableForAnonymous: r.disable_for_anonymous,
    ...(r.published
      ? {}
      : r.publish_at
        ? { publishAt: new Date(r.publish_at).toISOString() }
        : { published: false }),
    steps: r.steps,
    // The story's translations (decision 064), as the import reads them.
    ...(translations.has(r.uuid) ? { translations: translations.get(r.uuid) } : {}),
  }));
  const file = path.join(contentDir, STORIES_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const header =
    '# Quick Start stories (spec B 2.15), in the order of the Quick Start sidebar. Written by\n' +
    '# `npm run portal -- export-content`; `published: false` marks a draft, `publishAt` a scheduled story, `translations` its texts in other languages.\n';
  fs.writeFileSync(file, header + stringify({ stories }, { lineWidth: 0 }));
  return stories.length;
}
