import { secretRequestSchema } from '@portico/contracts/applications';
import {
  CLIENT_SECRET_TYPE,
  rotateSecretSchema,
  type ClientSecretResource,
} from '@portico/contracts/client-secrets';
import { en } from '@portico/contracts/messages';
import type { FastifyInstance } from 'fastify';
import { sendDocument } from '../../jsonapi/document.ts';
import { HttpError, notFound } from '../../lib/errors.ts';
import { clientSecretsRepo, type StoredClientSecret } from '../../authz-server/secret-rotation.ts';
import { requireUser } from '../../plugins/session.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { oauthClientsRepo } from '../../authz-server/clients.ts';
import { requireApplication } from './access.ts';
import { issuesToErrors, objectBody } from './forms.ts';
import { clientIdOf, setSecretDeleted } from './service.ts';
import { UUID } from '../../lib/ids.ts';
import { ApiErrors } from '../../jsonapi/errors.ts';

const M = en.applications;
const S = en.clientSecrets;

function secretResource(
  environment: 'DEVELOPMENT' | 'PRODUCTION',
  s: StoredClientSecret,
): ClientSecretResource {
  return {
    type: CLIENT_SECRET_TYPE,
    id: s.id,
    attributes: {
      environment,
      client_id: s.clientId,
      created: s.createdAt.toISOString(),
      expires: s.expiresAt ? s.expiresAt.toISOString() : null,
      current: s.current,
      expired: s.expired,
    },
  };
}

type AppParams = { Params: { id: string } };
type SecretParams = { Params: { id: string; secretId: string } };

/**
 * Client secrets: reset (a new secret, shown once in the answer) and delete (revoked, unknown to
 * everyone until the next reset). Either way the old secret fails at the token endpoint at once:
 * the authorization server reads the client from the database on every request.
 */
export async function credentialRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;

  function parse(body: unknown) {
    const parsed = secretRequestSchema.safeParse(objectBody(body), { reportInput: true });
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

  // Rotation with overlap (issue 28, README 'Client secrets'): the secrets of every environment's
  // confidential client, with their dates (never their values).
  app.get<AppParams>('/api/applications/:id/secrets', async (request, reply) => {
    const user = requireUser(request);
    const { app: row } = await requireApplication(db, user, request.params.id, 'viewSecret');
    const secrets = clientSecretsRepo(db, app.secretBox);
    const clients = await db
      .selectFrom('oauth_clients')
      .select(['client_id', 'environment'])
      .where('application_uuid', '=', row.uuid)
      .where('secret', 'is not', null)
      .orderBy('environment')
      .execute();
    const data: ClientSecretResource[] = [];
    for (const c of clients) {
      for (const s of await secrets.list(c.client_id)) data.push(secretResource(c.environment, s));
    }
    reply.header('Cache-Control', 'no-store');
    return sendDocument(reply, { data, meta: { count: data.length } });
  });

  // Rotate: a new current secret; the previous ones keep working for the grace period.
  app.post<AppParams>('/api/applications/:id/secrets', async (request, reply) => {
    const user = requireUser(request);
    const { app: row } = await requireApplication(db, user, request.params.id, 'update');
    const parsed = rotateSecretSchema.safeParse(objectBody(request.body), { reportInput: true });
    if (!parsed.success) throw new ApiErrors(422, issuesToErrors(parsed.error.issues, ''));
    const { environment, gracePeriodHours } = parsed.data.data.attributes;
    const result = await db.transaction().execute(async (trx) => {
      const clientId = await clientIdOf(trx, row.uuid, environment);
      if (!clientId) throw new HttpError(409, M.noProductionClient, { code: 'no_client' });
      const rotated = await clientSecretsRepo(trx, app.secretBox).rotate(clientId, gracePeriodHours * 3600);
      if (!rotated) throw new HttpError(409, S.errors.publicClient, { code: 'public_client' });
      await setSecretDeleted(trx, row, environment, false);
      await recordAudit(trx, actorOf(request), {
        action: 'application.secret_rotated',
        targetType: 'application',
        targetId: row.uuid,
        targetLabel: row.title,
        organizationId: row.organization_id,
        after: {
          environment,
          clientId,
          secretId: rotated.id,
          gracePeriodHours,
          previousExpires: rotated.previousExpires.toISOString(),
        },
      });
      return { clientId, ...rotated };
    });
    request.log.info({ applicationId: row.id, environment, gracePeriodHours }, 'client secret rotated');
    reply.header('Cache-Control', 'no-store');
    const data = secretResource(environment, {
      id: result.id,
      clientId: result.clientId,
      createdAt: result.createdAt,
      expiresAt: null,
      current: true,
      expired: false,
    });
    return sendDocument(
      reply,
      {
        data,
        meta: {
          secret: result.secret,
          message: M.copySecret,
          previousExpires: result.previousExpires.toISOString(),
        },
      },
      201,
    );
  });

  // Revoke an older secret at once (the current one: 409, rotate or reset instead).
  app.delete<SecretParams>('/api/applications/:id/secrets/:secretId', async (request, reply) => {
    const user = requireUser(request);
    const { app: row } = await requireApplication(db, user, request.params.id, 'update');
    const secretId = request.params.secretId.toLowerCase();
    if (!UUID.test(secretId)) throw notFound(S.errors.unknownSecret);
    await db.transaction().execute(async (trx) => {
      const owner = await trx
        .selectFrom('oauth_client_secrets as s')
        .innerJoin('oauth_clients as c', 'c.client_id', 's.client_id')
        .select(['c.client_id', 'c.environment'])
        .where('s.uuid', '=', secretId)
        .where('c.application_uuid', '=', row.uuid)
        .executeTakeFirst();
      if (!owner) throw notFound(S.errors.unknownSecret);
      const outcome = await clientSecretsRepo(trx, app.secretBox).revoke(owner.client_id, secretId);
      if (outcome === 'unknown') throw notFound(S.errors.unknownSecret);
      if (outcome === 'current') throw new HttpError(409, S.errors.currentSecret, { code: 'current_secret' });
      await recordAudit(trx, actorOf(request), {
        action: 'application.secret_revoked',
        targetType: 'application',
        targetId: row.uuid,
        targetLabel: row.title,
        organizationId: row.organization_id,
        after: { environment: owner.environment, clientId: owner.client_id, secretId },
      });
    });
    request.log.info({ applicationId: row.id, secretId }, 'client secret revoked');
    return reply.status(204).send();
  });
}
