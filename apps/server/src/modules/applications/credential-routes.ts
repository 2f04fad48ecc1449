import { secretRequestSchema } from '@portico/contracts/applications';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { ApiErrors } from '../organizations/resources.ts';
import { oauthClientsRepo } from '../../authz-server/clients.ts';
import { requireApplication } from './access.ts';
import { issuesToErrors, objectBody } from './forms.ts';
import { clientIdOf, setSecretDeleted } from './service.ts';

const M = en.applications;

/**
 * Client secrets: reset (a new secret, shown once in the answer) and delete (revoked, unknown to
 * everyone until the next reset). Either way the old secret fails at the token endpoint at once:
 * the authorization server reads the client from the database on every request.
 */
export async function credentialRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  function parse(body: unknown) {
    const parsed = secretRequestSchema.safeParse(objectBody(body));
    if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
    return parsed.data;
  }

  app.post('/secret/reset', async (request, reply) => {
    const user = requireUser(request);
    const { application, environment } = parse(request.body);
    const { app: row } = await requireApplication(db, user, application, 'update');
    const result = await db.transaction().execute(async (trx) => {
      const clientId = await clientIdOf(trx, row.uuid, environment);
      if (!clientId) throw new HttpError(409, M.noProductionClient, { code: 'no_client' });
      const secret = await oauthClientsRepo(trx, app.secretBox).resetSecret(clientId);
      if (!secret) throw new HttpError(409, M.noProductionClient, { code: 'no_client' });
      await setSecretDeleted(trx, row, environment, false);
      await recordAudit(trx, actorOf(request), {
        action: 'application.secret_reset',
        targetType: 'application',
        targetId: row.uuid,
        targetLabel: row.title,
        organizationId: row.organization_id,
        after: { environment, clientId },
      });
      return { clientId, secret };
    });
    request.log.info({ applicationId: row.id, environment }, 'client secret reset');
    reply.header('Cache-Control', 'no-store');
    return reply.send({
      secret: result.secret,
      clientId: result.clientId,
      environment,
      message: M.copySecret,
    });
  });

  app.post('/secret/delete', async (request, reply) => {
    const user = requireUser(request);
    const { application, environment } = parse(request.body);
    const { app: row } = await requireApplication(db, user, application, 'update');
    const clientId = await db.transaction().execute(async (trx) => {
      const id = await clientIdOf(trx, row.uuid, environment);
      if (!id) throw new HttpError(409, M.noProductionClient, { code: 'no_client' });
      // A fresh secret that is never shown: the old one stops working, nobody knows the new one.
      await oauthClientsRepo(trx, app.secretBox).resetSecret(id);
      await setSecretDeleted(trx, row, environment, true);
      await recordAudit(trx, actorOf(request), {
        action: 'application.secret_deleted',
        targetType: 'application',
        targetId: row.uuid,
        targetLabel: row.title,
        organizationId: row.organization_id,
        after: { environment, clientId: id },
      });
      return id;
    });
    request.log.info({ applicationId: row.id, environment }, 'client secret deleted');
    return reply.send({ clientId, environment, deleted: true });
  });
}
