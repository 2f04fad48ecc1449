import { USERS_PAGE_DEFAULT, USERS_PAGE_MAX, type UserSort } from '@portico/contracts/console-users';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectionDocument, requestUrl, resourceDocument, sendDocument } from '../../jsonapi/document.ts';
import { JsonApiQueryError } from '../../jsonapi/errors.ts';
import { parseJsonApiQuery } from '../../jsonapi/query.ts';
import { requireProviderRole } from '../../plugins/session.ts';
import { blockUser, listUsers, parseRoles, setRoles, unblockUser, userDetail } from './service.ts';

const M = en.console.users;

/** The console's user endpoints (README.md): administrators only, every one. */
export async function consoleUserRoutes(app: FastifyInstance): Promise<void> {
  app.get('/admin-api/users', async (request, reply) => {
    requireProviderRole(request, 'administrator', M.adminsOnly);
    const query = parseJsonApiQuery(request.query, {
      defaultLimit: USERS_PAGE_DEFAULT,
      maxLimit: USERS_PAGE_MAX,
      extraParameters: ['filter[q]'],
    });
    const rawQ = query.extra['filter[q]'];
    if (rawQ !== undefined && typeof rawQ !== 'string')
      throw new JsonApiQueryError('filter[q]', 'filter[q] must be given once, as text.');
    if (query.filter.children.length)
      throw new JsonApiQueryError('filter', 'Only filter[q] (a name or e-mail) is supported here.');
    if (query.include.length) throw new JsonApiQueryError('include', 'Nothing can be included here.');
    let sort: UserSort = 'newest';
    if (query.sort.length) {
      const [first, ...rest] = query.sort;
      const asked = first!.direction === 'DESC' ? `-${first!.path}` : first!.path;
      if (rest.length || (asked !== 'name' && asked !== '-created'))
        throw new JsonApiQueryError('sort', "sort must be 'name' or '-created' (newest first, the default).");
      sort = asked === 'name' ? 'name' : 'newest';
    }
    const page = { limit: Math.max(1, query.page.limit), offset: query.page.offset };
    const result = await listUsers(app.db, { q: rawQ ?? '', sort, ...page });
    reply.header('Cache-Control', 'no-store');
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: result.users.map((u) => ({ type: 'console--user', ...u })),
        count: result.count,
        page,
      }),
    );
  });

  app.get<{ Params: { uuid: string } }>('/admin-api/users/:uuid', async (request, reply) => {
    requireProviderRole(request, 'administrator', M.adminsOnly);
    const data = await userDetail(app.db, request.params.uuid);
    reply.header('Cache-Control', 'no-store');
    return sendDocument(reply, resourceDocument({ url: requestUrl(request), data }));
  });

  const answer = async (uuid: string, reply: FastifyReply, request: FastifyRequest) => {
    const data = await userDetail(app.db, uuid);
    reply.header('Cache-Control', 'no-store');
    return sendDocument(reply, resourceDocument({ url: requestUrl(request), data }));
  };

  app.post<{ Params: { uuid: string } }>('/admin-api/users/:uuid/block', async (request, reply) => {
    requireProviderRole(request, 'administrator', M.adminsOnly);
    await blockUser(app, request, request.params.uuid);
    return answer(request.params.uuid, reply, request);
  });

  app.post<{ Params: { uuid: string } }>('/admin-api/users/:uuid/unblock', async (request, reply) => {
    requireProviderRole(request, 'administrator', M.adminsOnly);
    await unblockUser(app, request, request.params.uuid);
    return answer(request.params.uuid, reply, request);
  });

  app.put<{ Params: { uuid: string } }>('/admin-api/users/:uuid/roles', async (request, reply) => {
    requireProviderRole(request, 'administrator', M.adminsOnly);
    const roles = parseRoles(request.body);
    await setRoles(app, request, request.params.uuid, roles);
    return answer(request.params.uuid, reply, request);
  });
}
