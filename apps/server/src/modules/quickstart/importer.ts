import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { parse } from 'yaml';
import { z } from 'zod';
import { quickstartStepSchema, type QuickstartStep } from '@portico/contracts/quickstart';
import type { ContentImporter } from '../../content/content-importer.ts';
import type { Db } from '../../db/client.ts';
import { quickstartDb } from './tables.ts';
import { importStoryTranslations } from './translations.ts';

/**
 * content/quickstart/stories.yaml: the Quick Start stories, in order. Each story keeps the uuid the
 * file gives it (users' completed stories name it). Idempotent: an unchanged story is one lookup,
 * a changed one is updated in place; nothing is removed when a story leaves the file.
 */

export const STORIES_FILE = 'quickstart/stories.yaml';

const storySchema = z
  .object({
    uuid: z.uuid(),
    title: z.string().trim().min(1).max(200),
    disableForAnonymous: z.boolean().default(false),
    /** The order among the stories; left out: the story's place in the file (0, 1, ...). */
    weight: z.number().int().min(-1_000_000).max(1_000_000).optional(),
    /** A draft (false) is shown to nobody; left out: published. */
    published: z.boolean().optional(),
    /** A scheduled publication (ISO date-time): the story stays unpublished until then. */
    publishAt: z.iso.datetime({ offset: true }).optional(),
    steps: z.array(quickstartStepSchema).min(1).max(50),
    /** The story's translations (decision 064): language to JSON pointer to text. */
    translations: z.record(z.string(), z.record(z.string(), z.string().max(2000))).optional(),
  })
  .strict();

const fileSchema = z.object({ stories: z.array(storySchema) }).strict();
export type StoryFile = z.infer<typeof fileSchema>;

/** Parses and validates the stories file; a broken file throws a message naming it. */
export function parseStoriesFile(text: string): StoryFile {
  let data: unknown;
  try {
    data = parse(text) ?? {};
  } catch (err) {
    throw new Error(`content/${STORIES_FILE} is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`content/${STORIES_FILE} is invalid:\n${issues.join('\n')}`);
  }
  const seen = new Set<string>();
  for (const s of parsed.data.stories) {
    const id = s.uuid.toLowerCase();
    if (seen.has(id)) throw new Error(`content/${STORIES_FILE}: the uuid ${s.uuid} is used twice`);
    seen.add(id);
  }
  return parsed.data;
}

/**
 * Writes the file's stories. A story edited in the console (`edited_at`) is left alone, as the
 * pages import leaves an edited page: what the browser saved wins over the file (counted as
 * unchanged).
 */
export async function importStories(
  db: Db,
  file: StoryFile,
): Promise<{ written: number; unchanged: number }> {
  const result = { written: 0, unchanged: 0 };
  await db.transaction().execute(async (trx) => {
    // Several instances starting together: one imports, the others wait and find it done.
    await sql`select pg_advisory_xact_lock(hashtext('portico:quickstart-content'))`.execute(trx);
    const q = quickstartDb(trx);
    for (const [index, { translations, ...story }] of file.stories.entries()) {
      const weight = story.weight ?? index;
      const uuid = story.uuid.toLowerCase();
      const hash = createHash('sha256')
        .update(JSON.stringify({ ...story, weight }))
        .digest('hex');
      const existing = await q
        .selectFrom('quickstart_stories')
        .select(['source_hash', 'edited_at', 'title', 'steps'])
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      if (existing?.edited_at || existing?.source_hash === hash) {
        // The translations follow the story as it is (the console's, when it was saved there).
        if (existing.edited_at) {
          const steps: QuickstartStep[] =
            typeof existing.steps === 'string' ? JSON.parse(existing.steps) : existing.steps;
          await importStoryTranslations(trx, uuid, { title: existing.title, steps }, translations);
        } else await importStoryTranslations(trx, uuid, story, translations);
        result.unchanged += 1;
        continue;
      }
      const values = {
        weight,
        title: story.title,
        steps: JSON.stringify(story.steps),
        disable_for_anonymous: story.disableForAnonymous,
        published: story.publishAt ? false : (story.published ?? true),
        publish_at: story.publishAt ?? null,
        source_hash: hash,
        changed: new Date(),
      };
      await q
        .insertInto('quickstart_stories')
        .values({ uuid, ...values })
        .onConflict((oc) =>
          oc.column('uuid').doUpdateSet({ ...values, version: sql<number>`quickstart_stories.version + 1` }),
        )
        .execute();
      await importStoryTranslations(trx, uuid, story, translations);
      result.written += 1;
    }
  });
  return result;
}

export const quickstartImporter: ContentImporter = {
  name: 'quickstart',
  async run({ db, read, log }) {
    const text = read(STORIES_FILE);
    if (text === undefined) return;
    const result = await importStories(db, parseStoriesFile(text));
    log.debug({ result }, 'quickstart content');
  },
};
