import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { OutboxTable } from '../../db/schema.ts';
import {
  collectionDocument,
  requestUrl,
  sendDocument,
  type ResourceObject,
  baseUrl,
} from '../../jsonapi/document.ts';
import { fetchCollection } from '../../jsonapi/kysely.ts';
import { parseJsonApiQuery } from '../../jsonapi/query.ts';
import { notFound } from '../../lib/errors.ts';
import { requireAdmin } from '../../plugins/session.ts';
import { ORGANIZATION_PAGE, outboxCollection, outboxMessages } from './collections.ts';
import { serialId } from '../../lib/ids.ts';

/**
 * `GET /admin-api/outbox`: the messages the portal sent or stored (invitations, password resets),
 * newest first, for provider administrators (the /admin/outbox page). Without SMTP_URL this is the
 * only place the e-mails can be read.
 */
function messageResource(base: string, m: Selectable<OutboxTable>): ResourceObject {
  return {
    type: 'outbox--message',
    id: String(m.id),
    attributes: {
      id: m.id,
      to: m.to_address,
      subject: m.subject,
      text: m.text_body,
      html: m.html_body,
      status: m.status,
      error: m.error,
      created: new Date(m.created_at).toISOString(),
    },
    links: { self: { href: `${base}/admin-api/outbox/${m.id}` } },
  };
}

export async function outboxRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { id: string } }>('/admin-api/outbox/:id', async (request, reply) => {
    requireAdmin(request, en.api.administratorsOnlyOutbox);
    const id = serialId(request.params.id, 'id');
    if (id === undefined) throw notFound();
    const m = await app.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
    if (!m) throw notFound();
    reply.header('Cache-Control', 'no-store');
    return sendDocument(reply, { data: messageResource(baseUrl(request), m) });
  });

  app.get('/admin-api/outbox', async (request, reply) => {
    requireAdmin(request, en.api.administratorsOnlyOutbox);
    const query = parseJsonApiQuery(request.query, ORGANIZATION_PAGE);
    const { rows, count } = await fetchCollection(app.db, outboxMessages(app.db), outboxCollection, query);
    const base = baseUrl(request);
    reply.header('Cache-Control', 'no-store');
    return sendDocument(
      reply,
      collectionDocument({
        url: requestUrl(request),
        data: rows.map((m) => messageResource(base, m)),
        count,
        page: query.page,
      }),
    );
  });
}
