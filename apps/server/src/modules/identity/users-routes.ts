import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { LOCALES } from '@portico/contracts/locales';
import type { Database } from '../../db/schema.ts';
import { collectionDocument, requestUrl, sendDocument, type ResourceObject } from '../../jsonapi/document.ts';
import { JsonApiQueryError, refuseUnknownFields } from '../../jsonapi/errors.ts';
import { fetchCollection } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery } from '../../jsonapi/query.ts';
import { values, type ResourceDescription } from '../../jsonapi/resource.ts';
import { HttpError, forbidden, notFound } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { unknownStoryIds } from '../quickstart/service.ts';
import type { UserRow } from './users-repo.ts';

/**
 * `GET /jsonapi/user/user` filtered by uid, uuid or name, and `PATCH /jsonapi/user/user/{uuid}`
 * (completed Quick Start stories, the caller's own and known stories only, and names). The spec reads the current user with it: a signed-in
 * caller finds only themselves, an anonymous one nothing. It is not a directory of users.
 */

/** The filters of the user list: the web asks for the signed-in user by uid. */
export const userCollection: ResourceDescription<Database, 'users'> = {
  type: 'user--user',
  fields: {
    drupal_internal__uid: { sql: 'users.id', value: values.integer },
    id: { sql: 'users.uuid', value: values.uuid, sort: false },
    name: { sql: 'users.name', value: values.text },
  },
  tiebreaker: 'users.id',
  defaultSort: [{ path: 'drupal_internal__uid', direction: 'ASC' }],
};

const USER_PAGE = { defaultLimit: 50, maxLimit: 50 };

function userResource(user: UserRow, request: FastifyRequest): ResourceObject {
  const self = request.user?.id === user.id || request.user?.isAdmin === true;
  const base = `${requestUrl(request).origin}/jsonapi/user/user/${user.uuid}`;
  return {
    type: 'user--user',
    id: user.uuid,
    attributes: {
      drupal_internal__uid: user.id,
      name: user.name,
      display_name: user.name,
      ...(self
        ? {
            mail: user.email,
            field_first_name: user.first_name,
            field_last_name: user.last_name,
            // The account's language (issue 30, Drupal's name): null until the user picks one.
            preferred_langcode: user.preferred_langcode,
            roles: ['authenticated'],
            created: new Date(user.created_at).toISOString(),
            changed: new Date(user.updated_at).toISOString(),
          }
        : {}),
    },
    relationships: self
      ? {
          field_completed_stories: {
            data: user.completed_stories.map((id) => ({ type: 'node--quick_start_story', id })),
          },
        }
      : {},
    links: { self: { href: base } },
  };
}

const patchSchema = z.object({
  data: z.object({
    type: z.literal('user--user'),
    id: z.uuid(),
    attributes: z
      .object({
        field_first_name: z.string().trim().min(1).max(100).optional(),
        field_last_name: z.string().trim().min(1).max(100).optional(),
        preferred_langcode: z.enum(LOCALES).nullable().optional(),
      })
      .strict()
      .optional(),
    relationships: z
      .object({
        field_completed_stories: z.object({
          data: z
            .array(z.object({ type: z.literal('node--quick_start_story'), id: z.string().min(1).max(100) }))
            .max(500),
        }),
      })
      .partial()
      .strict()
      .optional(),
  }),
});

export async function userRoutes(app: FastifyInstance): Promise<void> {
  app.get('/jsonapi/user/user', async (request, reply) => {
    const query = parseJsonApiQuery(request.query, USER_PAGE);
    // A lookup, not a directory: the caller names whom they look for.
    if (!query.filter.children.length)
      throw new JsonApiQueryError('filter', 'Filter the users by uid: filter[drupal_internal__uid]=<uid>.');
    // The filters still apply (a uid that is not the caller's finds nothing).
    const me = request.user?.id ?? null;
    const { rows, count } = await fetchCollection(
      app.db,
      app.db
        .selectFrom('users')
        .selectAll('users')
        .$call((qb) => (me === null ? qb.where(sql<boolean>`false`) : qb.where('users.id', '=', me))),
      userCollection,
      query,
    );
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((user) => userResource(user, request)),
        count,
        page: query.page,
      }),
    );
  });

  app.patch<{ Params: { uuid: string } }>('/jsonapi/user/user/:uuid', async (request, reply) => {
    const me = requireUser(request);
    const target = await app.db
      .selectFrom('users')
      .selectAll()
      .where('uuid', '=', request.params.uuid)
      .executeTakeFirst();
    // Another user's account is as unknown to a caller as an account that does not exist: both 404.
    if (!target || (target.id !== me.id && !me.isAdmin)) throw notFound();
    refuseUnknownFields(request.body, 'user--user', {
      attributes: ['field_first_name', 'field_last_name', 'preferred_langcode'],
      relationships: ['field_completed_stories'],
    });
    const parsed = patchSchema.safeParse(request.body, { reportInput: true });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(422, issue ? `${issue.path.join('.')}: ${issue.message}` : 'Invalid document', {
        pointer: `/${issue?.path.join('/') ?? ''}`,
        issues: parsed.error.issues.slice(0, 1),
      });
    }
    if (parsed.data.data.id !== target.uuid) throw new HttpError(409, en.api.idMismatch);
    const attrs = parsed.data.data.attributes ?? {};
    const stories = parsed.data.data.relationships?.field_completed_stories?.data.map((d) => d.id);
    if (stories) {
      // Completed stories are the caller's own record of the tour (not an administrator's to set),
      // and name stories that exist.
      if (target.id !== me.id) throw forbidden(en.quickstart.ownStoriesOnly);
      const unknown = await unknownStoryIds(app.db, stories);
      if (unknown.length) {
        const at = stories.indexOf(unknown[0]!);
        throw new HttpError(422, format(en.quickstart.unknownStory, { id: unknown[0]! }), {
          pointer: `/data/relationships/field_completed_stories/data/${at}/id`,
        });
      }
    }
    const updated = await app.db
      .updateTable('users')
      .set({
        ...(attrs.field_first_name !== undefined ? { first_name: attrs.field_first_name } : {}),
        ...(attrs.field_last_name !== undefined ? { last_name: attrs.field_last_name } : {}),
        ...(attrs.preferred_langcode !== undefined ? { preferred_langcode: attrs.preferred_langcode } : {}),
        ...(stories ? { completed_stories: JSON.stringify([...new Set(stories)]) } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return sendDocument(reply, { data: userResource(updated, request) });
  });
}
