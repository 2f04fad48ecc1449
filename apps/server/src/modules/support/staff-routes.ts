import { en } from '@portico/contracts/messages';
import { supportStaffAddSchema } from '@portico/contracts/support';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { requireAdmin } from '../../plugins/session.ts';
import { addStaff, listStaff, removeStaff } from './staff.ts';
import { parseBody } from '../../lib/validation.ts';

const M = en.support;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Support staff (README.md): administrators list, add (by e-mail) and remove them. */
export async function staffRoutes(app: FastifyInstance): Promise<void> {
  app.get('/admin-api/support/staff', async (request, reply) => {
    requireAdmin(request, M.staffAdminsOnly);
    reply.header('Cache-Control', 'no-store');
    return { data: await listStaff(app) };
  });

  app.post('/admin-api/support/staff', async (request, reply) => {
    requireAdmin(request, M.staffAdminsOnly);
    const input = parseBody(supportStaffAddSchema, request.body);
    return reply.status(201).send({ data: await addStaff(app, input.email) });
  });

  app.delete<{ Params: { uuid: string } }>('/admin-api/support/staff/:uuid', async (request, reply) => {
    requireAdmin(request, M.staffAdminsOnly);
    if (!UUID.test(request.params.uuid)) throw new HttpError(404, M.staffNotFound);
    await removeStaff(app, request.params.uuid.toLowerCase());
    return reply.status(204).send();
  });
}
