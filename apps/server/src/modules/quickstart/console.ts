import {
  STORY_STATES,
  type Story,
  type StoryFields,
  type StoryListItem,
  type StoryState,
} from '@portico/contracts/console-quickstart';
import { en } from '@portico/contracts/messages';
import { quickstartStepSchema, type QuickstartStep } from '@portico/contracts/quickstart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { HttpErrorList } from '../../jsonapi/errors.ts';
import type { ZodIssue } from '../../lib/zod-language.ts';
import { escapeLike } from '../../jsonapi/kysely.ts';
import { pageParam, searchParam } from '../../lib/console-edits.ts';
import { badRequest } from '../../lib/errors.ts';
import { translationsOf } from '../../lib/translations.ts';
import { parseBody } from '../../lib/validation.ts';
import { publishAtOf, versioned, versionedRoutes, whereState } from '../../lib/versioned-content.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { actorOf } from '../audit/service.ts';
import { STORIES_FILE } from './importer.ts';
import { quickstartDb } from './tables.ts';
import { STORY_TRANSLATION_TYPE, storyTranslationRoutes } from './translations.ts';
import { UUID } from '../../lib/ids.ts';

/**
 * Quick Start stories edited in the provider console (README.md 'Console'): content editors and
 * administrators list, create, update, schedule, publish and delete the stories of the guided
 * tour. A story is versioned content (lib/versioned-content.ts): every save stores a revision and
 * raises its version, a stale save is refused with 409 and what differs, and a scheduled story is
 * published once, on one instance, when its time comes. Developers see published stories only.
 */

const M = en.console.quickstart;
const ROLE = 'content_editor';
const BASE = '/admin-api/content/quickstart';

/** The lock the stories import takes (importer.ts): console saves and imports never interleave. */
export const QUICKSTART_LOCK = sql`select pg_advisory_xact_lock(hashtext('portico:quickstart-content'))`;

const FIELD_NAMES = [
  'title',
  'weight',
  'disableForAnonymous',
  'steps',
  'state',
  'publishAt',
] as const satisfies readonly (keyof StoryFields)[];

const WEIGHT = z.number().int().min(-1_000_000).max(1_000_000);
const fieldsSchema = z
  .object({
    title: z.string().trim().min(1).max(200),
    /** Left out: a new story comes last, a saved one keeps its place. */
    weight: WEIGHT.optional(),
    disableForAnonymous: z.boolean().default(false),
    /** Each step is checked with quickstartStepSchema, every problem reported (checkedSteps). */
    steps: z.array(z.unknown()).min(1).max(50),
    state: z.enum(STORY_STATES).default('draft'),
    publishAt: z.iso.datetime({ offset: true }).nullable().default(null),
  })
  .strict();
type StoryInput = z.output<typeof fieldsSchema>;
const saveSchema = fieldsSchema.extend({ version: z.number().int().positive().optional() }).strict();

interface StoryRecord {
  id: number;
  uuid: string;
  version: number;
  created: Date;
  changed: Date;
  editedAt: Date | null;
  imported: boolean;
  fields: StoryFields;
}

function storyQuery(db: Db) {
  return quickstartDb(db)
    .selectFrom('quickstart_stories')
    .select([
      'id',
      'uuid',
      'version',
      'weight',
      'title',
      'steps',
      'disable_for_anonymous',
      'published',
      'publish_at',
      'source_hash',
      'created',
      'changed',
      'edited_at',
    ]);
}
type StoryRow = Awaited<ReturnType<ReturnType<typeof storyQuery>['executeTakeFirstOrThrow']>>;

function stateOf(published: boolean, publishAt: Date | null): StoryState {
  if (published) return 'published';
  return publishAt ? 'scheduled' : 'draft';
}

function recordOf(r: StoryRow): StoryRecord {
  const publishAt = r.publish_at ? new Date(r.publish_at) : null;
  return {
    id: r.id,
    uuid: r.uuid,
    version: r.version,
    created: new Date(r.created),
    changed: new Date(r.changed),
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    imported: r.source_hash !== null,
    fields: {
      title: r.title,
      weight: r.weight,
      disableForAnonymous: r.disable_for_anonymous,
      steps: typeof r.steps === 'string' ? (JSON.parse(r.steps) as QuickstartStep[]) : r.steps,
      state: stateOf(r.published, publishAt),
      publishAt: !r.published && publishAt ? publishAt.toISOString() : null,
    },
  };
}

async function findStory(db: Db, uuid: string, lock = false): Promise<StoryRecord | undefined> {
  if (!UUID.test(uuid)) return undefined;
  let q = storyQuery(db).where('uuid', '=', uuid.toLowerCase());
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  return row ? recordOf(row) : undefined;
}

function storyJson(s: StoryRecord): Story {
  return {
    id: s.uuid,
    version: s.version,
    created: s.created.toISOString(),
    changed: s.changed.toISOString(),
    editedAt: s.editedAt?.toISOString() ?? null,
    sourceFile: s.imported ? STORIES_FILE : null,
    ...s.fields,
  };
}

/**
 * The steps checked with the contracts' step schema: every problem at once (400, each with its
 * pointer, such as /steps/3/target).
 */
function checkedSteps(steps: readonly unknown[]): QuickstartStep[] {
  const out: QuickstartStep[] = [];
  const entries: { detail: string; pointer: string }[] = [];
  const issues: ZodIssue[] = [];
  for (const [i, step] of steps.entries()) {
    const parsed = quickstartStepSchema.safeParse(step, { reportInput: true });
    if (parsed.success) out.push(parsed.data);
    else
      for (const issue of parsed.error.issues) {
        issues.push(issue);
        const path = [i, ...issue.path].map(String);
        entries.push({
          detail: `steps.${path.join('.')}: ${issue.message}`,
          pointer: `/steps/${path.join('/')}`,
        });
      }
  }
  if (entries.length)
    throw new HttpErrorList(
      400,
      M.errors.stepsInvalid.replace('{{problems}}', entries.map((e) => e.detail).join('; ')),
      entries,
      { code: 'invalid_input', issues },
    );
  return out;
}

/** The row's columns for `input` (a new story's place: last). */
async function columnsOf(trx: Db, input: StoryInput, existing: StoryRecord | undefined) {
  const steps = checkedSteps(input.steps);
  const publishAt = publishAtOf(input);
  let weight = input.weight ?? existing?.fields.weight;
  if (weight === undefined) {
    const last = await quickstartDb(trx)
      .selectFrom('quickstart_stories')
      .select((eb) => eb.fn.max('weight').as('w'))
      .executeTakeFirst();
    weight = last?.w === null || last?.w === undefined ? 0 : Number(last.w) + 1;
  }
  return {
    title: input.title,
    weight,
    disable_for_anonymous: input.disableForAnonymous,
    steps: JSON.stringify(steps),
    published: input.state === 'published',
    publish_at: publishAt,
  };
}

/** The fields a request sent, completed from the current story where it left them out. */
function sentFields(input: StoryInput, current: StoryRecord): StoryFields {
  return {
    title: input.title,
    weight: input.weight ?? current.fields.weight,
    disableForAnonymous: input.disableForAnonymous,
    steps: input.steps as QuickstartStep[],
    state: input.state,
    publishAt: input.state === 'scheduled' ? input.publishAt : null,
  };
}

/** Audit values: the fields less the steps (their count instead), and the version. */
function auditValue(s: StoryRecord) {
  const { steps, ...rest } = s.fields;
  return { ...rest, steps: steps.length, version: s.version };
}

/** Quick Start stories as versioned content (lib/versioned-content.ts). */
export const storyContent = versioned<StoryFields, StoryRecord, StoryInput>({
  kind: 'quickstart_story',
  role: ROLE,
  messages: {
    forbidden: M.forbidden,
    notFound: M.notFound,
    stale: M.errors.stale,
    versionNeeded: en.console.content.errors.versionNeeded,
    noRevision: en.console.content.errors.noRevision,
  },
  lock: QUICKSTART_LOCK,
  find: findStory,
  ref: (s) => s.id,
  id: (s) => s.uuid,
  json: storyJson,
  fieldNames: FIELD_NAMES,
  lineFields: [],
  async store(trx, input, before) {
    const values = await columnsOf(trx, input, before);
    await quickstartDb(trx)
      .updateTable('quickstart_stories')
      .set((eb) => ({
        ...values,
        changed: new Date(),
        edited_at: new Date(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', before.id)
      .execute();
  },
  async remove(trx, s) {
    await quickstartDb(trx).deleteFrom('quickstart_stories').where('id', '=', s.id).execute();
    await translationsOf(trx).removeItems(STORY_TRANSLATION_TYPE, [s.uuid]);
  },
  sentFields,
  publishes: (input, before) => input.state === 'published' && before.fields.state !== 'published',
  audit: {
    targetType: 'quickstart_story',
    label: (s) => s.fields.title,
    value: auditValue,
    created: 'quickstart_story.created',
    updated: 'quickstart_story.updated',
    published: 'quickstart_story.published',
    restored: 'quickstart_story.restored',
    deleted: 'quickstart_story.deleted',
  },
  schedule: { table: 'quickstart_stories', what: 'scheduled Quick Start story publication' },
});

/** Publishes the scheduled stories whose time has come, once (lib/versioned-content.ts). */
export const publishDueStories = (db: Db) => storyContent.publishDue(db);

/** The console's story routes (README.md 'Console'). */
export async function consoleStoryRoutes(app: FastifyInstance): Promise<void> {
  const guard = (request: FastifyRequest) => requireProviderRole(request, ROLE, M.forbidden);

  app.get<{ Querystring: Record<string, unknown> }>(BASE, async (request, reply) => {
    guard(request);
    const q = request.query;
    const limit = pageParam(q['page[limit]'], 'page[limit]', 50, 200) || 50;
    const offset = pageParam(q['page[offset]'], 'page[offset]', 0, 1_000_000);
    const state = q.state;
    if (state !== undefined && state !== '' && !(STORY_STATES as readonly unknown[]).includes(state))
      throw badRequest(`state must be one of ${STORY_STATES.join(', ')}.`, 'state');
    const search = searchParam(q.q);
    let qb = storyQuery(app.db).where(whereState(state));
    if (search) qb = qb.where(sql<boolean>`lower(title) like ${`%${escapeLike(search.toLowerCase())}%`}`);
    const [rows, count] = await Promise.all([
      // The tour's order (service.ts).
      qb.orderBy('weight').orderBy('title').orderBy('id').limit(limit).offset(offset).execute(),
      qb
        .clearSelect()
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    reply.header('Cache-Control', 'no-store');
    const data: StoryListItem[] = rows.map((r) => {
      const s = recordOf(r);
      return {
        id: s.uuid,
        title: s.fields.title,
        weight: s.fields.weight,
        steps: s.fields.steps.length,
        state: s.fields.state,
        publishAt: s.fields.publishAt,
        version: s.version,
        changed: s.changed.toISOString(),
      };
    });
    return { data, meta: { count: Number(count.n) } };
  });

  app.post(BASE, async (request, reply) => {
    guard(request);
    const input = parseBody(fieldsSchema, request.body);
    const story = await storyContent.create(app.db, actorOf(request), async (trx) => {
      const values = await columnsOf(trx, input, undefined);
      const row = await quickstartDb(trx)
        .insertInto('quickstart_stories')
        .values({ uuid: crypto.randomUUID(), ...values, source_hash: null, edited_at: new Date() })
        .returning('uuid')
        .executeTakeFirstOrThrow();
      return row.uuid;
    });
    return storyContent.send(reply, story, 201);
  });

  versionedRoutes(app, storyContent, BASE, (body) => {
    const { version, ...input } = parseBody(saveSchema, body);
    return { version, input };
  });

  // The story's translations (decision 064): overlays over its title and steps' contents.
  storyTranslationRoutes(app, async (db, id) => {
    const story = await findStory(db, id);
    return story && { uuid: story.uuid, title: story.fields.title, steps: story.fields.steps };
  });
}
