import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { tryoutService } from './service.ts';

const documentationQuery = z.object({ documentationId: z.string().min(1).max(200) });
const uuidParam = z.object({ uuid: z.uuid() });

/** Largest accepted item, in bytes: a 100 000-character body plus a cut response and the form. */
const ITEM_BODY_LIMIT = 256 * 1024;

function parseOr400<T>(schema: z.ZodType<T>, value: unknown, parameter: string): T {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success)
    throw new HttpError(400, `${parameter}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, {
      parameter,
      issues: parsed.error.issues.slice(0, 1),
    });
  return parsed.data;
}

/** Routes of README.md: the signed-in user's own history, nobody else's. */
export async function tryoutRoutes(app: FastifyInstance): Promise<void> {
  const service = tryoutService(app.db);

  app.get('/api/tryout/history', async (request, reply) => {
    const user = requireUser(request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    const documentationId =
      raw.documentationId === undefined
        ? undefined
        : parseOr400(documentationQuery, raw, 'documentationId').documentationId;
    const data = await service.list(user.id, documentationId);
    return reply.header('Cache-Control', 'no-store').send({ data });
  });

  app.put('/api/tryout/history/:uuid', { bodyLimit: ITEM_BODY_LIMIT }, async (request, reply) => {
    const user = requireUser(request);
    const { uuid } = parseOr400(uuidParam, request.params, 'uuid');
    const item = await service.save(user.id, uuid, request.body);
    return reply.send({ data: item });
  });

  app.delete('/api/tryout/history/:uuid', async (request, reply) => {
    const user = requireUser(request);
    const { uuid } = parseOr400(uuidParam, request.params, 'uuid');
    if (!(await service.remove(user.id, uuid))) throw notFound();
    return reply.code(204).send();
  });

  app.delete('/api/tryout/history', async (request, reply) => {
    const user = requireUser(request);
    const { documentationId } = parseOr400(documentationQuery, request.query, 'documentationId');
    const deleted = await service.removeAll(user.id, documentationId);
    return reply.send({ deleted });
  });
}
