import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import type { UserRow } from './users-repo.ts';

/**
 * `GET /jsonapi/user/user` filtered by uid and `PATCH /jsonapi/user/user/{uuid}` (completed
 * Quick Start stories and names). A user sees their own e-mail; others see only the display name.
 */
function userResource(user: UserRow, request: FastifyRequest) {
  const self = request.user?.id === user.id || request.user?.isAdmin === true;
  const base = `${request.protocol}://${request.host}/jsonapi/user/user/${user.uuid}`;
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

const UID_FILTERS = ['filter[drupal_internal__uid]', 'filter[uid]', 'filter[uid][value]'];

const patchSchema = z.object({
  data: z.object({
    type: z.literal('user--user'),
    id: z.uuid(),
    attributes: z
      .object({
        field_first_name: z.string().trim().min(1).max(100).optional(),
        field_last_name: z.string().trim().min(1).max(100).optional(),
      })
      .strict()
      .optional(),
    relationships: z
      .object({
        field_completed_stories: z.object({
          data: z.array(z.object({ type: z.string(), id: z.string().min(1).max(100) })).max(500),
        }),
      })
      .partial()
      .strict()
      .optional(),
  }),
});

export async function userRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/jsonapi/user/user',
    async (request, reply) => {
      const key = UID_FILTERS.find((k) => request.query[k] !== undefined);
      const unknown = Object.keys(request.query).filter((k) => k !== '_format' && !UID_FILTERS.includes(k));
      if (unknown.length)
        throw badRequest(`The query parameter ${unknown[0]} is not supported here.`, unknown[0]);
      if (!key) throw badRequest('Filter the users by uid: filter[drupal_internal__uid]=<uid>.', 'filter');
      const uid = Number(request.query[key]);
      if (!Number.isInteger(uid) || uid <= 0)
        throw badRequest('The uid must be a positive whole number.', key);
      const user = await app.db.selectFrom('users').selectAll().where('id', '=', uid).executeTakeFirst();
      const data = user ? [userResource(user, request)] : [];
      return reply.type('application/vnd.api+json').send({
        jsonapi: { version: '1.0' },
        data,
        meta: { count: data.length },
        links: { self: { href: `${request.protocol}://${request.host}${request.url}` } },
      });
    },
  );

  app.patch<{ Params: { uuid: string } }>('/jsonapi/user/user/:uuid', async (request, reply) => {
    const me = requireUser(request);
    const target = await app.db
      .selectFrom('users')
      .selectAll()
      .where('uuid', '=', request.params.uuid)
      .executeTakeFirst();
    if (!target) throw notFound();
    if (target.id !== me.id && !me.isAdmin) throw forbidden('You may only change your own account.');
    const parsed = patchSchema.safeParse(request.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(422, issue ? `${issue.path.join('.')}: ${issue.message}` : 'Invalid document', {
        pointer: `/${issue?.path.join('/') ?? ''}`,
      });
    }
    if (parsed.data.data.id !== target.uuid)
      throw new HttpError(409, 'The id in the document does not match the URL.');
    const attrs = parsed.data.data.attributes ?? {};
    const stories = parsed.data.data.relationships?.field_completed_stories?.data.map((d) => d.id);
    const updated = await app.db
      .updateTable('users')
      .set({
        ...(attrs.field_first_name !== undefined ? { first_name: attrs.field_first_name } : {}),
        ...(attrs.field_last_name !== undefined ? { last_name: attrs.field_last_name } : {}),
        ...(stories ? { completed_stories: JSON.stringify([...new Set(stories)]) } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', target.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return reply
      .type('application/vnd.api+json')
      .send({ jsonapi: { version: '1.0' }, data: userResource(updated, request) });
  });
}
