import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  ClientAuthInputError,
  checkAuthMethod,
  getClientAuthentication,
  setApplicationClientAuthentication,
} from '../../authz-server/client-auth.ts';
import {
  RegistrationRefusal,
  type DynamicRegistrar,
  type RegisteredClientMetadata,
  type SoftwareStatement,
} from '../../authz-server/registration.ts';
import { GRANT_TYPES, type ClientGrantType } from '../../authz-server/clients.ts';
import { escapeHtml } from '../../lib/html.ts';
import { plainText } from '../../lib/plain-text.ts';
import { requireUser } from '../../plugins/session.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { assertAllowed, findApplication, requireApplication } from './access.ts';
import { heldRoles } from './psd2-roles.ts';
import {
  createApplication,
  creatorBlocked,
  deleteApplication,
  subscribedProductIds,
  updateApplication,
} from './service.ts';
import { appDb, type ApplicationRow } from './tables.ts';

/**
 * Dynamic client registration, the applications side (issue 28, decision 052): the software
 * statement an organization's member downloads for an application, and the registrar that turns a
 * client registered with it (RFC 7591) into an application of the same organization, subscribed to
 * the same products, so that it has the same roles and limits as one created on the portal.
 */

const TITLE_MAX = 255;
const tpp = (ip: string): AuditActor => ({ id: null, email: null, ip });

/** The grant types of the portal's applications among those registered (refresh_token comes with the code). */
function grantTypesOf(client: RegisteredClientMetadata): ClientGrantType[] {
  const asked = client.grantTypes.filter((g) => g !== 'refresh_token');
  const unknown = asked.find((g) => !GRANT_TYPES.includes(g as ClientGrantType));
  if (unknown !== undefined)
    throw new RegistrationRefusal(
      'invalid_client_metadata',
      `grant type '${unknown}' is not offered; use ${GRANT_TYPES.join(' or ')}`,
    );
  if (!asked.length)
    throw new RegistrationRefusal(
      'invalid_client_metadata',
      `grant_types must include ${GRANT_TYPES.join(' or ')}`,
    );
  return asked as ClientGrantType[];
}

function titleOf(
  client: RegisteredClientMetadata,
  statement: SoftwareStatement | null,
  current?: string,
): string {
  const title = (client.clientName ?? statement?.software_client_name ?? current ?? '').trim();
  if (!title) throw new RegistrationRefusal('invalid_client_metadata', 'client_name is required');
  if (title.length > TITLE_MAX)
    throw new RegistrationRefusal(
      'invalid_client_metadata',
      `client_name is longer than ${TITLE_MAX} characters`,
    );
  return title;
}

/** The application the statement was issued for, still in the statement's organization. */
async function statementSource(
  db: FastifyInstance['db'],
  statement: SoftwareStatement,
): Promise<ApplicationRow> {
  const source = await findApplication(db, statement.software_id);
  const org = source
    ? await db
        .selectFrom('organizations')
        .select('uuid')
        .where('id', '=', source.organization_id)
        .executeTakeFirst()
    : undefined;
  if (!source || !org || org.uuid !== statement.org_id)
    throw new RegistrationRefusal(
      'invalid_software_statement',
      'software_statement names an application that no longer exists in its organization (software_id, org_id)',
    );
  return source;
}

export function dynamicRegistrar(app: FastifyInstance): DynamicRegistrar {
  const db = app.db;
  const registeredApp = async (clientId: string): Promise<ApplicationRow | undefined> => {
    const client = await app.oauthClients.getClient(clientId);
    if (!client?.applicationUuid) return undefined;
    const row = await findApplication(db, client.applicationUuid);
    return row?.registered_from ? row : undefined;
  };

  return {
    async isRegistered(clientId) {
      return (await registeredApp(clientId)) !== undefined;
    },

    async create(client, statement, ip) {
      const grantTypes = grantTypesOf(client);
      const title = titleOf(client, statement);
      await db.transaction().execute(async (trx) => {
        const source = await statementSource(trx, statement);
        const blocked = await creatorBlocked(trx, source.uuid);
        if (blocked) throw new RegistrationRefusal('invalid_software_statement', blocked);
        const description = `<p>Registered by the TPP's own tooling (dynamic client registration, RFC 7591) with the software statement of ${escapeHtml(source.title)}.</p>`;
        const row = await createApplication(trx, app.secretBox, {
          title,
          description,
          grantTypes,
          redirectUris: client.redirectUris,
          postLogoutRedirectUris: client.postLogoutRedirectUris,
          organizationId: source.organization_id,
          createdBy: source.created_by,
          productIds: await subscribedProductIds(trx, source.id),
          // A client of a signed JWT or mutual TLS gets no secret from oidc-provider; it is still a
          // confidential client (its secret is never used, as for one set on the form).
          issued: {
            clientId: client.clientId,
            secret: client.clientSecret ?? randomBytes(32).toString('base64url'),
          },
        });
        await setApplicationClientAuthentication(trx, row.uuid, client.authentication);
        await appDb(trx)
          .updateTable('applications')
          // The same certificate, so the same PSD2 roles limit its subscriptions and scopes.
          .set({ registered_from: source.uuid, psd2_certificate_id: source.psd2_certificate_id })
          .where('id', '=', row.id)
          .execute();
        await recordAudit(trx, tpp(ip), {
          action: 'application.registered',
          targetType: 'application',
          targetId: row.uuid,
          targetLabel: row.title,
          organizationId: row.organization_id,
          after: {
            clientId: client.clientId,
            softwareId: statement.software_id,
            redirectUris: client.redirectUris,
            authMethod: client.authentication.method,
          },
        });
      });
    },

    async update(client, statement, ip) {
      const row = await registeredApp(client.clientId);
      if (!row)
        throw new RegistrationRefusal(
          'invalid_client_metadata',
          'only dynamically registered clients can be updated here',
        );
      if (statement && statement.software_id !== row.registered_from)
        throw new RegistrationRefusal(
          'invalid_software_statement',
          'software_statement was issued for another application than the one this client was registered with',
        );
      const grantTypes = grantTypesOf(client);
      const title = titleOf(client, statement, row.title);
      const before = await getClientAuthentication(db, client.clientId);
      await db.transaction().execute(async (trx) => {
        // A FAPI 2.0 application keeps a signed JWT or mutual TLS (the check of every method).
        const fapi = await trx
          .selectFrom('oauth_clients')
          .select('client_id')
          .where('application_uuid', '=', row.uuid)
          .where('fapi', '=', true)
          .executeTakeFirst();
        try {
          checkAuthMethod(client.authentication.method, { fapi: !!fapi });
        } catch (err) {
          if (err instanceof ClientAuthInputError)
            throw new RegistrationRefusal(
              'invalid_client_metadata',
              `token_endpoint_auth_method: ${err.message}`,
            );
          throw err;
        }
        await setApplicationClientAuthentication(trx, row.uuid, client.authentication);
        await updateApplication(trx, app.secretBox, row, {
          title,
          description: row.description,
          grantTypes,
          redirectUris: client.redirectUris,
          postLogoutRedirectUris: client.postLogoutRedirectUris,
        });
        await recordAudit(trx, tpp(ip), {
          action: 'application.registration_updated',
          targetType: 'application',
          targetId: row.uuid,
          targetLabel: title,
          organizationId: row.organization_id,
          before: {
            title: row.title,
            grantTypes: row.grant_types,
            redirectUris: row.redirect_uris,
            authMethod: before.method,
          },
          after: {
            title,
            grantTypes,
            redirectUris: client.redirectUris,
            authMethod: client.authentication.method,
          },
        });
      });
    },

    async remove(clientId, ip) {
      const row = await registeredApp(clientId);
      if (!row) return;
      if (row.status === 'PRODUCTION')
        throw new RegistrationRefusal(
          'invalid_client_metadata',
          'this application is live: delete it on the portal, not through the registration endpoint',
        );
      const removed = await db.transaction().execute(async (trx) => {
        const ids = await deleteApplication(trx, app.secretBox, row);
        await recordAudit(trx, tpp(ip), {
          action: 'application.registration_deleted',
          targetType: 'application',
          targetId: row.uuid,
          targetLabel: row.title,
          organizationId: row.organization_id,
          before: { clientId },
        });
        return ids;
      });
      for (const id of removed) app.oauthClients.clearAccessCache(id);
    },
  };
}

/** A file name from an application title ('Budget Buddy' -> 'budget-buddy'). */
const fileStem = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'application';

/**
 * `GET /api/application/:application/software-statement`: the application's software statement
 * (a signed JWT, `application/jwt`), downloaded by a member who may create applications in its
 * organization and change this one; the TPP's tooling registers clients with it at /oauth/reg.
 */
export async function softwareStatementRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: { application: string } }>(
    '/api/application/:application/software-statement',
    async (request, reply) => {
      const user = requireUser(request);
      const { app: row, access } = await requireApplication(
        app.db,
        user,
        request.params.application,
        'update',
      );
      assertAllowed(access, 'create');
      const org = await app.db
        .selectFrom('organizations')
        .select(['uuid', 'title'])
        .where('id', '=', row.organization_id)
        .executeTakeFirstOrThrow();
      const client = (await app.oauthClients.findByApplication(row.uuid)).find(
        (c) => c.environment === 'DEVELOPMENT',
      );
      const jwt = await app.softwareStatements.sign({
        software_id: row.uuid,
        software_client_id: client?.clientId ?? '',
        software_client_name: row.title,
        software_client_description: plainText(row.description),
        software_version: '1',
        software_environment: 'sandbox',
        software_mode: 'Test',
        software_redirect_uris: row.redirect_uris,
        software_roles: (await heldRoles(app.db, { id: row.id }))?.roles ?? [],
        org_id: org.uuid,
        org_name: org.title,
        org_status: 'Active',
      });
      await recordAudit(
        app.db,
        { id: user.id, email: user.email, ip: request.ip },
        {
          action: 'application.software_statement_issued',
          targetType: 'application',
          targetId: row.uuid,
          targetLabel: row.title,
          organizationId: row.organization_id,
        },
      );
      reply.header('Cache-Control', 'no-store');
      reply.header(
        'Content-Disposition',
        `attachment; filename="${fileStem(row.title)}-software-statement.jwt"`,
      );
      return reply.type('application/jwt').send(jwt);
    },
  );
}
